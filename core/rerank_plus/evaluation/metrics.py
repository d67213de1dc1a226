"""Ranking metrics per query, computed by trec_eval (through ``pytrec_eval``), never by hand.

trec_eval is the reference implementation: nDCG@10 uses the judgment grade as the gain
(``ndcg_cut``), a grade >= 1 is relevant, MRR@10 is the reciprocal rank within the top 10,
R@k the share of relevant documents in the top k and Hit@k (``success``) whether any relevant
document is in the top k. A judged query whose ranking is empty scores 0.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import ModuleType

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


def _pytrec_eval() -> ModuleType:
    try:
        import pytrec_eval
    except ImportError as error:
        raise MissingExtraError("pytrec-eval-terrier", "eval", "Evaluation metrics") from error
    return pytrec_eval


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
    pytrec_eval = _pytrec_eval()
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


#: Curve name -> trec_eval measure family, read at every cut-off k = 1..depth.
_CURVES = {"Recall@k": "recall", "nDCG@k": "ndcg_cut", "Hit@k": "success"}
CURVES: tuple[str, ...] = tuple(_CURVES)


def score_curves(
    qrels: Mapping[str, Mapping[str, int]], ranked: Mapping[str, Sequence[str]], depth: int
) -> dict[str, list[float]]:
    """``{curve: [mean value at k = 1, 2, ..., depth]}`` over the judged queries of ``ranked``.

    A judged query with an empty ranking counts as 0 at every k, as in :func:`score_run`.
    """
    if depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth}.")
    pytrec_eval = _pytrec_eval()
    judged = {query: dict(qrels[query]) for query in ranked if query in qrels}
    if not judged:
        return {name: [0.0] * depth for name in _CURVES}
    cuts = ",".join(str(k) for k in range(1, depth + 1))
    evaluator = pytrec_eval.RelevanceEvaluator(
        judged, {f"{measure}.{cuts}" for measure in _CURVES.values()}
    )
    run = {q: docs for q, docs in _trec_run(ranked, None).items() if q in judged}
    totals = {name: [0.0] * depth for name in _CURVES}
    for values in evaluator.evaluate(run).values():
        for name, measure in _CURVES.items():
            curve = totals[name]
            for k in range(1, depth + 1):
                curve[k - 1] += values[f"{measure}_{k}"]
    return {name: [total / len(judged) for total in curve] for name, curve in totals.items()}


def paired_p_value(scores: Sequence[float], baseline: Sequence[float]) -> float:
    """Two-sided paired t-test p-value (scipy); 1.0 when the two never differ."""
    from scipy.stats import ttest_rel

    if len(scores) < 2 or all(a == b for a, b in zip(scores, baseline, strict=True)):
        return 1.0
    p_value = float(ttest_rel(scores, baseline).pvalue)
    return 1.0 if math.isnan(p_value) else p_value
