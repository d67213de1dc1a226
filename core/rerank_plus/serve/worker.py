"""One server process: load the models, build the app, serve a listening socket.

``rerank-plus serve`` with one worker runs this in its own process. With more, the supervisor
starts each worker as ``python -m rerank_plus.serve.worker --listen FD --control FD``: the
listening socket is inherited, and the control socket (a socketpair with the supervisor)
brings the options down (the API keys never appear on a command line) and takes ``ready``,
or the error that kept the models from loading, back up. Its closing tells the worker that
the supervisor is gone.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import socket
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rerank_plus.errors import RerankPlusError
from rerank_plus.serve.settings import ServeSettings

#: Connections a worker's socket holds while they wait to be accepted.
LISTEN_BACKLOG = 2048


@dataclass(frozen=True)
class ServeOptions:
    """What every worker of a server is started with."""

    configs: tuple[str, ...] = ()
    settings: ServeSettings = field(default_factory=ServeSettings)
    server: str = "uvicorn"
    drain_seconds: float = 0.0
    log_level: str = "info"
    #: Where the supervisor writes how many workers are up (none: a single process).
    fleet_file: str | None = None
    #: A memory store's URL for the ``/v1/memory/...`` endpoints (none: no memory endpoints),
    #: and the embedder its messages and questions are embedded with (a model name or folder).
    memory: str | None = None
    memory_embedder: str | None = None

    def to_json(self) -> bytes:
        return json.dumps(dataclasses.asdict(self)).encode()

    @classmethod
    def from_json(cls, data: bytes) -> ServeOptions:
        values = json.loads(data)
        settings = values.pop("settings")
        settings["api_keys"] = tuple(settings["api_keys"])
        values["configs"] = tuple(values["configs"])
        return cls(settings=ServeSettings(**settings), **values)


def build_app(options: ServeOptions, workers: Callable[[], tuple[int, int]] | None = None) -> Any:
    """The app over ``options``' models, loaded and warmed up, the heap settled for serving."""
    from rerank_plus.serve.app import create_app
    from rerank_plus.serve.heap import settle_heap
    from rerank_plus.serve.models import load_models, warm_up

    models = load_models(options.configs)
    warm_up(models)
    more: dict[str, Any] = {} if workers is None else {"workers": workers}
    if options.memory is not None:
        more["memory"] = functools.partial(
            open_memory_store, options.memory, options.memory_embedder
        )
    app = create_app(models, options.settings, **more)
    if app.state.memory is not None:
        app.state.memory.store()  # opened in this process, before it serves: a bad URL fails now
    settle_heap()
    return app


def open_memory_store(url: str, embedder: str | None) -> Any:
    """The memory store a server process answers ``/v1/memory/...`` from (its summaries built
    by the store's background thread)."""
    from rerank_plus.memory.store import open_store

    return open_store(url, embedder=embedder)


def read_fleet(path: Path) -> Callable[[], tuple[int, int]]:
    """Reads the supervisor's ``up total`` file for ``/health``."""

    def workers() -> tuple[int, int]:
        try:
            up, total = path.read_text(encoding="ascii").split()
        except (OSError, ValueError):
            return 0, 0
        return int(up), int(total)

    return workers


def serve_forever(
    options: ServeOptions,
    sock: socket.socket,
    app: Any,
    lifeline: socket.socket | None = None,
) -> list[int]:
    """Serve ``app`` on ``sock`` behind ``options.server`` until stopped; the signals received."""
    from rerank_plus.serve.fronts import make_front
    from rerank_plus.serve.lifecycle import run, serve_until_stopped

    front = make_front(options.server, options.log_level)
    service = app.state.service
    return run(serve_until_stopped(front, app, sock, service, options.drain_seconds, lifeline))


def _send(control: socket.socket, message: dict[str, Any]) -> None:
    control.sendall(json.dumps(message).encode() + b"\n")


def _receive_options(control: socket.socket) -> ServeOptions:
    data = b""
    while not data.endswith(b"\n"):
        chunk = control.recv(65536)
        if not chunk:
            raise SystemExit("the supervisor closed the control socket before sending options")
        data += chunk
    return ServeOptions.from_json(data)


def main(argv: list[str] | None = None) -> int:
    """A worker under the supervisor (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--listen", type=int, required=True, help="inherited listening socket")
    parser.add_argument("--control", type=int, required=True, help="inherited socketpair end")
    args = parser.parse_args(argv)
    control = socket.socket(fileno=args.control)
    sock = socket.socket(fileno=args.listen)
    options = _receive_options(control)
    try:
        fleet = Path(options.fleet_file) if options.fleet_file else None
        app = build_app(options, read_fleet(fleet) if fleet is not None else None)
    except Exception as error:  # the model's own error, for the supervisor to report
        if not isinstance(error, (RerankPlusError, ValueError, OSError)):
            traceback.print_exc(file=sys.stderr)  # not one of ours: where it came from
        _send(control, {"error": f"{type(error).__name__}: {error}"})
        return 2
    sock.listen(LISTEN_BACKLOG)  # only now: connections come to a worker that can answer
    _send(control, {"ready": True})
    serve_forever(options, sock, app, lifeline=control)
    return 0


if __name__ == "__main__":
    sys.exit(main())
