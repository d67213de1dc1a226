"""Backends that answer as a judge who knows the true relevance of every passage.

Each passage names its document (``doc017 ...``); the hidden ``relevance`` maps that name to a
number, higher is better. The oracle answers a listwise prompt with the true order of the
passages it was shown, and a pointwise prompt with a grade or a yes from the same numbers, so
the tests can predict every answer. ``serve`` answers an OpenAI chat-completions body the same
way (the HTTP test server uses it).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rerank_plus.scoring.llm import Completion, Prompt

_NUMBERED = re.compile(r"^\[(\d+)\] (doc\d+)", re.M)
_PASSAGE = re.compile(r"^Passage: (doc\d+)", re.M)


def document(number: int, words: str = "about running and training") -> str:
    return f"doc{number:03d} {words}"


def count_words(text: str) -> int:
    """The test server's tokenizer: one token per whitespace-separated word."""
    return len(text.split())


def answer(user: str, relevance: Mapping[str, float], *, grades: int = 4) -> str:
    """The oracle's answer to one user message (listwise or pointwise)."""
    shown = _NUMBERED.findall(user)
    if shown:
        best_first = sorted(shown, key=lambda item: (-relevance[item[1]], int(item[0])))
        return " > ".join(f"[{number}]" for number, _ in best_first)
    name = _PASSAGE.search(user)
    if name is None:
        raise AssertionError(f"the oracle does not know this prompt: {user[:200]!r}")
    value = relevance[name.group(1)]
    top = max(relevance.values()) or 1.0
    if "Yes or No" in user:
        return "Yes" if value >= top / 2 else "No"
    return str(min(grades - 1, int(value / top * grades)))


@dataclass
class OracleChat:
    """A ``ChatModel`` answering by the hidden relevance; records the prompts it saw and the
    most calls it had in flight at once."""

    relevance: Mapping[str, float]
    model_name: str = "oracle"
    delay: float = 0.0
    prompts: list[Prompt] = field(default_factory=list)
    in_flight: int = 0
    most_in_flight: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _enter(self, prompt: Prompt) -> None:
        with self._lock:
            self.prompts.append(prompt)
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def complete(self, prompt: Prompt, *, max_tokens: int, logprobs: bool = False) -> Completion:
        self._enter(prompt)
        try:
            time.sleep(self.delay)
            return Completion(answer(prompt.user, self.relevance))
        finally:
            self._leave()


@dataclass
class AsyncOracleChat(OracleChat):
    """The oracle with a coroutine, as network backends have."""

    async def acomplete(
        self, prompt: Prompt, *, max_tokens: int, logprobs: bool = False
    ) -> Completion:
        import asyncio

        self._enter(prompt)
        try:
            await asyncio.sleep(self.delay)
            return Completion(answer(prompt.user, self.relevance))
        finally:
            self._leave()


def serve(body: Mapping[str, Any], relevance: Mapping[str, float]) -> dict[str, Any]:
    """An OpenAI chat-completion reply to ``body``, usage counted by :func:`count_words`."""
    messages = body["messages"]
    user = next(m["content"] for m in messages if m["role"] == "user")
    text = answer(user, relevance)
    reply: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": body["model"],
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
        "usage": {
            "prompt_tokens": sum(count_words(m["content"]) for m in messages),
            "completion_tokens": count_words(text),
        },
    }
    if body.get("logprobs"):
        yes = -0.05 if text == "Yes" else -3.0
        reply["choices"][0]["logprobs"] = {
            "content": [
                {
                    "token": text,
                    "logprob": yes if text == "Yes" else -0.05,
                    "top_logprobs": [
                        {"token": "Yes", "logprob": yes},
                        {"token": "No", "logprob": -3.0 if text == "Yes" else -0.05},
                    ],
                }
            ]
        }
    return reply
