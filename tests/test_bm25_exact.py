"""BM25Reranker's numbers against a reference written from the formula in its docstring.

The golden-ranking tests check orders; these check values: Lucene's IDF, length normalization,
repeated query terms, corpus statistics from ``fit``, per-language groups, and what ``explain``
reports, for several ``k1`` and ``b``. The reference reads the same analyses (the analyzer is
tested on its own) and computes BM25 term by term in plain Python.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest
from rerank_plus import BM25Reranker
from rerank_plus.analysis import Analyzer
from rerank_plus.scoring.bm25 import CorpusStatistics, lucene_idf

QUERY = "Which cats chase cats and dogs?"  # "cat" twice: repeated query terms add up
DOCUMENTS = [
    "A cat chases a mouse through the garden.",
    "Dogs and cats rarely share a basket, but these two dogs chase the cat all day long.",
    "The weather was mild and the sky stayed clear all afternoon.",
    "Cats, cats and more cats: the shelter took in forty cats this winter.",
]


@pytest.fixture(scope="module")
def analyzer(bm25: BM25Reranker) -> Analyzer:
    """The shared reranker's analyzer: its caches are warm."""
    return bm25.analyzer


def reference(
    reranker: BM25Reranker, query: str, documents: Sequence[str]
) -> tuple[list[float], list[float], list[dict[str, float]]]:
    """(raw, relevance, per-term shares) by the docstring's formula, one document at a time."""
    analyzer, k1, b = reranker.analyzer, reranker.k1, reranker.b
    _, languages = analyzer.languages_for(query, documents, reranker.language)
    counts = [
        analyzer.analyze(text, language).term_frequencies
        for text, language in zip(documents, languages, strict=True)
    ]
    lengths = [sum(tf.values()) for tf in counts]
    statistics = reranker.statistics
    if statistics is not None and statistics.average_length > 0:
        average = statistics.average_length
    else:
        average = sum(lengths) / len(lengths)

    def idf(term: str) -> float:
        if statistics is not None:
            n, df = statistics.n_documents, statistics.document_frequency.get(term, 0)
        else:
            n, df = len(documents), sum(term in tf for tf in counts)
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    raw, relevance, shares = [], [], []
    for tf, length, language in zip(counts, lengths, languages, strict=True):
        terms = analyzer.analyze(query, language).terms
        share: dict[str, float] = {}
        for term in terms:
            f = tf.get(term, 0)
            if f:
                value = idf(term) * f * (k1 + 1) / (f + k1 * (1 - b + b * length / average))
                share[term] = share.get(term, 0.0) + value
        best = sum(idf(term) * (k1 + 1) for term in terms)
        total = sum(share.values())
        raw.append(total)
        relevance.append(min(1.0, total / best) if best > 0 else 0.0)
        shares.append(share)
    return raw, relevance, shares


def close(values: Sequence[float], expected: Sequence[float]) -> bool:
    return list(values) == pytest.approx(list(expected), rel=1e-9, abs=1e-12)


def test_lucene_idf_is_the_formula() -> None:
    assert lucene_idf(10, 3) == math.log(1.0 + 7.5 / 3.5)
    assert lucene_idf(4, 4) == math.log(1.0 + 0.5 / 4.5)
    assert lucene_idf(1, 0) == math.log(4.0)
    assert lucene_idf(100, 0) > lucene_idf(100, 1) > lucene_idf(100, 99) > 0


@pytest.mark.parametrize(("k1", "b"), [(1.5, 0.75), (1.2, 0.0), (2.0, 1.0), (0.0, 0.5)])
def test_scores_are_the_formula(k1: float, b: float, analyzer: Analyzer) -> None:
    reranker = BM25Reranker(k1=k1, b=b, language="en", analyzer=analyzer)
    raw, relevance, _ = reference(reranker, QUERY, DOCUMENTS)
    assert raw[1] > raw[0] > raw[2] == 0.0 and raw[3] > 0  # the set is not degenerate
    for explain in (False, True):
        scores = reranker.score(QUERY, DOCUMENTS, explain=explain)
        assert close(scores.raw, raw)
        assert close(scores.relevance, relevance)


