"""The HTTP servers ("fronts") an app can run behind, on a socket bound beforehand.

The socket is bound by ``rerank-plus serve`` itself, not by the front (``supervisor`` says how
several workers share the port). Both fronts run the same ASGI app; the signals, the drain and
the process's exit are handled around them (``lifecycle``), so both behave alike.

- ``granian``: a Rust HTTP server (hyper on tokio). Its threads accept connections, read and
  parse requests outside the GIL; only the ASGI calls run in Python.
- ``uvicorn``: uvloop and httptools (C), which read and parse on the event-loop thread,
  holding the GIL.
"""

from __future__ import annotations

import contextlib
import logging
import socket
from collections.abc import Iterator
from typing import Any, ClassVar, Protocol

from rerank_plus.errors import MissingExtraError
from rerank_plus.serve.limits import ASGIApp

#: Seconds a graceful stop waits for open connections before closing them.
GRACE_SECONDS = 30


class Front(Protocol):
    """Serves an ASGI app on a listening socket until told to stop."""

    name: ClassVar[str]

    async def serve(self, app: ASGIApp, sock: socket.socket) -> None:
        """Run the app's lifespan and answer requests on ``sock``; return once stopped."""

    def stop(self) -> None:
        """Stop accepting, let open requests finish, run the lifespan's shutdown."""


def bind(
    host: str, port: int, *, reuse_port: bool = False, listen: bool = True, backlog: int = 2048
) -> socket.socket:
    """A TCP socket bound to ``host:port`` (listening unless ``listen`` is false) that child
    processes can inherit; ``reuse_port``: one of several listening sockets on the port, each
    handed a share of the new connections by the kernel (``SO_REUSEPORT``)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
        if listen:  # else the caller listens once it can answer
            sock.listen(backlog)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


#: The log levels at which uvicorn prints a line per request.
_ACCESS_LOG_LEVELS = frozenset(("info", "debug", "trace"))


class UvicornFront:
    """uvicorn (uvloop and httptools where installed) on the given socket."""

    name: ClassVar[str] = "uvicorn"

    def __init__(self, log_level: str = "info") -> None:
        import uvicorn

        class Server(uvicorn.Server):
            # Signals are handled by the caller (the drain), for both fronts alike.
            @contextlib.contextmanager
            def capture_signals(self) -> Iterator[None]:
                yield

        self._server_class = Server
        self.log_level = log_level
        self._server: uvicorn.Server | None = None
        self._stopped = False

    async def serve(self, app: ASGIApp, sock: socket.socket) -> None:
        import uvicorn

        config = uvicorn.Config(
            app,
            log_level=self.log_level,
            # Access lines are logged at info; uvicorn builds each one (quoting the path)
            # before the logger drops it, so above info it is not asked for them at all.
            access_log=self.log_level.lower() in _ACCESS_LOG_LEVELS,
            timeout_graceful_shutdown=GRACE_SECONDS,
            lifespan="on",
        )
        self._server = self._server_class(config)
        self._server.should_exit = self._stopped
        await self._server.serve(sockets=[sock])

    def stop(self) -> None:
        self._stopped = True
        if self._server is not None:
            self._server.should_exit = True


def _not_the_embedding_notice(record: logging.LogRecord) -> bool:
    return "Embedded server is experimental" not in record.getMessage()


_GRANIAN_LEVELS = {"trace": "debug", "critical": "critical", "error": "error"}


class GranianFront:
    """Granian, embedded in this process's event loop, on the given socket."""

    name: ClassVar[str] = "granian"

    def __init__(self, log_level: str = "info") -> None:
        # Granian binds its own listener; this one serves the socket it is given. The socket
        # holder is Granian's own type (the one its worker processes get on Windows): the
        # version range in the `server` extra keeps to the releases that have it.
        from granian._granian import SocketHolder
        from granian.constants import Interfaces
        from granian.log import LogLevels
        from granian.server.embed import Server

        class SocketServer(Server):
            def __init__(self, sock: socket.socket, **options: Any) -> None:
                super().__init__(**options)
                self._given = sock

            def _init_shared_socket(self) -> None:
                # Granian's stubs leave out SocketHolder's (fd, is_uds, backlog) constructor.
                self._ssp = None
                self._shd = SocketHolder(self._given.fileno(), False, self.backlog)  # type: ignore[call-arg,assignment]
                self._sfd = self._given.fileno()  # type: ignore[assignment]

        self._server_class = SocketServer
        self._options = {
            "interface": Interfaces.ASGI,
            "log_level": LogLevels(_GRANIAN_LEVELS.get(log_level, log_level)),
            "log_access": False,
            "websockets": False,
        }
        self._server: Server | None = None
        self._stopped = False

    async def serve(self, app: ASGIApp, sock: socket.socket) -> None:
        from granian.log import logger

        host, port = sock.getsockname()[:2]
        self._server = self._server_class(
            sock, target=app, address=host, port=port, **self._options
        )
        # Embedding is what runs one Granian worker in a process of ours; its notice that the
        # mode is new would greet every start of every worker.
        logger.addFilter(_not_the_embedding_notice)
        if self._stopped:
            return
        await self._server.serve()

    def stop(self) -> None:
        self._stopped = True
        if self._server is not None:
            self._server.stop()


#: The fronts by name; the first is the default: the faster for this app where measured
#: (docs/serve.md, "Scale": the same throughput with one worker, less CPU per request and more
#: requests/s with two).
FRONTS: dict[str, type[UvicornFront] | type[GranianFront]] = {
    "uvicorn": UvicornFront,
    "granian": GranianFront,
}


def make_front(name: str, log_level: str = "info") -> Front:
    """The front called ``name``, or an error naming the valid ones or the missing package."""
    if name not in FRONTS:
        raise ValueError(f"Unknown server {name!r}; choose one of: {', '.join(FRONTS)}.")
    try:
        return FRONTS[name](log_level)
    except ImportError as error:
        raise MissingExtraError(name, "server", f"--server {name}") from error
