"""Step 1 of the retrieval policy: what a query asks for, read once, before any search.

``analyze_query`` gives the intent (which profile and quotas the retriever uses), a detail
question's shape (when, which ones, what holds now), the keywords (the analysis layer's terms,
so they match the memory's), the entities, and the time window, in every language the lexicons
have cues for (English, French, German, Spanish, Italian, Portuguese, Chinese, Japanese, Korean,
Arabic, Greek, Thai, Russian, Dutch, Polish, Turkish, Czech, Hindi, Vietnamese, Indonesian). It
is rules and cached lookups only: well under a millisecond once warm
(benchmarks/memory_query.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import cache, lru_cache

from rerank_plus.analysis import Analyzer
from rerank_plus.analysis.languages import NEUTRAL
from rerank_plus.analysis.normalize import normalize_text
from rerank_plus.analysis.stopwords import stop_words
from rerank_plus.memory.query import cues as cue_patterns
from rerank_plus.memory.query import time_window
from rerank_plus.memory.query.cues import Cue, find_cues
from rerank_plus.memory.query.entities import (
    CAPITALIZED_NOUNS,
    capitalized_entities,
    known_entities_in,
    known_names,
    looks_like_a_name,
    merge_entities,
    outside,
    preceding_entities,
    quoted_entities,
    spelled_as_known,
    target_entities,
)
from rerank_plus.memory.query.folding import INNER_MARKS, fold
from rerank_plus.memory.query.intent import IntentEvidence, decide_intent
from rerank_plus.memory.query.lexicon import LEXICONS
from rerank_plus.memory.query.lexicon.schema import SHAPE_CUES
from rerank_plus.memory.query.result import QueryAnalysis, check_names, check_now
from rerank_plus.memory.query.shape import decide_shape
from rerank_plus.memory.query.specificity import Vocabulary, unspecific_words
from rerank_plus.memory.query.time_window import TimeWindow, find_window
from rerank_plus.memory.query.unit_words import without_time_units

#: A word, with the vowel signs \w leaves out ("में" is one stop word, not "म").
_WORD = re.compile(rf"\w[\w{INNER_MARKS}]*")
#: The longest window that still names a moment rather than a period.
PRECISE_WINDOW = timedelta(hours=1)
#: Cue kinds whose words are not the query's topic (left out of the remainder and keywords).
_CUE_KINDS = (
    "summary",
    "breadth",
    "recency",
    "entity_leads",
    "entity_trails",
    "name_leads",
    "name_trails",
    "asking",
)


@cache
def default_analyzer() -> Analyzer:
    """The analyzer used when none is given (shared, so its cache is warm across queries)."""
    return Analyzer()


@cache
def _folded_stop_words(language: str) -> frozenset[str]:
    """``language``'s stop words as folded words (accents off, "celle-ci" -> two words)."""
    return frozenset(word for stop in stop_words(language) for word in _WORD.findall(fold(stop)))


@lru_cache(maxsize=256)
def _union_of_stop_words(languages: frozenset[str]) -> frozenset[str]:
    return frozenset().union(*(_folded_stop_words(code) for code in languages))