def test_defaults_and_settings(analyzer: Analyzer) -> None:
    reranker = BM25Reranker(analyzer=analyzer)
    assert (reranker.k1, reranker.b, reranker.language) == (1.5, 0.75, None)
    assert reranker.analyzer is analyzer and reranker.statistics is None
    assert isinstance(BM25Reranker().analyzer, Analyzer)
    assert BM25Reranker(language="DE").language == "de"
    for b in (0, 1):
        assert BM25Reranker(b=b).b == b


def test_explanation_reports_terms_shares_and_maximum(analyzer: Analyzer) -> None:
    reranker = BM25Reranker(language="en", analyzer=analyzer)
    _, _, shares = reference(reranker, QUERY, DOCUMENTS)
    query_terms = list(analyzer.analyze(QUERY, "en").terms)
    assert query_terms.count("cat") == 2
    counts = [analyzer.analyze(text, "en").term_frequencies for text in DOCUMENTS]
    best = sum(lucene_idf(4, sum(t in tf for tf in counts)) * 2.5 for t in query_terms)
    explanations = reranker.score(QUERY, DOCUMENTS, explain=True).explanations
    assert explanations is not None and len(explanations) == len(DOCUMENTS)
    for explanation, share, text in zip(explanations, shares, DOCUMENTS, strict=True):
        assert set(explanation) == {
            "query_language",
            "document_language",
            "document_analysis",
            "query_terms",
            "matched_terms",
            "max_score",
            "statistics",
        }
        assert explanation["query_language"] == explanation["document_language"] == "en"
        assert explanation["document_analysis"] == analyzer.analyze(text, "en").path
        assert explanation["query_terms"] == query_terms
        assert explanation["matched_terms"].keys() == share.keys()
        assert close(list(explanation["matched_terms"].values()), list(share.values()))
        assert explanation["max_score"] == pytest.approx(best, rel=1e-12)
        assert explanation["statistics"] == "candidates"
    assert reranker.score(QUERY, DOCUMENTS).explanations is None


def test_documents_without_terms_score_zero_and_still_explain(analyzer: Analyzer) -> None:
    reranker = BM25Reranker(language="en", analyzer=analyzer)
    empty = ["!!!", "the and of", "..."]
    plain = reranker.score("cats", empty)
    assert (plain.raw, plain.relevance, plain.explanations) == ([0.0] * 3, [0.0] * 3, None)
    explained = reranker.score("cats", empty, explain=True).explanations
    assert explained is not None
    assert [sorted(e) for e in explained] == [
        ["document_analysis", "document_language", "query_language"]
    ] * 3
    assert [e["document_language"] for e in explained] == ["en"] * 3


def test_a_document_without_terms_scores_zero_under_full_length_normalization(
    analyzer: Analyzer,
) -> None:
    # b = 1 and length 0: rank-bm25 divides 0 by 0 for every query term of that document
    for k1 in (1.5, 0.0):
        scores = BM25Reranker(k1=k1, b=1.0, language="en", analyzer=analyzer).score(
            "cats", ["cats purr", "!!!"]
        )
        assert scores.raw[1] == scores.relevance[1] == 0.0 and scores.raw[0] > 0


def test_a_forced_language_analyzes_query_and_documents_in_it(analyzer: Analyzer) -> None:
    query = "Wo wurden die alten Häuser renoviert?"
    documents = ["Die alten Häuser wurden im letzten Sommer renoviert.", "Das Haus ist neu."]
    for language in ("en", "de"):
        reranker = BM25Reranker(language=language, analyzer=analyzer)
        raw, relevance, _ = reference(reranker, query, documents)
        scores = reranker.score(query, documents, explain=True)
        assert close(scores.raw, raw) and close(scores.relevance, relevance)
        assert scores.explanations is not None
        assert {e["document_language"] for e in scores.explanations} == {language}
    # German lemmas match "Häuser" with "Haus"; English surface forms cannot
    assert BM25Reranker(language="en", analyzer=analyzer).score("Haus", documents).raw[0] == 0
    assert BM25Reranker(language="de", analyzer=analyzer).score("Haus", documents).raw[0] > 0


