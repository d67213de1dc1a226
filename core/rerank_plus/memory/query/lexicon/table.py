"""The shape of one language's cues: what each table of a :class:`Lexicon` holds and how
its fragments are written (:mod:`rerank_plus.memory.query.lexicon`). A data file's keys are
these fields (:mod:`.loader`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class Lexicon:
    """The cues of one language (see :mod:`rerank_plus.memory.query.lexicon` for the fragment
    syntax)."""

    #: Asking for a summary: a synthesis when nothing but scope words is left around it.
    summary: tuple[str, ...]
    #: Asking for breadth across the whole memory ("main steps", "big picture"): synthesis.
    breadth: tuple[str, ...]
    #: Words that do not narrow a question (the meeting, the discussion, the team, topics...).
    scope: tuple[str, ...]
    #: Words that point past the memory, to what comes next ("the next meeting"): a question
    #: about plans, never a summary, though stop-word lists drop them.
    future: tuple[str, ...]
    #: Asking for what is recent without a date ("what's new", "latest"): implicit recency.
    recency: tuple[str, ...]
    #: Words after which the entity a query is about follows ("where do we talk about").
    entity_leads: tuple[str, ...]
    #: Words after which a name follows ("who is"): the target counts only when it is
    #: capitalized, quoted or a known entity ("who is Sarah?", not "who is responsible?").
    name_leads: tuple[str, ...]
    #: "since": makes the following time the start of an open window.
    since: tuple[str, ...]
    numbers: Mapping[str, int]
    #: unit ("minute", "hour", "day", "week", "month", "year") -> its words.
    units: Mapping[str, str]
    #: "3 days ago": templates with <N> and <UNIT>.
    ago: tuple[str, ...]
    #: "in the last 2 hours": templates with <N> (optional where the template says so) and <UNIT>.
    last_n: tuple[str, ...]
    #: day offset (0 today, -1 yesterday, -2 the day before) -> its words.
    days: Mapping[int, str]
    #: part of the day ("morning", "afternoon", "evening", "night") -> its words.
    parts: Mapping[str, str]
    #: single expressions of a day and a part: (words, day offset, part) ("this morning").
    day_parts: tuple[tuple[str, int, str], ...]
    #: what may stand between a day word and a part of the day ("ayer por la mañana").
    part_joiner: str
    #: Monday first.
    weekdays: tuple[str, str, str, str, str, str, str]
    #: a weekday strictly before today: templates with <WEEKDAY>.
    previous_weekday: tuple[str, ...]
    #: period ("week", "month", "year") -> its words.
    periods: Mapping[str, str]
    #: the period before the current one ("last week"): templates with <PERIOD>.
    previous_period: tuple[str, ...]
    #: the current period ("this week"): templates with <PERIOD>.
    current_period: tuple[str, ...]
    #: words that may lead a clock time ("at", "à", "um").
    clock_leads: tuple[str, ...] = field(default=())
    #: a clock time in the language's own words ("14点05分", "下午3点"): templates with <HOUR>,
    #: an optional <MINUTE> and <PM> (digits "14:05" are read in every language).
    clock_times: tuple[str, ...] = field(default=())
    #: Words before which the entity a query is about stands, where a language names it first
    #: ("预算在哪里讨论过", "予算についてどこで").
    entity_trails: tuple[str, ...] = field(default=())
    #: Words before which a name stands, where a language names it first ("张伟是谁",
    #: "Ahmet kim?"): as after ``name_leads``, the name counts only when it is quoted, known, or
    #: capitalized past the query's first word (which every question capitalizes).
    name_trails: tuple[str, ...] = field(default=())
    #: "since" written after the time ("昨天以来", "昨日から"): the time before it starts an
    #: open window.
    since_after: tuple[str, ...] = field(default=())
    #: A range ("between Monday and Wednesday", "月曜日から水曜日まで") is two times with an inner
    #: word between them and an opening word before the first or a closing word after the
    #: second; a time expression may take the word in ("da marzo", "수요일까지"). Words before the
    #: first time ("between", "from").
    range_opening: tuple[str, ...] = field(default=())
    #: words between the two times ("and", "to", "から", "부터").
    range_inner: tuple[str, ...] = field(default=())
    #: endings written onto the first time that say "from" ("pazartesiden"): an inner word
    #: inside it, matched without a word boundary.
    range_endings: tuple[str, ...] = field(default=())
    #: words after the second time ("まで", "까지", "तक", "kadar", "之间").
    range_closing: tuple[str, ...] = field(default=())
    #: False where words are not written apart (Chinese, Japanese, Thai): no word boundary
    #: falls inside a run of their letters, so their cues match anywhere in it.
    spaced: bool = True
    #: The scripts the language is written in (:mod:`rerank_plus.analysis.script` names): its
    #: cues are looked for only in a query that has a character of one (an unspaced pattern,
    #: tried at every character, is the costly kind; () tries them on every query).
    script: tuple[str, ...] = ()
    #: January first, every form (abbreviations too: they only count next to a day or year).
    months: tuple[str, ...] = field(default=())
    #: a month without a day ("in May", "May 2024"): templates with <MONTH> and <YEAR>; a lead
    #: word or a year is required, since some month names are also words ("may", "mars").
    month_alone: tuple[str, ...] = field(default=())
    #: a day of a month ("May 3rd", "le 3 mai"): templates with <DAY>, <MONTH> and <YEAR>.
    day_dates: tuple[str, ...] = field(default=())
    #: The ``[annotation]`` table: what dating the relative times of quoted messages reads
    #: beyond the query grammar (:mod:`rerank_plus.memory.query.time_annotations`); a query
    #: never reads it. Days ahead ("tomorrow"): day offset (1, 2) -> its words.
    days_ahead: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    #: the period after the current one ("next week"): templates with <PERIOD>.
    next_period: tuple[str, ...] = field(default=())
    #: "in 3 days": templates with <N> and <UNIT>.
    after_n: tuple[str, ...] = field(default=())
    #: words the grammar reads one way that running text also uses the other way (Hindi
    #: "कल", yesterday or tomorrow, told apart by the verb): never annotated.
    either_way: tuple[str, ...] = field(default=())
    #: Words that ask, and narrow nothing ("can you tell me", "give me", "please", "pls"):
    #: left out of the question's content words, yet no scope word (they alone are no summary).
    asking: tuple[str, ...] = field(default=())
    #: Words after which a question names its topic ("about", "regarding", "sur", "über"):
    #: what follows narrows the question, however common its words are in the memory.
    topic_leads: tuple[str, ...] = field(default=())
    #: A question about when something happened ("when did", "how long ago", "quand", "wann",
    #: "什么时候"): the ``time`` shape.
    time_questions: tuple[str, ...] = field(default=())
    #: A question about a list or set spread over time ("which places", "what are all",
    #: "quels sont tous"): the ``list`` shape.
    list_questions: tuple[str, ...] = field(default=())
    #: A question about the current state of something that changes ("where does she live
    #: now", "what is the launch date", "actuellement", "derzeit"): the ``current`` shape.
    current_questions: tuple[str, ...] = field(default=())
