"""``BM25Reranker.score_analyzed`` scores documents already analyzed: it must give exactly what
``score`` gives for their texts (an index that keeps its analyses scores its pools with it);
``fit_analyzed`` learns from analyses exactly what ``fit`` learns from the texts."""

from __future__ import annotations

import pytest
from rerank_plus import BM25Reranker
from rerank_plus.analysis import Analyzer

DOCUMENTS = [
    "A cat chases a mouse through the garden.",
    "Dogs and cats rarely share a basket, but these two dogs chase the cat all day long.",
    "Le chat noir dort sur la table de la cuisine.",
    "Der Hund läuft schnell über die Wiese zum Fluss.",
    "",
    "🐈🐈🐈",
    "the and of",  # stop words only: no terms
    "Cats, cats and more cats: the shelter took in forty cats this winter.",
]
QUERIES = ["Which cats chase cats and dogs?", "chat noir", "Hund", "", "🐈", "xylophone"]


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


@pytest.mark.parametrize(("k1", "b"), [(1.5, 0.75), (0.0, 0.75), (1.2, 1.0), (2.0, 0.0)])
@pytest.mark.parametrize("fitted", [False, True])
def test_score_analyzed_equals_score(analyzer: Analyzer, k1: float, b: float, fitted: bool):
    bm25 = BM25Reranker(k1, b, analyzer=analyzer)
    if fitted:
        bm25.fit([*DOCUMENTS, "The garden has a pond and a cat."])
    for query in QUERIES:
        for documents in (DOCUMENTS, DOCUMENTS[2:4], DOCUMENTS[4:7], DOCUMENTS[:1]):
            _, languages = analyzer.languages_for(query, documents)
            analyses = [
                analyzer.analyze(text, language)
                for text, language in zip(documents, languages, strict=True)
            ]
            frequencies = [analysis.term_frequencies for analysis in analyses]
            lengths = [len(analysis.terms) for analysis in analyses]
            expected = bm25.score(query, documents)
            got = bm25.score_analyzed(query, languages, frequencies, lengths)
            assert repr(got) == repr(expected), (query, documents)
            assert got.explanations is None


def test_score_analyzed_does_not_change_its_inputs(analyzer: Analyzer):
    bm25 = BM25Reranker(analyzer=analyzer)
    analyses = [analyzer.analyze(text, "en") for text in DOCUMENTS[:2]]
    frequencies = [dict(analysis.term_frequencies) for analysis in analyses]
    before = [dict(counts) for counts in frequencies]
    scores = bm25.score_analyzed("cat", ["en", "en"], frequencies, [5, 9])
    assert frequencies == before
    assert scores.raw[1] > 0 and scores.raw[0] > 0


def test_fit_analyzed_learns_what_fit_learns(analyzer: Analyzer):
    corpus = [*DOCUMENTS, "The garden has a pond and a cat."]
    _, languages = analyzer.languages_for("", corpus)
    counts = [
        analyzer.analyze(text, language).term_frequencies
        for text, language in zip(corpus, languages, strict=True)
    ]
    fitted = BM25Reranker(analyzer=analyzer).fit(corpus).statistics
    assert BM25Reranker(analyzer=analyzer).fit_analyzed(counts).statistics == fitted
    with pytest.raises(ValueError, match="at least one document"):
        BM25Reranker(analyzer=analyzer).fit_analyzed([])
