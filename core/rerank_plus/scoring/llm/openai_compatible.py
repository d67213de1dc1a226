"""An OpenAI-compatible ``/v1/chat/completions`` endpoint over httpx (``pip install
rerank-plus[llm]``): OpenAI, Azure-style gateways, vLLM, llama.cpp, Ollama, LiteLLM...

The key is read from an environment variable, never passed in code or serialized. Rate limits
(429) and an overloaded server (503) raise :class:`RetryableLLMError` with the server's
``Retry-After``, and timeouts raise it too, so the reranker retries them with backoff; other
HTTP errors and malformed replies raise :class:`LLMCallError` at once.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from typing import Any

from rerank_plus.errors import MissingExtraError
from rerank_plus.scoring.llm.errors import LLMCallError, RetryableLLMError
from rerank_plus.scoring.llm.parsing import first_token_logprobs
from rerank_plus.scoring.llm.protocol import Completion, Prompt

#: First-token alternatives asked for when logprobs are wanted (the API allows up to 20).
TOP_LOGPROBS = 5


def _httpx() -> Any:
    try:
        import httpx
    except ImportError as error:
        raise MissingExtraError("httpx", "llm", "OpenAICompatibleChat") from error
    return httpx


class OpenAICompatibleChat:
    """A :class:`~rerank_plus.scoring.llm.protocol.ChatModel` on a chat-completions endpoint.

    Args:
        model: the model name the server knows (``"gpt-4o-mini"``, ``"qwen2.5:7b"``...).
        base_url: the API root, up to and including ``/v1``.
        api_key_env: the environment variable holding the key; when it is unset no
            ``Authorization`` header is sent (local servers need none).
        timeout: seconds per request (connect, read, write).
        temperature: 0 by default, so the same prompt gets the same answer (and caching holds).
        extra_body: more JSON fields for every request (``{"seed": 1}``...).

    >>> chat = OpenAICompatibleChat("gpt-4o-mini")  # doctest: +SKIP
    >>> LLMReranker(chat, mode="listwise").rank("query", ["a", "b"])  # doctest: +SKIP
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str = "https://api.openai.com/v1",
        api_key_env: str = "OPENAI_API_KEY",
        timeout: float = 60.0,
        temperature: float = 0.0,
        extra_body: Mapping[str, Any] | None = None,
    ) -> None:
        if not isinstance(model, str) or not model:
            raise ValueError("model must be the model's name on the server, e.g. 'gpt-4o-mini'.")
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key_env = api_key_env
        self.timeout = timeout
        self.temperature = temperature
        self.extra_body = dict(extra_body or {})
        self._client: Any = None
        self._client_lock = threading.Lock()

    @property
    def model_name(self) -> str:
        return self.model

    @property
    def url(self) -> str:
        return f"{self.base_url}/chat/completions"

    def _headers(self) -> dict[str, str]:
        key = os.environ.get(self.api_key_env)
        return {"Authorization": f"Bearer {key}"} if key else {}

    def _body(self, prompt: Prompt, max_tokens: int, logprobs: bool) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [
                {"role": "system", "content": prompt.system},
                {"role": "user", "content": prompt.user},
            ],
            "temperature": self.temperature,
            "max_tokens": max_tokens,
            **self.extra_body,
        }
        if logprobs:
            body.update(logprobs=True, top_logprobs=TOP_LOGPROBS)
        return body

    def complete(self, prompt: Prompt, *, max_tokens: int, logprobs: bool = False) -> Completion:
        httpx = _httpx()
        with self._client_lock:
            if self._client is None:
                self._client = httpx.Client(timeout=self.timeout)
        try:
            response = self._client.post(
                self.url, json=self._body(prompt, max_tokens, logprobs), headers=self._headers()
            )
        except httpx.TimeoutException as error:
            raise self._timed_out(error) from error
        except httpx.TransportError as error:
            raise self._unreachable(error) from error
        return self._read(response)

    async def acomplete(
        self, prompt: Prompt, *, max_tokens: int, logprobs: bool = False
    ) -> Completion:
        httpx = _httpx()
        try:
            async with httpx.AsyncClient(timeout=self.timeout) as client:
                response = await client.post(
                    self.url,
                    json=self._body(prompt, max_tokens, logprobs),
                    headers=self._headers(),
                )
        except httpx.TimeoutException as error:
            raise self._timed_out(error) from error
        except httpx.TransportError as error:
            raise self._unreachable(error) from error
        return self._read(response)

    def _timed_out(self, error: Exception) -> RetryableLLMError:
        return RetryableLLMError(
            f"{self.url} did not answer within {self.timeout} s ({type(error).__name__}); "
            "raise timeout= or use a faster model."
        )

    def _unreachable(self, error: Exception) -> LLMCallError:
        return LLMCallError(
            f"Could not reach {self.url} ({type(error).__name__}: {error}); check base_url "
            "and that the server is running."
        )

    def _read(self, response: Any) -> Completion:
        status = response.status_code
        if status in (429, 503):
            raise RetryableLLMError(
                f"{self.url} answered HTTP {status} (rate limited or overloaded).",
                retry_after=_retry_after(response.headers.get("retry-after")),
            )
        if status in (401, 403):
            raise LLMCallError(
                f"{self.url} refused the key (HTTP {status}); set the environment variable "
                f"{self.api_key_env} to a valid API key."
            )
        if status >= 400:
            raise LLMCallError(
                f"{self.url} answered HTTP {status}: {response.text[:300]!r}. Check model="
                f"{self.model!r} and base_url."
            )
        try:
            data = response.json()
            choice = data["choices"][0]
            text = choice["message"]["content"] or ""
        except (ValueError, KeyError, IndexError, TypeError) as error:
            raise LLMCallError(
                f"{self.url} sent a reply that is not a chat completion ({error!r}; body starts "
                f"{response.text[:200]!r}). Is base_url an OpenAI-compatible API root (.../v1)?"
            ) from error
        usage = data.get("usage") or {}
        return Completion(
            text=str(text),
            input_tokens=_count(usage.get("prompt_tokens")),
            output_tokens=_count(usage.get("completion_tokens")),
            top_logprobs=first_token_logprobs(choice.get("logprobs")),
        )


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _retry_after(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None  # an HTTP date: fall back to exponential backoff
