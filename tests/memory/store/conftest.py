"""Fixtures of the store tests: a store URL per backend (a SQLite file, ``memory://``, and a
real PostgreSQL server), and a small deterministic embedder.

PostgreSQL: ``RERANK_PLUS_TEST_POSTGRES_URL`` when set (CI starts a server and sets it), else a
server of our own started for the session when PostgreSQL is installed (see
:mod:`tests.memory.store.postgres_server`), else the PostgreSQL tests skip, or fail under
``RERANK_PLUS_REQUIRE_EXTRAS=1``. Each test gets a schema of its own on that server.
"""

from __future__ import annotations

import os
import uuid
import zlib
from collections.abc import Iterator
from urllib.parse import quote

import numpy as np
import pytest

from tests.conftest import REQUIRE_EXTRAS
from tests.memory.store.postgres_server import start_server

#: The backends every store test runs against.
BACKENDS = ("sqlite", "postgresql", "memory")
#: The backends whose stores other processes (and a reopened store) see.
DURABLE_BACKENDS = ("sqlite", "postgresql")
#: A server the tests may use instead of starting one (it must accept CREATE SCHEMA).
POSTGRES_VARIABLE = "RERANK_PLUS_TEST_POSTGRES_URL"


def hashed_embedder(texts: list[str]) -> np.ndarray:
    """Bag of lowercased words hashed into 32 buckets (similar words, similar vectors); a
    text embeds the same alone or in a batch, so stores and writers agree exactly."""
    rows = np.zeros((len(texts), 32), dtype=np.float32)
    for row, text in enumerate(texts):
        for word in text.lower().split():
            rows[row, zlib.crc32(word.encode()) % 32] += 1.0
        rows[row, 0] += 0.01
    return rows


def _unavailable(reason: str) -> None:
    if os.environ.get(REQUIRE_EXTRAS) == "1":
        pytest.fail(f"{reason}, and {REQUIRE_EXTRAS}=1: CI must test the PostgreSQL store")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server for the session (see the module docstring)."""
    pytest.importorskip("psycopg")
    given = os.environ.get(POSTGRES_VARIABLE)
    if given:
        yield given
        return
    try:
        server = start_server()
    except (FileNotFoundError, KeyError, OSError) as error:
        _unavailable(f"no PostgreSQL server for the store tests ({error})")
        return
    try:
        yield server.url
    finally:
        server.stop()


def schema_url(server: str) -> str:
    """A URL of ``server`` whose tables go to a new, empty schema."""
    import psycopg

    schema = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in server else "?"
    return f"{server}{separator}options={quote(f'-csearch_path={schema}')}"


def _url(request: pytest.FixtureRequest, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'memory.db'}"
    if request.param == "postgresql":
        return schema_url(request.getfixturevalue("postgres_url"))
    return "memory://"


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """A URL of an empty store of each backend."""
    return _url(request, tmp_path)


@pytest.fixture(params=DURABLE_BACKENDS)
def durable_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """A URL of an empty store that outlives its ``MemoryStore`` (not ``memory://``)."""
    return _url(request, tmp_path)
