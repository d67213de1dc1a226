"""Hand-made meetings and a small deterministic embedder for the evaluation tests."""

from __future__ import annotations

import zlib

import numpy as np
from rerank_plus.evaluation.memory.folding import fold
from rerank_plus.evaluation.memory.qmsum import parse_meeting

DESIGN_MEETING = {
    "meeting_transcripts": [
        {"speaker": "Anna", "content": "Good morning everyone ."},
        {
            "speaker": "Ben",
            "content": "We chose the red rubber case for the remote . "
            "The battery lasts about three years .",
        },
        {
            "speaker": "Cleo",
            "content": "The price should stay below thirty euros . "
            "Marketing wants a bright yellow logo . Okay .",
        },
        {"speaker": "Dan", "content": "I think speech recognition is too expensive for us ."},
        {"speaker": "Anna", "content": "Yeah ."},
    ],
    "topic_list": [
        {"topic": "Design", "relevant_text_span": [["1", "2"]]},
        {"topic": "Speech", "relevant_text_span": [["3", "3"]]},
        {"topic": "Closing", "relevant_text_span": [["4", "4"]]},
    ],
    "general_query_list": [
        {"query": "Summarize the meeting.", "answer": "The remote's case: red, rubber remote."}
    ],
    "specific_query_list": [
        {
            "query": "What did they decide about the case and the price?",
            "answer": "A red rubber case, below thirty euros.",
            "relevant_text_span": [["1", "2"], ["4", "4"]],
        }
    ],
}


def design_meeting():
    return parse_meeting("design", DESIGN_MEETING)


def long_meeting(turns: int = 120):
    """A meeting long enough for several windows, with varied speakers and topics."""
    subjects = ["battery", "price", "logo", "speech", "buttons", "colour", "market", "budget"]
    transcript = [
        {
            "speaker": f"Speaker {n % 4}",
            "content": f"Point {n} is about the {subjects[n % 8]} and what the team should do "
            f"next about it . Short one .",
        }
        for n in range(turns)
    ]
    data = {
        "meeting_transcripts": transcript,
        "topic_list": [
            {"topic": "first half", "relevant_text_span": [["0", str(turns // 2 - 1)]]},
            {"topic": "second half", "relevant_text_span": [[str(turns // 2), str(turns - 1)]]},
        ],
        "general_query_list": [
            {"query": "Summarize the meeting", "answer": "The team discussed battery and price."}
        ],
        "specific_query_list": [
            {
                "query": "What was said about the logo?",
                "answer": "The logo point.",
                "relevant_text_span": [["2", "2"], ["10", "10"]],
            }
        ],
    }
    return parse_meeting("long", data)


def hashed_words(texts: list[str], dimension: int = 64) -> np.ndarray:
    """Bag of folded words hashed into ``dimension`` buckets: similar words, similar vectors."""
    rows = np.zeros((len(texts), dimension), dtype=np.float32)
    for row, text in enumerate(texts):
        for word in fold(text).split() or ["empty"]:
            rows[row, zlib.crc32(word.encode()) % dimension] += 1.0
    return rows
