"""The memory policy against flat baselines on the QMSum test meetings, at equal words.

For each query and budget (700, 2000, 4000 tokens) the policy retrieves from a memory built
from the transcript (all-MiniLM-L6-v2 embeddings, the offline extractive summarizer); every
other method gets the words of the policy's context. Prints one table per budget (judges in
``rerank_plus.evaluation.memory.judges``), then the policy against the best baseline per
metric, in points: the measure its targets are set in. Embeddings are cached under
``.memory-eval/embeddings`` (git-ignored), so a second run only pays for building memories
and retrieving.

Run: ``python benchmarks/memory_eval.py [--limit N] [--methods a,b] [--output DIR]``. The
AutoMergingRetriever baseline is found through its entry point: after pulling, refresh the
installed metadata with ``pip install -e . --no-deps``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from rerank_plus.evaluation.memory.suite import DEFAULT_BUDGETS, run_suite

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "eval" / "qmsum"
OUTPUT = Path(__file__).resolve().parent.parent / ".memory-eval" / "benchmark"
#: Embeddings shared by every run from this checkout (``rerank-plus memory eval --cache``).
CACHE = OUTPUT.parent / "embeddings"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the QMSum folder")
    parser.add_argument("--split", default="test")
    parser.add_argument("--limit", type=int, help="the first N meetings only")
    parser.add_argument("--methods", help="comma-separated (default: every available method)")
    parser.add_argument("--output", type=Path, default=OUTPUT, help="results and plots")
    parser.add_argument("--cache", type=Path, default=CACHE, help="the embedding cache")
    args = parser.parse_args()
    started = time.perf_counter()
    outcome = run_suite(
        args.data,
        budgets=DEFAULT_BUDGETS,
        split=args.split,
        limit=args.limit,
        methods=args.methods.split(",") if args.methods else None,
        output=args.output,
        cache=args.cache,
        progress=lambda line: print(line, file=sys.stderr),
    )
    seconds = time.perf_counter() - started
    run = outcome.run
    print(
        f"QMSum {args.split}: {len(run.meetings)} meetings, budgets "
        f"{', '.join(map(str, run.budgets))}; {outcome.embedded} texts embedded this run, "
        f"{seconds:.0f} s in all\n"
    )
    print(outcome.tables)
    print(f"results, tables and plots in {args.output}")


if __name__ == "__main__":
    main()
