"""Hard negatives mined with the project's own first stages, false negatives filtered.

A query's candidates are the passages of its group (its meeting, or the whole corpus) that
are not its positives. They are scored by ``bm25`` (:class:`BM25Reranker` fitted on the
corpus: the text's language, lemmas, stopwords), ``bi-encoder`` (:class:`BiEncoderReranker`
cosine) or ``fusion`` (the library's default fusion of the two, as ``FusionReranker``). The
scores are min-max normalized per query (positives included), then two filters drop likely
false negatives before the hardest remaining candidates are kept:

* margin: a candidate scoring above ``best positive - margin`` is dropped (it may answer the
  query; NV-Retriever, Moreira et al. 2024, filters on the positive's score the same way);
* overlap: a candidate sharing a run of ``OVERLAP_WORDS`` words with a positive (or equal to
  it) is dropped, whatever its score. Runs found in more than ``COMMON_RUN_PASSAGES`` passages
  of the corpus do not count: they are boilerplate (in meeting transcripts, speaker labels
  around a backchannel, "grad c: mm - hmm . professor b:", made a third of the QMSum
  candidates "overlap").

What each query kept and dropped is reported (:class:`MiningReport`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rerank_plus.training.errors import TrainingDataError
from rerank_plus.training.examples import Example, TrainingData

MINERS = ("bm25", "bi-encoder", "fusion")
#: Words in a row that make two passages overlap, unless the run is in more passages than this.
OVERLAP_WORDS = 8
COMMON_RUN_PASSAGES = 2


@dataclass(frozen=True, slots=True)
class MiningSettings:
    """``miner`` scores candidates, ``negatives`` are kept per query, ``margin`` is in
    normalized score units; ``model`` is the bi-encoder the ``bi-encoder`` and ``fusion``
    miners use (the base model by default)."""

    miner: str = "fusion"
    negatives: int = 3
    margin: float = 0.05
    model: str | None = None

    def __post_init__(self) -> None:
        if self.miner not in MINERS:
            raise TrainingDataError(f"Unknown miner {self.miner!r}; choose from {MINERS}.")
        if self.negatives < 0 or not 0.0 <= self.margin <= 1.0:
            raise TrainingDataError("negatives must be >= 0 and margin in [0, 1].")


@dataclass(frozen=True, slots=True)
class MiningReport:
    """One query's mining: candidates scored, negatives kept, candidates dropped by each
    filter."""

    query_id: str
    candidates: int
    kept: int
    dropped_margin: int
    dropped_overlap: int


def _shingles(text: str) -> set[int]:
    """Hashes of the runs of ``OVERLAP_WORDS`` words (the whole text when shorter)."""
    words = text.lower().split()
    if len(words) < OVERLAP_WORDS:
        return {hash(tuple(words))}
    return {
        hash(tuple(words[i : i + OVERLAP_WORDS])) for i in range(len(words) - OVERLAP_WORDS + 1)
    }


class _Overlap:
    """Which passages overlap: equal texts, or a shared run that is not boilerplate."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts
        runs = {pid: _shingles(text) for pid, text in texts.items()}
        seen = Counter(run for found in runs.values() for run in found)
        self.runs = {
            pid: {run for run in found if seen[run] <= COMMON_RUN_PASSAGES}
            for pid, found in runs.items()
        }

    def __call__(self, candidate: str, positives: Sequence[str]) -> bool:
        text, runs = self.texts[candidate], self.runs[candidate]
        return any(text == self.texts[p] or runs & self.runs[p] for p in positives)


def _normalized(values: Sequence[float]) -> list[float]:
    low, high = min(values), max(values)
    span = high - low
    return [(v - low) / span if span > 0 else 0.0 for v in values]


class _Scorer:
    """Scores a query's texts with the chosen first stage (models built once)."""

    def __init__(self, settings: MiningSettings, corpus: list[str], base: str) -> None:
        from rerank_plus.compose.fusion import FusionReranker
        from rerank_plus.scoring import BiEncoderReranker, BM25Reranker

        self.miner = settings.miner
        self.bm25 = BM25Reranker().fit(corpus) if self.miner != "bi-encoder" else None
        self.dense: Any = None
        if self.miner != "bm25":
            self.dense = BiEncoderReranker(settings.model or base)
        self.fusion = FusionReranker(self.bm25) if self.miner == "fusion" else None

    def __call__(self, query: str, texts: list[str]) -> list[float]:
        if self.miner == "bm25":
            assert self.bm25 is not None
            return [float(v) for v in self.bm25.score(query, texts).raw]
        cosines = [float(v) for v in self.dense.score(query, texts).raw]
        if self.fusion is None:
            return cosines
        from rerank_plus.reranker import Context

        context = Context(first_stage_scores=cosines)
        return [float(v) for v in self.fusion.score_many([query], [texts], [context])[0].raw]


def _mine_one(
    example: Example,
    candidates: list[str],
    scores: list[float],
    overlaps: _Overlap,
    settings: MiningSettings,
) -> tuple[Example, MiningReport]:
    count = len(example.positives)
    normalized = _normalized(scores)
    ceiling = max(normalized[:count]) - settings.margin
    taken = set(example.positives) | set(example.negatives)
    order = sorted(range(count, len(candidates)), key=lambda i: -normalized[i])
    kept: list[str] = []
    margin = overlap = 0
    for i in order:
        pid = candidates[i]
        if pid in taken:
            continue
        if normalized[i] > ceiling:
            margin += 1
        elif overlaps(pid, example.positives):
            overlap += 1
        elif len(kept) < settings.negatives:
            kept.append(pid)
    report = MiningReport(example.query_id, len(candidates) - count, len(kept), margin, overlap)
    labels = example.labels + (0.0,) * len(kept) if example.labels else ()
    return replace(example, negatives=example.negatives + tuple(kept), labels=labels), report


def _progress(examples: Sequence[Example], shown: bool) -> Iterable[Example]:
    """A progress bar over the queries when asked for and tqdm is there (it comes with the
    [train] extra's trainers)."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return examples
    return tqdm(examples, desc="mining", unit="query", disable=not shown)


def mine_negatives(
    data: TrainingData, settings: MiningSettings, base_model: str, *, progress: bool = False
) -> tuple[TrainingData, list[MiningReport]]:
    """``data`` with up to ``settings.negatives`` mined negatives added to each example."""
    if settings.negatives == 0:
        return data, []
    texts = {pid: passage.text for pid, passage in data.passages.items()}
    scorer = _Scorer(settings, list(texts.values()), base_model)
    overlaps = _Overlap(texts)
    groups = data.groups()
    examples, reports = [], []
    for example in _progress(data.examples, progress):
        pool = [pid for pid in groups.get(example.group, []) if pid not in example.positives]
        candidates = [*example.positives, *pool]
        if not pool:
            examples.append(example)
            reports.append(MiningReport(example.query_id, 0, 0, 0, 0))
            continue
        scores = scorer(example.query, [texts[pid] for pid in candidates])
        mined, report = _mine_one(example, candidates, scores, overlaps, settings)
        examples.append(mined)
        reports.append(report)
    return data.with_examples(examples), reports
