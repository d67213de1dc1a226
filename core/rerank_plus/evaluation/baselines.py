"""The naive lexical baseline rerank-plus is measured against.

rank-bm25's ``BM25Okapi`` on lowercase ``\\w+`` tokens, with statistics from the candidates: what
a pipeline gets from "just add BM25" with no language analysis (no lemmas, no stop words, no
language detection).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rank_bm25 import BM25Okapi

from rerank_plus.reranker import Reranker, Scores

_WORD = re.compile(r"\w+")


def naive_tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


class NaiveBM25Reranker(Reranker):
    """BM25Okapi over lowercase word tokens of the candidates themselves.

    ``relevance_score`` is the score min-max scaled over the candidates (BM25Okapi's IDF goes
    negative for terms in more than half the candidates, so there is no fixed upper bound).
    """

    def __init__(self, k1: float = 1.5, b: float = 0.75) -> None:
        self.k1 = k1
        self.b = b

    def score(self, query: str, documents: Sequence[str], *, explain: bool = False) -> Scores:
        tokenized = [naive_tokens(text) for text in documents]
        if not any(tokenized):
            zeros = [0.0] * len(documents)
            return Scores(zeros, zeros)
        raw = [
            float(x)
            for x in BM25Okapi(tokenized, k1=self.k1, b=self.b).get_scores(naive_tokens(query))
        ]
        low, high = min(raw), max(raw)
        span = high - low
        relevance = [(x - low) / span if span > 0 else 0.0 for x in raw]
        explanations = [{"tokens": len(tokens)} for tokens in tokenized] if explain else None
        return Scores(raw, relevance, explanations)
