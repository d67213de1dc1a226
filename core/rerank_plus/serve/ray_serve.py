"""The rerank API as a Ray Serve deployment: replicas that each hold the models, autoscaled on
the requests in flight.

Each replica builds the same app as ``rerank-plus serve`` (same endpoints, limits, keys and
answers) in its ``__init__``, and Ray Serve's HTTP proxy hands it the ASGI requests. Two ways
to run it:

- ``rerank-plus serve --ray --config ... --workers 8``: a local Ray instance (or the cluster
  ``RAY_ADDRESS`` names), the proxy on ``--host``/``--port``, 1 to 8 replicas.
- ``serve run rerank_plus.serve.ray_serve:app_builder configs=bm25,detail max_replicas=8``:
  Ray's own CLI or a ``serve deploy`` config file, with the arguments of :func:`app_builder`.
"""

from __future__ import annotations

import signal
import threading
from typing import Any

from rerank_plus.errors import MissingExtraError
from rerank_plus.serve.settings import ServeSettings
from rerank_plus.serve.worker import ServeOptions, build_app


def _ray_serve() -> Any:
    try:
        from ray import serve
    except ImportError as error:
        raise MissingExtraError("ray[serve]", "ray", "rerank-plus serve --ray") from error
    return serve


def rerank_application(
    options: ServeOptions, max_replicas: int = 1, target_ongoing_requests: float = 8.0
) -> Any:
    """A Ray Serve application of the rerank API: 1 to ``max_replicas`` replicas, scaled so
    each has about ``target_ongoing_requests`` requests in flight."""
    serve = _ray_serve()

    @serve.ingress()
    class RerankDeployment:
        """One replica: its own models, the app built once."""

        def __init__(self, options_json: bytes) -> None:
            self._app = build_app(ServeOptions.from_json(options_json))

        def __serve_build_asgi_app__(self) -> Any:
            return self._app

    deployment = serve.deployment(
        RerankDeployment,
        name="rerank-plus",
        autoscaling_config={
            "min_replicas": 1,
            "max_replicas": max_replicas,
            "target_ongoing_requests": target_ongoing_requests,
        },
        # Requests beyond this wait in the proxy's queue, not in a busy replica.
        max_ongoing_requests=max(1, round(4 * target_ongoing_requests)),
    )
    return deployment.bind(options.to_json())


def app_builder(args: dict[str, str]) -> Any:
    """For ``serve run rerank_plus.serve.ray_serve:app_builder key=value ...``: ``configs``
    (comma-separated, as ``--config``; default bm25 and the profiles), ``max_replicas``
    (default 1) and ``target_ongoing_requests`` (default 8). Keys come from
    ``RERANK_PLUS_API_KEYS`` in the replicas' environment."""
    from rerank_plus.serve.auth import load_api_keys

    configs = tuple(c for c in args.get("configs", "").split(",") if c)
    options = ServeOptions(configs=configs, settings=ServeSettings(api_keys=load_api_keys()))
    return rerank_application(
        options,
        int(args.get("max_replicas", 1)),
        float(args.get("target_ongoing_requests", 8.0)),
    )


def serve_on_ray(
    options: ServeOptions,
    host: str,
    port: int,
    max_replicas: int,
    target_ongoing_requests: float,
) -> int:
    """Run the application on Ray Serve until SIGTERM or SIGINT, then shut Serve down."""
    serve = _ray_serve()
    import ray

    ray.init(include_dashboard=False, ignore_reinit_error=True)
    serve.start(http_options={"host": host, "port": port})
    serve.run(
        rerank_application(options, max_replicas, target_ongoing_requests),
        name="rerank-plus",
        route_prefix="/",
    )
    stopped = threading.Event()
    received: list[int] = []

    def stop(sig: int, frame: object) -> None:
        received.append(sig)
        stopped.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, stop)
    print(f"rerank-plus serve: on Ray Serve at http://{host}:{port}", flush=True)
    while not stopped.wait(1.0):
        pass
    serve.shutdown()
    ray.shutdown()
    return 130 if signal.SIGINT in received else 0
