"""Judges: how much of what answers a query a context carries, read verbatim.

Specific queries (QMSum names the turns that answer them):

* ``gold_recall``: the share of gold turns the context recalls. A turn is recalled when at
  least half of its sentences of 5+ words (:func:`~.folding.judged_sentences`) appear in the
  context, case and punctuation folded. Gold turns without any such sentence ("Yeah .") are
  left out of the denominator; a query left with no gold turn is left out of the means.
* ``hit``: 1 when the context recalls at least one gold turn.
* ``mrr``: 1 / rank of the first piece that recalls a gold turn. A context is a list of
  pieces (a window, a turn, a summary, in the method's order); the piece of a recalled gold
  turn is the first piece that contains one of its judged sentences, and the rank is that
  piece's 1-based position. 0 when nothing is recalled.
* ``mrr_words``: the same with every method's context cut into pieces of
  :data:`PIECE_WORDS` words, in reading order: 1 / (1 + the words before the first judged
  sentence of a recalled gold turn, divided by ``PIECE_WORDS``, rounded down). ``mrr`` depends
  on how large a method's pieces are (a window of 150 words is one piece, a quoted message
  another); this one reads only where the answer starts.

Where the turns have times (a chat's messages), each specific query also counts its recalled
gold turns (``answers_recalled``) and those the context dates right (``answers_dated``: the
date in force where the turn first shows is the turn's own, :mod:`~.dates`); the report's
``dated`` is their ratio over every query. Dates written into a quoted message (``yesterday
[2024-03-03]``) are taken out before sentences are looked for.

General queries (QMSum gives a reference answer and the meeting's topics with their turns):

* ``answer_recall``: ROUGE-1 recall of the reference's content words: folded words, English
  stop words out (the project's list), clipped counts (a word the reference says twice counts
  twice only if the context says it twice too).
* ``topic_coverage``: the share of the meeting's topics with any judged sentence of any of
  their turns in the context; topics whose turns have no judged sentence are left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rerank_plus.evaluation.memory.dates import DatedContext, without_annotations
from rerank_plus.evaluation.memory.folding import FoldedContext, content_words, judged_sentences
from rerank_plus.evaluation.memory.qmsum import Meeting, Query

SPECIFIC_METRICS = ("gold_recall", "hit", "mrr", "mrr_words")
#: The piece size of ``mrr_words``: the flat window baselines' size.
PIECE_WORDS = 150
GENERAL_METRICS = ("answer_recall", "topic_coverage")
#: Counts a timed meeting's specific queries add (the report's ``dated`` is their ratio).
DATE_COUNTS = ("answers_recalled", "answers_dated")


def answer_recall(reference: str, context: str) -> float | None:
    """ROUGE-1 recall of ``reference``'s content words in ``context`` (clipped counts); None
    when the reference has no content word.

    >>> answer_recall("The remote, the remote and the button.", "a remote button")
    0.6666666666666666
    """
    wanted = content_words(reference)
    total = sum(wanted.values())
    if not total:
        return None
    found = content_words(context)
    return sum(min(count, found[word]) for word, count in wanted.items()) / total


class MeetingJudge:
    """Judges contexts about one meeting (its turns' sentences folded once)."""

    def __init__(self, meeting: Meeting) -> None:
        self.meeting = meeting
        self.timed = any(turn.time is not None for turn in meeting.turns)
        self.turn_sentences = [judged_sentences(turn.text) for turn in meeting.turns]
        self.topic_sentences = [
            sentences
            for topic in meeting.topics
            if (sentences := [s for i in topic.turns for s in self.turn_sentences[i]])
        ]

    def judge(self, query: Query, text: str, pieces: Sequence[str]) -> dict[str, float]:
        """The metrics of ``query``'s kind for a context (its whole ``text`` and its
        ``pieces`` in order); a metric with nothing to judge is left out."""
        if query.kind == "specific" and self.timed:
            dated = DatedContext(text)
            metrics = self._specific(query, dated, [without_annotations(p) for p in pieces])
            if metrics:
                metrics.update(self._dates(query, dated))
            return metrics
        context = FoldedContext(text)
        if query.kind == "specific":
            return self._specific(query, context, pieces)
        return self._general(query, text, context)

    def _dates(self, query: Query, context: DatedContext) -> dict[str, float]:
        turns = self.meeting.turns
        recalled = [
            turn
            for turn in query.gold_turns
            if self.turn_sentences[turn] and self.recalled(turn, context)
        ]
        said = [turns[turn].time for turn in recalled]
        dated = sum(
            moment is not None and context.date_of(self.turn_sentences[turn]) == moment.date()
            for turn, moment in zip(recalled, said, strict=True)
        )
        return {"answers_recalled": float(len(recalled)), "answers_dated": float(dated)}

    def recalled(self, turn: int, context: FoldedContext | DatedContext) -> bool:
        sentences = self.turn_sentences[turn]
        return 2 * sum(sentence in context for sentence in sentences) >= len(sentences)

    def _specific(
        self, query: Query, context: FoldedContext | DatedContext, pieces: Sequence[str]
    ) -> dict[str, float]:
        gold = [turn for turn in query.gold_turns if self.turn_sentences[turn]]
        if not gold:
            return {}
        recalled = [turn for turn in gold if self.recalled(turn, context)]
        return {
            "gold_recall": len(recalled) / len(gold),
            "hit": float(bool(recalled)),
            "mrr": 1.0 / self.first_rank(recalled, pieces) if recalled else 0.0,
            "mrr_words": 1.0 / (1 + self.words_before(recalled, context) // PIECE_WORDS)
            if recalled
            else 0.0,
        }

    def words_before(self, recalled: Sequence[int], context: FoldedContext | DatedContext) -> int:
        """How many folded words of the context come before the first judged sentence of a
        recalled turn."""
        padded = context.padded
        starts = (padded.find(f" {s} ") for turn in recalled for s in self.turn_sentences[turn])
        first = min((start for start in starts if start >= 0), default=0)
        return len(padded[:first].split())

    def first_rank(self, recalled: Sequence[int], pieces: Sequence[str]) -> int:
        """1-based position of the first piece holding a judged sentence of a recalled turn
        (the last position when each such sentence straddles two pieces)."""
        for rank, piece in enumerate(pieces, start=1):
            folded = FoldedContext(piece)
            if any(s in folded for turn in recalled for s in self.turn_sentences[turn]):
                return rank
        return max(len(pieces), 1)

    def _general(self, query: Query, text: str, context: FoldedContext) -> dict[str, float]:
        metrics: dict[str, float] = {}
        recall = answer_recall(query.answer, text)
        if recall is not None:
            metrics["answer_recall"] = recall
        if self.topic_sentences:
            covered = sum(
                any(s in context for s in sentences) for sentences in self.topic_sentences
            )
            metrics["topic_coverage"] = covered / len(self.topic_sentences)
        return metrics


def intent_correct(query: Query, intent: str) -> bool:
    """General questions want a synthesis; specific ones anything but."""
    return (intent == "synthesis") == (query.kind == "general")


def mean_metrics(rows: Sequence[Mapping[str, float]], names: Sequence[str]) -> dict[str, float]:
    """Per metric, the mean over the rows that have it (metrics no row has are left out); with
    the date counts of a timed meeting, ``dated``: the share of every recalled gold turn that
    the context dates right (none recalled: left out)."""
    means = {}
    for name in names:
        values = [row[name] for row in rows if name in row]
        if values:
            means[name] = sum(values) / len(values)
    recalled = sum(row.get("answers_recalled", 0.0) for row in rows)
    if recalled:
        means["dated"] = sum(row.get("answers_dated", 0.0) for row in rows) / recalled
    return means
