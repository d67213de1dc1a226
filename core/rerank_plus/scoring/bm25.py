"""BM25 over analyzed terms, scored by rank-bm25.

Okapi BM25 (Robertson & Zaragoza, "The Probabilistic Relevance Framework", 2009):

    score(q, d) = sum over query terms t of  idf(t) * tf(t, d) * (k1 + 1)
                                             / (tf(t, d) + k1 * (1 - b + b * |d| / avgdl))

with Lucene's IDF, idf(t) = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5)), which is always positive.
rank-bm25's ``BM25Okapi`` uses ln((N - df + 0.5) / (df + 0.5)) instead: negative once a term is in
more than half of the documents, so in a small candidate set a document containing the query term
could score *below* one without it. Candidate sets are small, so we take Lucene's form.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from rank_bm25 import BM25Okapi

from rerank_plus.analysis import Analyzer
from rerank_plus.reranker import Reranker, Scores
from rerank_plus.validation import check_documents


def lucene_idf(n_documents: int, document_frequency: int) -> float:
    return math.log(1.0 + (n_documents - document_frequency + 0.5) / (document_frequency + 0.5))


@dataclass(frozen=True, slots=True)
class CorpusStatistics:
    """Document frequencies and average length learned by :meth:`BM25Reranker.fit`."""

    n_documents: int
    average_length: float
    document_frequency: Mapping[str, int]


class _LuceneIdfOkapi(BM25Okapi):
    """rank-bm25's Okapi scorer with Lucene's always-positive IDF, fed counted terms.

    rank-bm25 counts each document's tokens and every term's document frequency when it is
    built; our analyses already carry the counts (cached with the analysis), and only the
    query's terms need a document frequency, so ``_initialize`` takes the counts as they are
    and :meth:`use_idf_for` counts the frequencies of the query terms alone.
    """

    def __init__(
        self,
        corpus: list[Mapping[str, int]],
        lengths: Sequence[int] | None = None,
        *,
        k1: float,
        b: float,
    ) -> None:
        self._lengths = lengths
        super().__init__(corpus, k1=k1, b=b)

    def _initialize(self, corpus: list[Mapping[str, int]]) -> dict[str, int]:
        self.doc_freqs = list(corpus)
        self.doc_len = (
            [sum(frequencies.values()) for frequencies in corpus]
            if self._lengths is None
            else list(self._lengths)
        )
        self.corpus_size = len(corpus)
        self.avgdl = sum(self.doc_len) / self.corpus_size
        return {}

    def _calc_idf(self, nd: dict[str, int]) -> None:
        self.idf: dict[str, float] = {}

    def get_batch_scores(self, query: list[str], doc_ids: list[int]) -> list[float]:
        """rank-bm25's scores, where a share of 0 / 0 (NaN) counts as 0 (see
        :meth:`batch_scores`)."""
        return self.batch_scores(query, doc_ids).tolist()

    def batch_scores(self, query: list[str], doc_ids: list[int]) -> np.ndarray:
        """:meth:`get_batch_scores` as an array.

        With k1 = 0 every term a document lacks makes its share 0 / 0, so the shares are summed
        term by term (one NaN must not erase the terms the document has); otherwise only a
        document without terms under b = 1 gets 0 / 0, and its score is 0.
        """
        with np.errstate(invalid="ignore"):
            if self.k1 > 0:
                scores = self._okapi(query, doc_ids)
                # nan_to_num copies and scans the scores to find none, the usual case: test first
                return scores if np.isfinite(scores).all() else np.nan_to_num(scores, nan=0.0)
            shares = [self._okapi([term], doc_ids) for term in query]
        return np.nansum(shares, axis=0)  # callers never pass an empty query

    def _okapi(self, query: list[str], doc_ids: list[int]) -> np.ndarray:
        """rank-bm25's ``BM25Okapi.get_batch_scores``, the same arithmetic in the same order,
        with each document's length norm computed once instead of once per term (and its term
        counts found once, not once per term)."""
        score = np.zeros(len(doc_ids))
        doc_len = np.array([self.doc_len[i] for i in doc_ids])  # not the whole list converted
        norm = self.k1 * (1 - self.b + self.b * doc_len / self.avgdl)
        documents = [self.doc_freqs[i] for i in doc_ids]
        for term in query:
            frequency = np.array([(counts.get(term) or 0) for counts in documents])
            score += (self.idf.get(term) or 0) * (frequency * (self.k1 + 1) / (frequency + norm))
        return score

    def use_idf_for(self, terms: Sequence[str], statistics: CorpusStatistics | None = None) -> None:
        """Compute the IDF of ``terms``, from the candidates or from corpus statistics."""
        for term in terms:
            if term in self.idf:
                continue
            if statistics is not None:
                n, frequency = statistics.n_documents, statistics.document_frequency.get(term, 0)
            else:
                n = self.corpus_size
                frequency = sum(1 for frequencies in self.doc_freqs if term in frequencies)
            self.idf[term] = lucene_idf(n, frequency)


class BM25Reranker(Reranker):
    """Reranks candidates by BM25 over lemmatized, stop-word-free terms, per language.

    Each document is analyzed in its own language and scored against the query analyzed in that
    same language, so a candidate set may mix languages.

    ``relevance_score`` is the BM25 score divided by the highest score the query could reach,
    ``sum(idf(t) * (k1 + 1))`` over its terms (the limit of a document that repeats every query
    term endlessly; a query term found in no candidate counts with the IDF of an unseen term).
    It is therefore comparable across queries: 0 means no query term matched, and a document of
    average length that holds every query term once gets ``1 / (k1 + 1)`` (0.4 with k1=1.5).
    A ``threshold`` of 0.2 keeps documents that earn at least a fifth of that maximum.

    Document statistics come from the candidates themselves unless :meth:`fit` learned them
    from a whole collection, which gives better IDF when candidate sets are small or similar.

    Args:
        k1: term-frequency saturation (1.2..2.0 is usual).
        b: length normalization, 0 (none) to 1 (full).
        language: force one language (ISO 639-1) for the query and every document.
        analyzer: the text analysis to use; by default an :class:`Analyzer` over the default
            languages. Share one analyzer between rerankers to share its cache.
    """

    def __init__(
        self,
        k1: float = 1.5,
        b: float = 0.75,
        *,
        language: str | None = None,
        analyzer: Analyzer | None = None,
    ) -> None:
        if not (isinstance(k1, (int, float)) and math.isfinite(k1) and k1 >= 0):
            raise ValueError(f"k1 must be a finite number >= 0, got {k1!r}.")
        if not (isinstance(b, (int, float)) and 0 <= b <= 1):
            raise ValueError(f"b must be a number in [0, 1], got {b!r}.")
        self.k1 = float(k1)
        self.b = float(b)
        self.language = language.lower() if language else None
        self.analyzer = analyzer if analyzer is not None else Analyzer()
        self.statistics: CorpusStatistics | None = None

    def fit(self, corpus: Sequence[str]) -> BM25Reranker:
        """Learn document frequencies and the average length from a whole collection."""
        texts = check_documents(corpus)
        if not texts:
            raise ValueError("fit() needs at least one document to learn statistics from.")
        _, languages = self.analyzer.languages_for("", texts, self.language)
        return self.fit_analyzed(
            [
                self.analyzer.analyze(text, language).term_frequencies
                for text, language in zip(texts, languages, strict=True)
            ]
        )

    def fit_analyzed(self, frequencies: Sequence[Mapping[str, int]]) -> BM25Reranker:
        """:meth:`fit` on a collection already analyzed: each document's term counts, in the
        language :meth:`fit` would read it in. An index that keeps its documents' analyses
        learns the same statistics without analyzing them again."""
        if not frequencies:
            raise ValueError("fit() needs at least one document to learn statistics from.")
        frequency: Counter[str] = Counter()
        total_length = 0
        for counts in frequencies:
            frequency.update(counts.keys())
            total_length += sum(counts.values())
        self.statistics = CorpusStatistics(
            len(frequencies), total_length / len(frequencies), dict(frequency)
        )
        return self

    def score(self, query: str, documents: Sequence[str], *, explain: bool = False) -> Scores:
        query_language, languages = self.analyzer.languages_for(query, documents, self.language)
        analyses = [
            self.analyzer.analyze(text, language)
            for text, language in zip(documents, languages, strict=True)
        ]
        explanations: list[dict[str, Any]] | None = (
            [
                {
                    "query_language": query_language,
                    "document_language": language,
                    "document_analysis": analysis.path,
                }
                for language, analysis in zip(languages, analyses, strict=True)
            ]
            if explain
            else None
        )
        frequencies = [analysis.term_frequencies for analysis in analyses]
        lengths = [len(analysis.terms) for analysis in analyses]
        return self._scored(query, languages, frequencies, lengths, explanations)

    def score_analyzed(
        self,
        query: str,
        languages: Sequence[str],
        frequencies: Sequence[Mapping[str, int]],
        lengths: Sequence[int],
    ) -> Scores:
        """:meth:`score` of documents already analyzed, without analyzing them again.

        Document ``i`` is ``frequencies[i]`` (its term counts) and ``lengths[i]`` (its number of
        terms), analyzed in ``languages[i]``: what :meth:`score` would pick for these documents
        and this query (``analyzer.languages_for``). An index that keeps its documents' analyses
        scores its candidate pools here; the scores equal :meth:`score`'s.
        """
        return self._scored(query, languages, frequencies, lengths, None)

    def _scored(
        self,
        query: str,
        languages: Sequence[str],
        frequencies: Sequence[Mapping[str, int]],
        lengths: Sequence[int],
        explanations: list[dict[str, Any]] | None,
    ) -> Scores:
        """BM25 of analyzed documents, each against the query analyzed in its language."""
        if not any(lengths):
            return Scores([0.0] * len(languages), [0.0] * len(languages), explanations)
        raw = np.zeros(len(languages))
        relevance = np.zeros(len(languages))
        engine = self._engine(list(frequencies), lengths)
        distinct = dict.fromkeys(languages)
        every = len(distinct) == 1  # the usual pool: one language, every document
        for language in distinct:
            ids = (
                list(range(len(languages)))
                if every
                else [i for i, doc_language in enumerate(languages) if doc_language == language]
            )
            query_terms = list(self.analyzer.analyze(query, language).terms)
            if not query_terms:
                continue
            engine.use_idf_for(query_terms, self.statistics)
            best = sum(engine.idf[term] * (self.k1 + 1) for term in query_terms)  # > 0: idf > 0
            if explanations is None:
                totals = engine.batch_scores(query_terms, ids)
                shares = totals / best
                capped = np.where(shares < 1.0, shares, 1.0)  # min(1, share)
                if every:  # whole arrays: no index list to convert
                    raw, relevance = totals, capped
                else:
                    raw[ids], relevance[ids] = totals, capped
                continue
            per_term = self._per_term(engine, query_terms, ids)
            sums = [sum(column) for column in zip(*per_term.values(), strict=True)]
            for position, i in enumerate(ids):
                raw[i] = float(sums[position])
                relevance[i] = min(1.0, raw[i] / best)
                explanations[i]["query_terms"] = query_terms
                explanations[i]["matched_terms"] = {
                    term: float(values[position])
                    for term, values in per_term.items()
                    if values[position] > 0
                }
                explanations[i]["max_score"] = best
        if explanations is not None:
            source = "corpus" if self.statistics else "candidates"
            for explanation in explanations:
                explanation["statistics"] = source
        return Scores(raw.tolist(), relevance.tolist(), explanations)

    def _engine(
        self, frequencies: list[Mapping[str, int]], lengths: Sequence[int]
    ) -> _LuceneIdfOkapi:
        engine = _LuceneIdfOkapi(frequencies, lengths, k1=self.k1, b=self.b)
        if self.statistics is not None and self.statistics.average_length > 0:
            engine.avgdl = self.statistics.average_length
        return engine

    @staticmethod
    def _per_term(
        engine: _LuceneIdfOkapi, query_terms: list[str], ids: list[int]
    ) -> dict[str, list[float]]:
        """Each query term's BM25 contribution to each document (repeated terms add up)."""
        counts = Counter(query_terms)
        return {
            term: [count * value for value in engine.get_batch_scores([term], ids)]
            for term, count in counts.items()
        }