def _blank(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """``text`` with the spans replaced by spaces (same length)."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _choose_language(analyzer: Analyzer, query: str, cue_languages: set[str]) -> str:
    """The detected language when detection is reliable or one of the cues' languages; else
    the one language the cues are in; else what the analyzer falls back to (its default
    language, or the neutral analysis)."""
    detection = analyzer.detect(query)
    if detection.language and (detection.reliable or detection.language in cue_languages):
        return detection.language
    if len(cue_languages) == 1:
        (only,) = cue_languages
        if only in analyzer.languages:
            return only
    return analyzer.analyze(query).language


def analyze_query(
    query: str,
    now: datetime | None = None,
    *,
    known_entities: Iterable[str] = (),
    analyzer: Analyzer | None = None,
    vocabulary: Vocabulary | None = None,
) -> QueryAnalysis:
    """Intent, keywords, entities and time window of ``query`` (see :mod:`.intent` for the
    rules and :mod:`.time_window` for the windows).

    ``now`` resolves relative times ("since yesterday"): an aware datetime; a naive one is taken
    as UTC (the library's convention), and without one the current UTC time is used (the
    reason says so). ``known_entities`` (speaker names, the memory's entity names) are found
    case-insensitively as whole words. ``analyzer`` gives the keywords and the language; by
    default a shared :class:`~rerank_plus.analysis.Analyzer`. ``vocabulary``, the word counts
    of the memory asked (``MemoryIndex.vocabulary``), lets a summary whose leftover words
    narrow nothing in that memory (common in it, or used by none of its messages) be read as
    one (:mod:`.specificity`); without it only the cues decide. A detail question's shape
    ("time", "list", "current") is read from the ``[shape]`` cues (:mod:`.shape`).

    An empty or blank query (or one of emoji only) is a ``detail`` query with no keywords,
    entities or window: nothing in it asks for a summary. A query that is not a str raises
    TypeError.

    >>> from datetime import datetime, timezone
    >>> qa = analyze_query("quoi de neuf depuis hier ?", now=datetime(2024, 5, 2, 9, 0,
    ...                    tzinfo=timezone.utc))
    >>> qa.intent, qa.window.start.isoformat(), qa.window.end, qa.recency
    ('recent', '2024-05-01T00:00:00+00:00', None, True)
    """
    if not isinstance(query, str):
        raise TypeError(
            f"query must be a str, got {type(query).__name__} {query!r}; pass the question's "
            "text (decode bytes with .decode('utf-8'))."
        )
    names = check_names(known_entities)
    moment, now_note = check_now(now)
    analyzer = analyzer or default_analyzer()
    text = normalize_text(query)
    if not text.strip():
        return QueryAnalysis(query, "detail", "empty query", None, (), (), None, False)
    folded = fold(text)

    kinds = (*_CUE_KINDS, "scope", "future", *SHAPE_CUES)
    found = {kind: find_cues(folded, kind) for kind in kinds}
    window_match = find_window(text, folded, moment)
    if window_match and _inside(window_match.spans, found["scope"]):
        window_match = None  # "bis heute", "until today": the memory to date, no time filter
    cue_spans = [(c.start, c.end) for kind in _CUE_KINDS for c in found[kind]]
    time_spans = list(window_match.spans) if window_match else []
    cue_languages = {c.language for kind in _CUE_KINDS for c in found[kind]}
    if window_match:
        cue_languages |= window_match.languages
    language = _choose_language(analyzer, text, cue_languages)
    # Stop words of every language the query shows: its cues', its scope words', its own.
    shown = cue_languages | {c.language for c in found["scope"]} | {language}
    stops = _union_of_stop_words(frozenset(shown - {NEUTRAL}))
    scope_spans = [(c.start, c.end) for c in found["scope"]]

    content = _blank(text, cue_spans + time_spans + scope_spans)
    terms = analyzer.analyze(content, language=language).terms
    keywords = tuple(dict.fromkeys(term for term in terms if _is_keyword(term, stops)))
    keywords = without_time_units(keywords, language)
    targets, leads, entities = _entities(
        text,
        folded,
        found,
        names,
        times=time_spans,
        blocked=cue_spans + time_spans,
        stops=stops,
        capitalized=language not in CAPITALIZED_NOUNS,
    )
    window = window_match.window if window_match else None
    reaches_now = window is not None and (window.end is None or window.end > moment)
    # what the question names as its topic ("about", "sur") narrows it however common
    led = _topic_terms(content, language, analyzer)
    named = {term for name in entities for term in analyzer.analyze(name, language=language).terms}
    intent, reason = decide_intent(
        IntentEvidence(
            entity_targets=[name for _, name in targets],
            entity_leads=leads,
            recency=_texts(text, found["recency"]),
            breadth=_texts(text, found["breadth"]),
            summary=_texts(text, found["summary"]),
            scope=_texts(text, found["scope"]),
            remainder=[term for term in keywords if _names_a_topic(term)]
            + [
                text[cue.start : cue.end]
                for cue in found["future"]
                if not any(s <= cue.start < e for s, e in cue_spans)
            ]
            # a name that is also a stop word ("Minh", "Will") is no keyword, yet narrows
            + [name for name in entities if fold(name) in stops],
            open_window=window.expression if window is not None and reaches_now else None,
            precise_window=window.expression
            if window is not None and _is_precise(window)
            else None,
            unspecific=unspecific_words(keywords, vocabulary, led, named),
            particular=[
                text[c.start : c.end]
                for kind in ("time_questions", "list_questions")
                for c in found[kind]
                if c.language == language
            ],
            current=[
                text[c.start : c.end] for c in found["current_questions"] if c.language == language
            ],
        )
    )
    shape, shape_reason = decide_shape(intent, found, text, language)
    if shape_reason:
        reason += f"; {shape_reason}"
    if window is not None and now_note:
        reason += f"; window resolved against {now_note}"
    recency = bool(found["recency"]) or reaches_now
    return QueryAnalysis(
        query,
        intent,
        reason,
        None if language == NEUTRAL else language,
        keywords,
        entities,
        window,
        recency,
        shape,
    )


def _entities(
    text: str,
    folded: str,
    found: dict[str, list[Cue]],
    names: tuple[str, ...],
    *,
    times: list[tuple[int, int]],
    blocked: list[tuple[int, int]],
    stops: frozenset[str],
    capitalized: bool,
) -> tuple[list[tuple[tuple[int, int], str]], list[str], tuple[str, ...]]:
    """The targets of entity questions, the leads that found them, and every entity of the
    query (targets, known names, quoted strings, then capitalized names). A target ends where
    a time expression (``times``) starts; ``blocked`` spans (cues, times) hold no capitalized
    name."""

    known_spelling = known_names(names).spelling

    def empty(word: str) -> bool:
        """A word that names nothing: a letter alone, or a stop word or scope word that is not
        a name the memory knows (a speaker "Lan" is a name, though folded it is Vietnamese
        "lần")."""
        if len(word) < 2:
            return True
        return (word in stops or _is_scope(word)) and known_spelling(word) is None

    # Where words are not written apart, a scope word ("について", "的问题") ends a target.
    ends = times + [(c.start, c.end) for c in found["scope"] if not LEXICONS[c.language].spaced]
    targets = target_entities(text, folded, _spans(found["entity_leads"]), ends, empty)
    targets += preceding_entities(text, folded, _spans(found["entity_trails"]), ends, empty)
    leads = _texts(text, found["entity_leads"] + found["entity_trails"])
    quoted = quoted_entities(text, folded)
    quotes = [span for span, _ in quoted]
    # A name follows "who is" or, where a language names it first, stands before "是谁"; a
    # capital opening the question says nothing in the second case.
    named = [
        (lead, target_entities(text, folded, [(lead.start, lead.end)], times, empty), True)
        for lead in found["name_leads"]
    ] + [
        (trail, preceding_entities(text, folded, [(trail.start, trail.end)], ends, empty), False)
        for trail in found["name_trails"]
    ]
    for cue, candidates, first_word in named:
        kept = [
            (span, name)
            for span, name in candidates
            if looks_like_a_name(text, span, names, quotes, first_word=first_word)
        ]
        targets += kept
        leads += [text[cue.start : cue.end].strip()] if kept else []
    targets = [(span, spelled_as_known(name, names)) for span, name in targets]
    # A known name that is also a stop word counts only as the caller spells it ("Will", not
    # the "will" of "who will present"; "Lan", not the "lần" of "lần trước").
    known = [
        (span, name)
        for span, name in known_entities_in(folded, names)
        if folded[span[0] : span[1]] not in stops or text[span[0] : span[1]] == name
    ]
    found_capitalized = capitalized_entities(text, blocked, empty) if capitalized else []
    taken = [span for span, _ in (*targets, *known, *quoted)]
    entities = merge_entities(targets, known, quoted, outside(found_capitalized, taken))
    return targets, leads, entities


def _topic_terms(content: str, language: str, analyzer: Analyzer) -> set[str]:
    """The terms after the first topic lead of ``content`` (the query with its cues, times
    and scope words blanked) in the query's language: the topic the question names. (Polish
    "o" is no topic lead in Portuguese, where it is an article.)"""
    leads = [cue for cue in find_cues(fold(content), "topic_leads") if cue.language == language]
    if not leads:
        return set()
    return set(analyzer.analyze(content[leads[0].end :], language=language).terms)


def _inside(spans: Iterable[tuple[int, int]], cues: list[Cue]) -> bool:
    """Whether every span lies inside one of the ``cues``."""
    return all(any(c.start <= start and end <= c.end for c in cues) for start, end in spans)


def _is_precise(window: TimeWindow) -> bool:
    """A window of an hour or less: a moment ("at 14:05"), not a period to summarize."""
    if window.start is None or window.end is None:
        return False
    return window.end - window.start <= PRECISE_WINDOW


def _is_keyword(term: str, stops: frozenset[str]) -> bool:
    """Not a stop word of a language the query's cues are in, also once the hyphens and
    apostrophes a blanked cue left at its ends are off ("est-" of "qu'est-ce qui", the cue
    "ce qui s'est passé" blanked), nor a clitic ("-t" of "a-t-on"): a lone letter joined to
    punctuation."""
    bare = term.strip("-'\u2019")
    if fold(term) in stops or fold(bare) in stops:
        return False
    return term.isalnum() or sum(map(str.isalnum, term)) >= 2


def _names_a_topic(term: str) -> bool:
    """A keyword that narrows the question: not a scope word, not a lone Latin letter or digit
    ("Project X" keeps "x" as a keyword; "x" alone names no topic)."""
    return not _is_scope(fold(term)) and (len(term) >= 2 or not term.isascii())


def _spans(found: list[Cue]) -> list[tuple[int, int]]:
    return [(cue.start, cue.end) for cue in found]


def _texts(text: str, found: list[Cue]) -> list[str]:
    return [text[cue.start : cue.end].strip() for cue in found]


@cache
def _scope_word() -> re.Pattern[str]:
    fragments = [fragment for lexicon in LEXICONS.values() for fragment in lexicon.scope]
    return re.compile(cue_patterns.words_pattern(fragments))


def _is_scope(word: str) -> bool:
    return _scope_word().fullmatch(word) is not None


def warm_up(analyzer: Analyzer | None = None) -> None:
    """Compile the patterns and load the analyzer's data now, not on the first query."""
    cue_patterns.warm_up()
    time_window.warm_up()
    _scope_word()
    analyze_query("Summarize the meeting since yesterday at 10:00", analyzer=analyzer)
