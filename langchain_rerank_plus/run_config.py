"""The run's callbacks, handed to the model calls a reranker makes deep inside the core.

``compress_documents(..., callbacks=...)`` sets them in a context variable for the length of
the rank; :class:`langchain_rerank_plus.LangChainChat` passes them as the ``config`` of each
``invoke``/``ainvoke``. The core copies the caller's context into its worker threads and async
tasks, so the calls become child runs of the retriever's run (LangSmith traces, token and cost
handlers see them), with its tags and metadata, as LangChain's own ``LLMListwiseRerank`` does
by passing ``config={"callbacks": callbacks}``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from langchain_core.callbacks import Callbacks
from langchain_core.runnables import RunnableConfig

_CONFIG: ContextVar[RunnableConfig | None] = ContextVar("rerank_plus_run_config", default=None)


@contextmanager
def callbacks_of_model_calls(callbacks: Callbacks | None) -> Iterator[None]:
    """Model calls made inside the block report to ``callbacks`` (None: LangChain's own
    context, as a bare ``invoke`` has)."""
    token = _CONFIG.set(None if callbacks is None else RunnableConfig(callbacks=callbacks))
    try:
        yield
    finally:
        _CONFIG.reset(token)


def model_call_config() -> RunnableConfig | None:
    """The config a model call made now should run with."""
    return _CONFIG.get()
