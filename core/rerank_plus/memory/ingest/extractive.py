"""The offline summarizer: the most central sentences, kept verbatim, in their original order.

Centrality is a sentence's cosine with the centroid of all candidate sentences (embeddings when
the build has an embedder, tf-idf term weights otherwise); a maximal-marginal-relevance pick
(Carbonell and Goldstein, 1998) lowers a sentence's score by ``redundancy`` times its highest
cosine with a sentence already kept, so a summary does not say one thing twice. Fillers and
fragments (fewer than ``min_sentence_words`` words or fewer than two distinct terms) are kept
only when nothing else is there. Nothing is rewritten, so a summary never names anyone its
sources do not; sentences are joined by line breaks, so splitting a summary gives back exactly
the sentences kept.

Centrality is scaled by ``1 - exp(-information / 12)``, with information the summed idf of the
sentence's distinct terms: a short question made of two central words ("Is it blue?") is not a
summary of a discussion about colours.
"""

from __future__ import annotations

import numpy as np

from rerank_plus.memory.ingest.requests import SourceSentence, Summary, SummaryRequest
from rerank_plus.memory.ingest.vectors import unit_matrix

#: Summed idf at which a sentence's centrality counts for 63% (1 - 1/e): a sentence of two
#: mid-frequency words counts for about half, one of six or more content words almost fully.
INFORMATION_SCALE = 12.0

#: A candidate sentence needs this many distinct terms (fewer: a filler like "Yeah, right.").
CONTENT_TERMS = 2


class ExtractiveSummarizer:
    """Keeps the most central sentences of what it summarizes, within the word budget.

    >>> from rerank_plus.memory import build_memory
    >>> memory = build_memory(["Ann will book the venue in Lyon for the March offsite.",
    ...                        "Bob says the Lyon venue costs 900 euros for two days."])
    >>> memory.level(1)[0].text.splitlines()[0]
    'Bob says the Lyon venue costs 900 euros for two days.'
    """

    name = "extractive"

    def __init__(self, min_sentence_words: int = 5, redundancy: float = 0.3) -> None:
        if isinstance(min_sentence_words, bool) or not isinstance(min_sentence_words, int):
            raise ValueError(f"min_sentence_words must be an int, got {min_sentence_words!r}.")
        if not 0.0 <= redundancy <= 1.0:
            raise ValueError(f"redundancy must be between 0 and 1, got {redundancy!r}.")
        self.min_sentence_words = min_sentence_words
        self.redundancy = redundancy

    def _pool(self, sentences: tuple[SourceSentence, ...]) -> list[int]:
        """Candidates: full sentences with content, else any with a term, else all."""
        for accept in (
            lambda s: s.speech_words >= self.min_sentence_words and len(s.terms) >= CONTENT_TERMS,
            lambda s: len(s.terms) > 0,
            lambda s: True,
        ):
            pool = [i for i, sentence in enumerate(sentences) if accept(sentence)]
            if pool:
                return pool
        return []

    def select(self, sentences: tuple[SourceSentence, ...], budget_words: int) -> list[int]:
        """Positions of the sentences kept, in original order; the most central one is kept
        even when it alone is over the budget."""
        pool = self._pool(sentences)
        if not pool:
            return []
        vectors = [sentences[i].vector for i in pool]
        if any(vector is None for vector in vectors):
            raise ValueError("every candidate sentence needs a vector to be ranked.")
        matrix = unit_matrix(vectors)  # type: ignore[arg-type]
        centroid = matrix.sum(axis=0)
        norm = float(np.linalg.norm(centroid))
        centrality = matrix @ (centroid / norm) if norm else np.zeros(len(pool), np.float32)
        information = np.array([sentences[i].information for i in pool], dtype=np.float32)
        centrality = centrality * (1.0 - np.exp(-information / INFORMATION_SCALE))
        closest = np.zeros(len(pool), dtype=np.float32)
        words = np.array([sentences[i].words for i in pool])
        open_ = np.ones(len(pool), dtype=bool)
        chosen: list[int] = []
        used = 0
        while open_.any():
            fits = open_ & ((used + words <= budget_words) | (not chosen))
            if not fits.any():
                break
            scores = np.where(fits, centrality - self.redundancy * closest, -np.inf)
            best = int(np.argmax(scores))
            chosen.append(best)
            used += int(words[best])
            open_[best] = False
            closest = np.maximum(closest, matrix @ matrix[best])
        return sorted(pool[i] for i in chosen)

    def summarize(self, request: SummaryRequest) -> Summary:
        kept = tuple(
            request.sentences[i] for i in self.select(request.sentences, request.budget_words)
        )
        return Summary(
            text="\n".join(sentence.text for sentence in kept),
            summarizer=self.name,
            kept_sentences=len(kept),
            sentences=kept,
        )

    def __repr__(self) -> str:
        return (
            f"ExtractiveSummarizer(min_sentence_words={self.min_sentence_words}, "
            f"redundancy={self.redundancy})"
        )
