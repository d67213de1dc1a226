"""BM25Reranker: golden rankings on hand-made corpora, the seed example, statistics, explain."""

from __future__ import annotations

import asyncio
import warnings

import pytest
from rerank_plus import BM25Reranker, RankedResult

SEED_QUERY = "How can I run faster while I am training for a marathon?"
SEED_DOCUMENT = (
    "Studies show that intensive endurance training and consistent practice help athletes "
    "improve their running speed and stamina. Regular workouts also reduce fatigue, making it "
    "easier to sustain higher speeds."
)
UNRELATED = [
    "The museum opens a new exhibition of Dutch paintings next month.",
    "Interest rates rose again as the central bank fought inflation.",
    "Our new pasta recipe needs fresh basil, garlic and olive oil.",
]


def ranking(reranker: BM25Reranker, query: str, documents: list[str]) -> list[int]:
    return [result.index for result in reranker.rank(query, documents)]


def test_seed_document_ranks_first(bm25: BM25Reranker) -> None:
    documents = [*UNRELATED[:2], SEED_DOCUMENT, UNRELATED[2]]
    results = bm25.rank(SEED_QUERY, documents)
    assert results[0].index == 2
    assert results[0].relevance_score > 0
    assert all(result.score == 0 for result in results[1:])


@pytest.mark.parametrize(
    ("query", "documents", "expected"),
    [
        (
            "Which cats sleep most?",
            [
                "Dogs bark at strangers.",
                "A cat sleeps up to sixteen hours a day, more than most animals.",
                "Cats hunt mice at night.",
                "Birds sing in the morning.",
            ],
            [1, 2, 0, 3],
        ),
        (
            "Pourquoi les chats dorment-ils autant ?",
            [
                "Les chiens aboient contre les inconnus.",
                "Un chat dort jusqu'à seize heures par jour.",
                "Le chat chasse les souris la nuit.",
                "Les oiseaux chantent le matin.",
            ],
            [1, 2, 0, 3],
        ),
        (
            "Wo wurden die alten Häuser renoviert?",
            [
                "Die Kinder spielen im Park.",
                "Das Haus am Markt ist sehr schön.",
                "In der Altstadt wurden viele Häuser renoviert.",
                "Der Zug fährt um acht Uhr.",
            ],
            [2, 1, 0, 3],
        ),
        (
            "¿Cuándo corren los atletas la maratón?",
            [
                "El mercado abre los domingos.",
                "Los atletas corrieron la maratón de Madrid en abril.",
                "La maratón atrae a miles de corredores.",
                "Mi gato duerme en el sofá.",
            ],
            [1, 2, 0, 3],
        ),
    ],
    ids=["en", "fr", "de", "es"],
)
def test_golden_rankings(
    bm25: BM25Reranker, query: str, documents: list[str], expected: list[int]
) -> None:
    assert ranking(bm25, query, documents) == expected


def test_mixed_language_candidates_are_scored_in_their_own_language(bm25: BM25Reranker) -> None:
    documents = [
        "Die Häuser in der Altstadt wurden renoviert.",
        "The old houses in the town centre were renovated last year.",
        "Le marché ouvre le dimanche matin.",
    ]
    results = bm25.rank("Which old houses were renovated?", documents, explain=True)
    assert results[0].index == 1
    languages = {r.index: r.explanation["document_language"] for r in results}
    assert languages == {0: "de", 1: "en", 2: "fr"}


def test_relevance_is_the_share_of_the_best_reachable_score(bm25: BM25Reranker) -> None:
    results = bm25.rank("marathon", ["marathon " * 200, "marathon", "cats"], explain=True)
    top = results[0]
    assert 0 < top.relevance_score < 1
    assert top.relevance_score == pytest.approx(top.score / top.explanation["max_score"])
    assert results[-1].relevance_score == 0


