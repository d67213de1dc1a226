"""``rerank-plus serve``: run the rerank API (Cohere-, Jina- and TEI-compatible) with uvicorn."""

from __future__ import annotations

import argparse
import ipaddress
import signal
import sys
import threading
from typing import Any

from rerank_plus.errors import MissingExtraError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="Serve rerankers over HTTP (POST /v1/rerank, /v2/rerank, /rerank; GET /health).",
    )
    parser.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="FILE|PROFILE|NAME=SOURCE",
        help="a model to offer (repeatable; the first is the default); "
        "without it: bm25 and the ready profiles",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080, help="port to bind (default 8080)")
    parser.add_argument(
        "--api-key-file",
        help="file with one bearer key per line (keys are also read from RERANK_PLUS_API_KEYS)",
    )
    parser.add_argument(
        "--no-auth",
        action="store_true",
        help="allow binding a non-loopback address without an API key",
    )
    parser.add_argument("--max-documents", type=int, default=1000, help="per request")
    parser.add_argument("--max-body-bytes", type=int, default=10 * 1024 * 1024)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per request")
    parser.add_argument(
        "--batch-wait-ms",
        type=float,
        default=5.0,
        help="how long a neural model gathers concurrent requests into one batch (default 5)",
    )
    parser.add_argument(
        "--batch-size", type=int, default=32, help="most requests in one batch (default 32)"
    )
    parser.add_argument(
        "--drain-seconds",
        type=float,
        default=0.0,
        help="on SIGTERM, keep answering 503 this long (while a load balancer takes the server "
        "out) before closing the listener; in-flight requests finish either way",
    )
    parser.add_argument("--log-level", default="info", help="uvicorn's log level")
    parser.set_defaults(run=run)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from rerank_plus.serve import ServeSettings, create_app, load_models
        from rerank_plus.serve.auth import API_KEYS_ENV, load_api_keys
        from rerank_plus.serve.heap import settle_heap
        from rerank_plus.serve.models import warm_up
    except ImportError as error:
        missing = MissingExtraError(error.name or "fastapi", "server", "rerank-plus serve")
        print(f"rerank-plus serve: error: {missing}", file=sys.stderr)
        return 2
    keys = load_api_keys(args.api_key_file)
    if not keys and not is_loopback(args.host) and not args.no_auth:
        raise ValueError(
            f"binding {args.host} without an API key would open the API to the network; set "
            f"{API_KEYS_ENV} or --api-key-file, bind 127.0.0.1, or pass --no-auth."
        )
    settings = ServeSettings(
        max_documents=args.max_documents,
        max_body_bytes=args.max_body_bytes,
        request_timeout=args.timeout,
        batch_wait=args.batch_wait_ms / 1000,
        batch_size=args.batch_size,
        api_keys=keys,
    )
    models = load_models(args.config)
    warm_up(models)
    app = create_app(models, settings)
    service = app.state.service
    settle_heap()

    received: set[int] = set()

    class DrainingServer(uvicorn.Server):
        """On SIGINT/SIGTERM, answer new requests 503 while in-flight ones finish; with
        ``--drain-seconds``, stop listening only after that long (a second signal: at once)."""

        def handle_exit(self, sig: int, frame: Any) -> None:
            received.add(sig)
            if service.draining or args.drain_seconds <= 0:
                service.draining = True
                super().handle_exit(sig, frame)
                return
            service.draining = True
            stop = threading.Timer(args.drain_seconds, super().handle_exit, (sig, frame))
            stop.daemon = True
            stop.start()

    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        timeout_graceful_shutdown=30,
    )
    try:
        DrainingServer(config).run()  # after a graceful stop, uvicorn re-raises the signal
    except KeyboardInterrupt:
        return 130  # SIGINT's conventional status, without a traceback
    # A process started with SIGINT ignored (a script's background job) gets nothing from the
    # re-raise: the status still says how it was stopped.
    return 130 if signal.SIGINT in received else 0
