"""Several worker processes on one port, kept up by a supervisor (``serve --workers N``).

Scoring holds the GIL, so one process uses about one core; N processes use N. On Linux each
worker gets its own listening socket on the port (``SO_REUSEPORT``, as Granian's and nginx's
workers do), and the kernel spreads new connections over them by a hash of their addresses;
the supervisor holds the port with a bound socket that does not listen, so no other program
takes it while a worker restarts. One listening socket shared by all workers (what gunicorn
does, and the fallback elsewhere) leaves the spreading to whichever worker wakes first: under
a burst of new keep-alive connections one Granian worker took all 16 and the other none.
Each worker loads its own models (all start at once, each reports ``ready`` or the error that
kept its models from loading; one failing fails the start, never a half-up server). Then:

- a worker that exits unasked is replaced at once (the requests it held and the connections
  waiting in its socket's queue are lost, no other's);
- SIGTERM/SIGINT go to every worker, each drains as a single server does
  (``--drain-seconds``), and the supervisor exits once all have; a second signal is passed
  on too (stop at once);
- ``/metrics`` on any worker sums all workers' values (prometheus-client's multiprocess mode,
  files in a folder of the supervisor's), the workers that ended included, so counters never
  go back; ``/health`` says how many workers are up, from a file the supervisor keeps.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import math
import os
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from rerank_plus.serve.fronts import bind
from rerank_plus.serve.metrics import MULTIPROCESS_ENV
from rerank_plus.serve.worker import ServeOptions

_LOG = logging.getLogger("rerank_plus.serve")
#: Whether the kernel spreads connections over the listening sockets of one port (Linux); where
#: it does not (macOS hands them all to the last one bound), the workers share one socket.
SPREADS_REUSE_PORT = sys.platform.startswith("linux")
#: Seconds before a worker whose start failed (after the server was up) is tried again.
RETRY_SECONDS = 1.0


class WorkerStartError(RuntimeError):
    """A worker could not load its models: the server does not start."""


@dataclass
class _Worker:
    slot: int
    process: subprocess.Popen[bytes]
    control: socket.socket
    ready: bool = False
    buffer: bytes = b""


def cgroup_cpu_limit(path: Path = Path("/sys/fs/cgroup/cpu.max")) -> int | None:
    """The CPUs a cgroup v2 quota allows (a container's CPU limit, rounded up), or None."""
    try:
        quota, period = path.read_text(encoding="ascii").split()
    except (OSError, ValueError):
        return None
    if quota == "max":
        return None
    return max(1, math.ceil(int(quota) / int(period)))


def usable_cores() -> int:
    """The cores this process may use: its CPU affinity, capped by a container's CPU limit
    (Kubernetes sets a quota, and the affinity still lists every core of the node)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        cores = os.cpu_count() or 1
    return min(cores, cgroup_cpu_limit() or cores)


class Supervisor:
    """Starts ``count`` workers on ``host:port`` with ``options`` and keeps them up until
    signalled."""

    def __init__(self, options: ServeOptions, count: int, host: str, port: int) -> None:
        if count < 1:
            raise ValueError(f"A server needs at least one worker, got {count}.")
        self.count = count
        self.host = host
        self.port = port
        # Binds now: a port in use fails before any model is loaded.
        self.sock = bind(host, port, reuse_port=SPREADS_REUSE_PORT, listen=not SPREADS_REUSE_PORT)
        self.folder = Path(tempfile.mkdtemp(prefix="rerank-plus-serve-"))
        self.metrics_folder = self.folder / "metrics"
        self.metrics_folder.mkdir()
        self.fleet_file = self.folder / "workers"
        # Each worker's share of the cores for its scoring threads: more threads than that only
        # take turns at the GIL and the cores.
        share = max(1, usable_cores() // count)
        settings = dataclasses.replace(options.settings, scoring_threads=share)
        self.options = dataclasses.replace(
            options, settings=settings, fleet_file=str(self.fleet_file)
        )
        self.workers: dict[int, _Worker] = {}
        self.selector = selectors.DefaultSelector()
        self.signals: list[int] = []
        self.restarts = 0
        self._retry_at: dict[int, float] = {}

    # Starting workers

    def _listener(self) -> socket.socket:
        # Bound, not yet listening: the worker listens once its models are loaded, so the
        # kernel hands no connection to a worker that cannot answer yet (a replacement
        # loading its models would hold them for seconds).
        if SPREADS_REUSE_PORT:
            return bind(self.host, self.port, reuse_port=True, listen=False)
        return self.sock

    def _spawn(self, slot: int) -> _Worker:
        ours, theirs = socket.socketpair()
        listener = self._listener()
        env = {**os.environ, MULTIPROCESS_ENV: str(self.metrics_folder)}
        # Each worker's share of the cores for torch's and BLAS's threads (neural models),
        # unless set: N workers each spinning up a thread per core would fight over them.
        env.setdefault("OMP_NUM_THREADS", str(self.options.settings.scoring_threads))
        command = [
            sys.executable, "-m", "rerank_plus.serve.worker",
            "--listen", str(listener.fileno()), "--control", str(theirs.fileno()),
        ]  # fmt: skip
        process = subprocess.Popen(
            command,
            env=env,
            pass_fds=(listener.fileno(), theirs.fileno()),
            # Its own process group: a terminal's Ctrl-C reaches the supervisor, which passes
            # it on once, not every worker twice.
            process_group=0,
        )
        theirs.close()
        if listener is not self.sock:
            listener.close()  # the worker's own now: it goes when the worker does
        ours.sendall(self.options.to_json() + b"\n")
        worker = _Worker(slot, process, ours)
        self.workers[slot] = worker
        self.selector.register(ours, selectors.EVENT_READ, worker)
        return worker

    def _message(self, worker: _Worker) -> dict[str, object] | None:
        """The worker's next message; ``{"error": ...}`` when it closed without one."""
        try:
            chunk = worker.control.recv(65536)
        except OSError:
            chunk = b""
        if not chunk:
            self.selector.unregister(worker.control)
            return {"error": "the worker exited before it was ready (see its output above)"}
        worker.buffer += chunk
        if b"\n" not in worker.buffer:
            return None
        line, worker.buffer = worker.buffer.split(b"\n", 1)
        return json.loads(line)

    def _write_fleet(self) -> None:
        up = sum(w.ready and w.process.poll() is None for w in self.workers.values())
        partial = self.fleet_file.with_suffix(".new")
        partial.write_text(f"{up} {self.count}", encoding="ascii")
        os.replace(partial, self.fleet_file)

    def start(self) -> bool:
        """All workers at once; True when every one is ready, False when a signal came first;
        raises :class:`WorkerStartError` with the first failing worker's error."""
        self._write_fleet()
        for slot in range(self.count):
            self._spawn(slot)
        waiting = set(self.workers)
        while waiting:
            if self.signals:
                return False
            for key, _ in self.selector.select(timeout=0.2):
                worker: _Worker = key.data
                message = self._message(worker)
                if message is None:
                    continue
                if "error" in message:
                    raise WorkerStartError(
                        f"worker {worker.slot + 1} could not start: {message['error']}"
                    )
                worker.ready = True
                waiting.discard(worker.slot)
                self._write_fleet()
        return True

    # Running

    def _reap(self) -> None:
        """Replace the workers that exited unasked (or schedule it after a failed start)."""
        from prometheus_client import multiprocess

        if self.signals:  # stopping: the workers exit because they were told to
            return
        now = time.monotonic()
        for slot, worker in list(self.workers.items()):
            if worker.process.poll() is None:
                continue
            _LOG.warning(
                "worker %d (pid %d) exited with %s; starting another",
                slot + 1,
                worker.process.pid,
                worker.process.returncode,
            )
            multiprocess.mark_process_dead(worker.process.pid, str(self.metrics_folder))
            self._close(worker)
            del self.workers[slot]
            self._retry_at[slot] = now if worker.ready else now + RETRY_SECONDS
            self._write_fleet()
        for slot, when in list(self._retry_at.items()):
            if when <= now:
                del self._retry_at[slot]
                self._spawn(slot)
                self.restarts += 1

    def _read_messages(self, timeout: float) -> None:
        for key, _ in self.selector.select(timeout=timeout):
            worker: _Worker = key.data
            message = self._message(worker)
            if message is None or worker.ready or self.signals:  # _reap sees to the exit
                continue
            if "error" in message:
                _LOG.error("worker %d could not start: %s", worker.slot + 1, message["error"])
                continue  # it exits; _reap tries again after RETRY_SECONDS
            worker.ready = True
            self._write_fleet()

    def _close(self, worker: _Worker) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(worker.control)
        worker.control.close()

    def _on_signal(self, sig: int, frame: object) -> None:
        self.signals.append(sig)
        for worker in self.workers.values():
            with contextlib.suppress(ProcessLookupError):
                worker.process.send_signal(sig)

    def serve(self) -> list[int]:
        """Start the workers, keep them up until a signal, wait for them to drain; the
        signals received."""
        handled = (signal.SIGINT, signal.SIGTERM)
        previous = {sig: signal.signal(sig, self._on_signal) for sig in handled}
        try:
            try:
                started = self.start()
            except WorkerStartError:
                self._stop_all()
                raise
            while started and not self.signals:
                self._read_messages(timeout=0.1)
                self._reap()
            # No more restarts: the port closes once the last worker lets go of it.
            self.sock.close()
            self._wait_all()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            for worker in self.workers.values():
                self._close(worker)
            shutil.rmtree(self.folder, ignore_errors=True)
        return self.signals

    def _wait_all(self) -> None:
        for worker in self.workers.values():
            while worker.process.poll() is None:
                time.sleep(0.05)

    def _stop_all(self) -> None:
        for worker in self.workers.values():
            if worker.process.poll() is None:
                worker.process.kill()
        for worker in self.workers.values():
            worker.process.wait()
