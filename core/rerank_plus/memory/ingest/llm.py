"""Summaries written by a language model: any LlamaIndex LLM (``llm.complete(prompt).text``) or
LangChain chat model or LLM (``llm.invoke(prompt)`` -> str or a message's ``.content``),
recognized by duck typing, with a prompt that asks to keep names and numbers, cached by content.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Any

from rerank_plus.analysis.cache import LRUCache, content_key
from rerank_plus.memory.ingest.requests import Summarizer, Summary, SummaryError, SummaryRequest

DEFAULT_PROMPT = (
    "Summarize the following part of a conversation in at most {words} words, in the language "
    "of the text. Keep every name (people, roles, products, places, organizations), every "
    "number, amount, date and time exactly as written, and say who decided or proposed what. "
    "Do not add anything the text does not say. Answer with the summary only.\n\n"
    "{text}\n\nSummary:"
)

#: The placeholders a prompt may use: ``{text}`` (required) and ``{words}`` (the budget).
PLACEHOLDERS = ("text", "words")


def check_prompt(prompt: str) -> str:
    """``prompt`` if it has a ``{text}`` placeholder and no other than ``{words}``."""
    if not isinstance(prompt, str):
        raise TypeError(f"prompt must be a str, got {type(prompt).__name__}.")
    try:
        fields = {name for _, name, _, _ in string.Formatter().parse(prompt) if name is not None}
    except ValueError as error:
        raise ValueError(
            f"prompt is not a valid format string ({error}); double literal braces: {{{{ }}}}."
        ) from error
    if "text" not in fields:
        raise ValueError(
            "prompt needs a {text} placeholder where the conversation goes, e.g. "
            "'Summarize, keeping names and numbers:\\n\\n{text}'."
        )
    unknown = sorted(fields - set(PLACEHOLDERS))
    if unknown:
        raise ValueError(
            f"prompt has unknown placeholders {unknown}; use only {{text}} and {{words}} "
            "(double literal braces: {{ }})."
        )
    return prompt


def _caller(llm: Any) -> Callable[[str], str]:
    """How to ask ``llm`` for a completion of one prompt, as text."""
    if callable(getattr(llm, "complete", None)):

        def complete(prompt: str) -> str:
            return _as_text(llm.complete(prompt))

        return complete
    if callable(getattr(llm, "invoke", None)):

        def invoke(prompt: str) -> str:
            return _as_text(llm.invoke(prompt))

        return invoke
    if callable(llm):
        return lambda prompt: _as_text(llm(prompt))
    raise TypeError(
        f"cannot summarize with {type(llm).__name__}; pass a LlamaIndex LLM (.complete), a "
        "LangChain chat model or LLM (.invoke), or a callable from a prompt to text."
    )


def _as_text(answer: Any) -> str:
    if isinstance(answer, str):
        return answer
    for name in ("text", "content"):
        value = getattr(answer, name, None)
        if isinstance(value, str):
            return value
    raise TypeError(
        f"the LLM answered with {type(answer).__name__}, which has no text; expected a str or "
        "an object with .text (LlamaIndex) or .content (LangChain)."
    )


class LLMSummarizer:
    """Summaries from a LlamaIndex or LangChain LLM, cached by prompt content.

    A failing call raises :class:`SummaryError` naming the summary (``build_memory`` with
    ``on_summary_error="extractive"`` keeps an extractive summary instead). An empty answer
    is a failure too. Summaries the model writes are not verbatim: they may paraphrase, which
    the item's ``extras["summarizer"] == "llm"`` says.

    >>> summarizer = LLMSummarizer(lambda prompt: "Ann books Lyon.")
    >>> summarizer.complete("Summarize: {text}".format(text="Ann: I book Lyon."))
    'Ann books Lyon.'
    """

    name = "llm"

    def __init__(self, llm: Any, prompt: str | None = None, cache_size: int = 1024) -> None:
        self.llm = llm
        self.prompt = check_prompt(DEFAULT_PROMPT if prompt is None else prompt)
        self._call = _caller(llm)
        self._cache: LRUCache[str] = LRUCache(cache_size)

    def complete(self, prompt: str) -> str:
        """The model's answer to ``prompt``, stripped (cached)."""
        return self._cache.get_or_compute(content_key(prompt), lambda: self._call(prompt).strip())

    def summarize(self, request: SummaryRequest) -> Summary:
        prompt = self.prompt.format(text=request.text, words=request.budget_words)
        try:
            text = self.complete(prompt)
        except Exception as error:  # any failure of the user's model is reported the same way
            raise SummaryError(
                f"the LLM summarizer failed on {request.id} ({type(error).__name__}: {error}); "
                "check the model, or pass on_summary_error='extractive' to build_memory to "
                "keep an extractive summary instead."
            ) from error
        if not text:
            raise SummaryError(
                f"the LLM summarizer answered nothing for {request.id}; check the model and "
                "the prompt, or pass on_summary_error='extractive' to build_memory."
            )
        return Summary(text=text, summarizer=self.name)

    def __repr__(self) -> str:
        return f"LLMSummarizer({type(self.llm).__name__})"


def as_summarizer(summarizer: Any) -> Summarizer | None:
    """None stays None (extractive); a summarizer stays; an LLM (or a callable from a prompt
    to text) is wrapped in LLMSummarizer."""
    if summarizer is None or isinstance(summarizer, Summarizer):
        return summarizer
    llm_methods = (getattr(summarizer, name, None) for name in ("complete", "invoke"))
    if callable(summarizer) or any(callable(method) for method in llm_methods):
        return LLMSummarizer(summarizer)
    raise TypeError(
        f"cannot summarize with {type(summarizer).__name__}; pass an ExtractiveSummarizer, an "
        "LLMSummarizer, a PrecomputedSummaries, a LlamaIndex or LangChain LLM, a callable from "
        "a prompt to text, or an object with summarize(request)."
    )