def test_threshold_and_top_n(bm25: BM25Reranker) -> None:
    documents = [SEED_DOCUMENT, *UNRELATED]
    assert [r.index for r in bm25.rank(SEED_QUERY, documents, threshold=0.01)] == [0]
    assert len(bm25.rank(SEED_QUERY, documents, top_n=2)) == 2


def test_explain_lists_matched_terms_and_their_contributions(bm25: BM25Reranker) -> None:
    result = bm25.rank(SEED_QUERY, [SEED_DOCUMENT, UNRELATED[0]], explain=True)[0]
    explanation = result.explanation
    assert explanation["query_terms"] == ["run", "fast", "train", "marathon"]
    assert set(explanation["matched_terms"]) == {"run", "train"}
    assert sum(explanation["matched_terms"].values()) == pytest.approx(result.score)
    assert explanation["statistics"] == "candidates"


def test_fit_uses_corpus_statistics() -> None:
    corpus = ["marathon"] * 50 + ["training plan"] * 50 + ["rest day"]
    candidates = ["marathon", "training plan"]
    plain = BM25Reranker().rank("marathon training", candidates)
    fitted = BM25Reranker().fit(corpus)
    results = fitted.rank("marathon training", candidates, explain=True)
    assert results[0].explanation["statistics"] == "corpus"
    # Both terms have the same corpus frequency, so the shorter document wins on length.
    assert [r.index for r in results] == [0, 1]
    assert results[0].score != pytest.approx(plain[0].score)


def test_fit_rejects_an_empty_corpus() -> None:
    with pytest.raises(ValueError, match="at least one document"):
        BM25Reranker().fit([])


def test_forced_language(bm25: BM25Reranker) -> None:
    reranker = BM25Reranker(language="fr")
    result = reranker.rank("courir", ["Il courait vite", "Il mange"], explain=True)[0]
    assert result.index == 0
    assert result.explanation["document_language"] == "fr"


def test_invalid_parameters() -> None:
    with pytest.raises(ValueError, match="k1 must be"):
        BM25Reranker(k1=-1)
    with pytest.raises(ValueError, match="k1 must be a finite number"):
        BM25Reranker(k1=float("inf"))
    with pytest.raises(ValueError, match="b must be"):
        BM25Reranker(b=2)


def test_results_are_plain_floats_and_serialize(bm25: BM25Reranker) -> None:
    result = bm25.rank(SEED_QUERY, [SEED_DOCUMENT])[0]
    assert isinstance(result, RankedResult)
    assert type(result.score) is float and type(result.relevance_score) is float
    assert set(result.to_dict()) == {"index", "relevance_score", "score"}


def test_arank_matches_rank(bm25: BM25Reranker) -> None:
    documents = [*UNRELATED, SEED_DOCUMENT]
    assert asyncio.run(bm25.arank(SEED_QUERY, documents, top_n=2)) == bm25.rank(
        SEED_QUERY, documents, top_n=2
    )


def test_first_stage_scores_must_align(bm25: BM25Reranker) -> None:
    with pytest.raises(ValueError, match="2 values for 3 documents"):
        bm25.rank("q", ["a", "b", "c"], first_stage_scores=[0.1, 0.2])
    with pytest.raises(TypeError, match=r"first_stage_scores\[1\]"):
        bm25.rank("q", ["a", "b"], first_stage_scores=[0.1, None])


def test_k1_zero_scores_term_presence_without_nan() -> None:
    """k1 = 0 is binary BM25 (a term counts once however often it occurs); rank-bm25's formula
    divides 0 by 0 for a missing term, which must read as 0, not NaN."""
    documents = ["a marathon race", "bread and butter", "marathon marathon"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        results = BM25Reranker(k1=0, language="en").rank("marathon", documents, explain=True)
    assert [r.index for r in results] == [0, 2, 1]
    assert results[0].score == results[1].score > 0 == results[2].score
    assert [r.relevance_score for r in results] == [1.0, 1.0, 0.0]
