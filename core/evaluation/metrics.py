"""Ranking metrics per query, computed by trec_eval (through ``pytrec_eval``), never by hand.

trec_eval is the reference implementation: nDCG@10 uses the judgment grade as the gain
(``ndcg_cut``), a grade >= 1 is relevant, MRR@10 is the reciprocal rank within the top 10,
R@k the share of relevant documents in the top k and Hit@k (``success``) whether any relevant
document is in the top k. A judged query whose ranking is empty scores 0.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from rerank_plus.errors import MissingExtraError

#: Metric name -> (trec_eval measure, its result key, ranking depth it reads; None = all).
_MEASURES: dict[str, tuple[str, str, int | None]] = {
    "nDCG@10": ("ndcg_cut.10", "ndcg_cut_10", None),
    "MRR@10": ("recip_rank", "recip_rank", 10),
    "R@1": ("recall.1", "recall_1", None),
    "R@5": ("recall.5", "recall_5", None),
    "R@10": ("recall.10", "recall_10", None),
    "Hit@1": ("success.1", "success_1", None),
    "Hit@5": ("success.5", "success_5", None),
    "Hit@10": ("success.10", "success_10", None),
}
METRICS: tuple[str, ...] = tuple(_MEASURES)


def _trec_run(ranked: Mapping[str, Sequence[str]], depth: int | None) -> dict:
    """Scores that fall strictly with rank: trec_eval re-sorts by score and would otherwise
    break ties by document id instead of keeping our order."""
    return {
        query: {doc: float(-rank) for rank, doc in enumerate(docs[:depth])}
        for query, docs in ranked.items()
        if docs
    }


def score_run(
    qrels: Mapping[str, Mapping[str, int]], ranked: Mapping[str, Sequence[str]]
) -> dict[str, dict[str, float]]:
    """``{query id: {metric: value}}`` for every judged query of ``ranked``."""
    try:
        import pytrec_eval
    except ImportError as error:
        raise MissingExtraError("pytrec-eval-terrier", "eval", "Evaluation metrics") from error
    judged = {query: dict(qrels[query]) for query in ranked if query in qrels}
    out = {query: dict.fromkeys(METRICS, 0.0) for query in judged}
    for depth in {spec[2] for spec in _MEASURES.values()}:
        chosen = {name: spec for name, spec in _MEASURES.items() if spec[2] == depth}
        evaluator = pytrec_eval.RelevanceEvaluator(judged, {spec[0] for spec in chosen.values()})
        run = {q: docs for q, docs in _trec_run(ranked, depth).items() if q in judged}
        for query, values in evaluator.evaluate(run).items():
            for name, (_, key, _) in chosen.items():
                out[query][name] = float(values[key])
    return out


def paired_p_value(scores: Sequence[float], baseline: Sequence[float]) -> float:
    """Two-sided paired t-test p-value (scipy); 1.0 when the two never differ."""
    from scipy.stats import ttest_rel

    if len(scores) < 2 or all(a == b for a, b in zip(scores, baseline, strict=True)):
        return 1.0
    p_value = float(ttest_rel(scores, baseline).pvalue)
    return 1.0 if math.isnan(p_value) else p_value