def test_each_language_group_is_scored_against_the_query_in_its_language(
    analyzer: Analyzer,
) -> None:
    # "and" is an English stop word but a German term: the English group has no query term,
    # and the German group after it must still be scored.
    documents = [
        "The band played rock and roll in the old stadium until midnight.",
        "Die Band spielte Rock and Roll im alten Stadion bis Mitternacht.",
        "Die Kinder spielten den ganzen Nachmittag im Garten hinter dem Haus.",
    ]
    reranker = BM25Reranker(analyzer=analyzer)
    _, languages = analyzer.languages_for("and", documents)
    assert languages == ["en", "de", "de"]
    raw, relevance, _ = reference(reranker, "and", documents)
    assert raw[0] == 0 and raw[1] > 0 and raw[2] == 0
    scores = reranker.score("and", documents)
    assert close(scores.raw, raw) and close(scores.relevance, relevance)


def test_fit_learns_frequencies_and_average_length(analyzer: Analyzer) -> None:
    corpus = [
        "Cats chase cats.",  # "cat" counted once for its document frequency
        "Dogs chase the cat.",
        "Birds sing.",
        "!!!",  # no terms: counts as a document of length 0
    ]
    reranker = BM25Reranker(language="en", analyzer=analyzer)
    assert reranker.fit(corpus) is reranker
    terms = [analyzer.analyze(text, "en").terms for text in corpus]
    frequency: dict[str, int] = {}
    for document in terms:
        for term in set(document):
            frequency[term] = frequency.get(term, 0) + 1
    assert frequency["cat"] == 2
    assert reranker.statistics == CorpusStatistics(4, sum(map(len, terms)) / 4, frequency)
    query = "cats and zebras"  # "zebra" is in no fitted document: document frequency 0
    raw, relevance, _ = reference(reranker, query, DOCUMENTS)
    scores = reranker.score(query, DOCUMENTS, explain=True)
    assert close(scores.raw, raw) and close(scores.relevance, relevance)
    assert scores.explanations is not None
    assert {e["statistics"] for e in scores.explanations} == {"corpus"}
    assert scores.explanations[0]["max_score"] == pytest.approx(
        2.5 * (lucene_idf(4, 2) + lucene_idf(4, 0)), rel=1e-12
    )


def test_fit_reads_every_text_in_the_forced_language(analyzer: Analyzer) -> None:
    corpus = ["Die alten Häuser wurden renoviert.", "Das alte Haus wurde verkauft."]
    english, german = (
        BM25Reranker(language=code, analyzer=analyzer).fit(corpus).statistics
        for code in ("en", "de")
    )
    assert english is not None and german is not None
    assert german.document_frequency.get("haus") == 2
    assert "häuser" in english.document_frequency and "haus" in english.document_frequency


@pytest.mark.parametrize(
    "corpus",
    [
        ["cats", "dogs", "birds"],  # average length exactly 1
        ["!!!", "..."],  # no terms: the candidates' own average length is used
    ],
)
def test_fitted_average_length_is_used_when_positive(corpus: list[str], analyzer: Analyzer) -> None:
    reranker = BM25Reranker(language="en", analyzer=analyzer).fit(corpus)
    raw, relevance, _ = reference(reranker, QUERY, DOCUMENTS)
    scores = reranker.score(QUERY, DOCUMENTS)
    assert all(math.isfinite(value) for value in scores.raw)
    assert close(scores.raw, raw) and close(scores.relevance, relevance)


def test_fit_needs_a_document() -> None:
    with pytest.raises(
        ValueError, match=r"^fit\(\) needs at least one document to learn [a-z ]+\.$"
    ):
        BM25Reranker().fit([])
