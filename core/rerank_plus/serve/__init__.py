"""``rerank-plus serve``: rerankers behind Cohere-, Jina- and TEI-compatible HTTP endpoints.
Needs the ``server`` extra (FastAPI, uvicorn or Granian, prometheus-client); ``--workers``
runs several processes (``supervisor``), ``--ray`` replicas on Ray Serve (``ray_serve``)."""

from rerank_plus.serve.app import create_app
from rerank_plus.serve.models import load_models
from rerank_plus.serve.settings import ServeSettings

__all__ = ["ServeSettings", "create_app", "load_models"]
