"""Prometheus metrics of one server: requests and errors by status, latency, documents.

A server of several worker processes runs prometheus-client's multiprocess mode: the
supervisor sets ``PROMETHEUS_MULTIPROC_DIR`` before a worker starts, each worker writes its
values to its own files there, and ``/metrics`` on any worker sums the files of all of them,
those of workers that ended included, so no counter goes back when a worker is replaced.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector

from rerank_plus.serve.limits import ASGIApp, Message, Receive, Scope, Send

#: The variable naming the folder where the worker processes of one server write their values.
MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"


class ServerMetrics:
    """The server's own registry (not the process-global one), so two apps never collide."""

    def __init__(self) -> None:
        self.shared_folder = os.environ.get(MULTIPROCESS_ENV) or None
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "rerank_plus_requests",
            "HTTP requests by path and status.",
            ["path", "status"],
            registry=self.registry,
        )
        self.in_flight = Gauge(
            "rerank_plus_requests_in_flight",
            "Requests received and not yet answered, by path.",
            ["path"],
            registry=self.registry,
            multiprocess_mode="livesum",  # the live workers' requests, summed
        )
        self.errors = Counter(
            "rerank_plus_errors",
            "Requests answered with 4xx or 5xx, by status.",
            ["status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "rerank_plus_request_seconds",
            "Time from request to response, by path.",
            ["path"],
            registry=self.registry,
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
        )
        self.documents = Counter(
            "rerank_plus_documents",
            "Documents reranked, by model.",
            ["model"],
            registry=self.registry,
        )
        self.batch_size = Histogram(
            "rerank_plus_batch_requests",
            "Requests ranked together in one micro-batch, by model.",
            ["model"],
            registry=self.registry,
            buckets=(1, 2, 4, 8, 16, 32, 64, 128),
        )

    def exposition(self) -> bytes:
        """The Prometheus text of this process, or of all the server's workers."""
        if self.shared_folder is None:
            return generate_latest(self.registry)
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=self.shared_folder)
        return generate_latest(registry)


class MetricsMiddleware:
    """Counts every HTTP request by its route path (never the raw URL: bounded label values;
    a path with a parameter in it is counted under its route's template).

    The labelled series are looked up once per path and status and kept: ``labels()`` takes a
    lock and builds a key on every call, a visible share of a small request's cost.
    """

    def __init__(
        self,
        app: ASGIApp,
        metrics: ServerMetrics,
        paths: frozenset[str],
        templates: Callable[[str], str | None] | None = None,
    ) -> None:
        self.app = app
        self.metrics = metrics
        self.paths = paths
        #: A path outside ``paths`` -> its route's template (``/v1/memory/{namespace}/...``), or
        #: None for "other".
        self.templates = templates
        self._per_path: dict[str, tuple[Gauge, Histogram]] = {}
        self._per_status: dict[tuple[str, int], tuple[Counter, Counter | None]] = {}

    def _path_series(self, path: str) -> tuple[Gauge, Histogram]:
        series = self._per_path.get(path)
        if series is None:
            metrics = self.metrics
            series = (metrics.in_flight.labels(path), metrics.latency.labels(path))
            self._per_path[path] = series
        return series

    def _status_series(self, path: str, status: int) -> tuple[Counter, Counter | None]:
        series = self._per_status.get((path, status))
        if series is None:
            metrics = self.metrics
            errors = metrics.errors.labels(str(status)) if status >= 400 else None
            series = (metrics.requests.labels(path, str(status)), errors)
            self._per_status[path, status] = series
        return series

    def begin(self, path: str) -> float:
        """A request to ``path`` (a known path, or "other") came in: when."""
        self._path_series(path)[0].inc()
        return time.perf_counter()

    def end(self, path: str, status: int, started: float) -> None:
        """The request to ``path`` that came in at ``started`` was answered with ``status``."""
        in_flight, latency = self._path_series(path)
        in_flight.dec()
        latency.observe(time.perf_counter() - started)
        requests, errors = self._status_series(path, status)
        requests.inc()
        if errors is not None:
            errors.inc()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if path not in self.paths:
            path = (self.templates(path) if self.templates is not None else None) or "other"
        status = 500

        async def record(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        started = self.begin(path)
        try:
            await self.app(scope, receive, record)
        finally:
            self.end(path, status, started)
