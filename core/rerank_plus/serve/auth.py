"""Bearer API keys: read from an environment variable or a file, compared in constant time."""

from __future__ import annotations

import hmac
import os
from collections.abc import Sequence
from pathlib import Path

#: The environment variable holding the server's keys, comma-separated.
API_KEYS_ENV = "RERANK_PLUS_API_KEYS"


def load_api_keys(key_file: str | Path | None = None, env: str = API_KEYS_ENV) -> tuple[str, ...]:
    """Keys from ``$RERANK_PLUS_API_KEYS`` (comma-separated) and ``key_file`` (one per line)."""
    keys = [key.strip() for key in os.environ.get(env, "").split(",")]
    if key_file is not None:
        keys += [line.strip() for line in Path(key_file).read_text(encoding="utf-8").splitlines()]
    return tuple(key for key in keys if key and not key.startswith("#"))


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def is_authorized(token: str | None, keys: Sequence[str]) -> bool:
    """Whether ``token`` is one of ``keys``; every key is compared, each in constant time, so the
    time taken says nothing about which key or how many characters matched."""
    if not keys:
        return True
    if token is None:
        return False
    given = token.encode()
    matches = [hmac.compare_digest(given, key.encode()) for key in keys]
    return any(matches)
