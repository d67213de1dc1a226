"""Entities found by rules, for messages that carry none: fast, offline, any cased script.

This is not named-entity recognition. It finds what surface rules can: @mentions (and the
speaker) as ``people``; numbers with a unit or currency, percentages, clock times, ISO dates
and numbers of two or more digits as ``numbers``; and in ``others``: runs of two or more
capitalized words not at the start of a sentence ("Project Manager", "Banque de France"),
#hashtags and short quoted strings. Scripts without letter case (Chinese, Japanese, Thai,
Arabic...) give no capitalized names; their mentions, numbers and quotes are still found.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping

from rerank_plus.memory.model.items import OTHER_ENTITIES
from rerank_plus.memory.model.sentences import split_sentences

PEOPLE = "people"
NUMBERS = "numbers"

_MENTION = re.compile(r"(?<![\w@])@(\w(?:[\w.-]*\w)?)")
_HASHTAG = re.compile(r"(?<![\w#&])#(\w*[^\W\d_]\w*)")
_UNITS = (
    r"%|‰|€|\$|£|¥|₹|percent|per ?cent|pour ?cent|prozent|por ?ciento|euros?|dollars?|pounds?|"
    r"yen|francs?|eur|usd|gbp|chf|k|m|bn|km|m²|m2|cm|mm|kg|g|mg|t|l|ml|h|hrs?|hours?|min|"
    r"minutes?|s|ms|sec|seconds?|days?|weeks?|months?|years?|jours?|heures?|semaines?|mois|"
    r"ans?|kb|mb|gb|tb|kw|kwh|mw|w|v|ghz|mhz|px|pts?|points?|x"
)
_NUMBER = re.compile(
    r"(?<![\w.,])(?:"
    r"\d{4}-\d{2}-\d{2}"  # ISO date
    r"|\d{1,2}[:h]\d{2}(?!\d)"  # clock time: 09:30, 9h30
    r"|[€$£¥₹]\s?\d+(?:[.,]\d+)*"  # currency before the amount
    rf"|\d+(?:[.,]\d+)*\s?(?:{_UNITS})(?![^\W\d_])"  # amount with a unit after it
    r"|\d{2,}(?:[.,]\d+)*"  # a bare number of two or more digits
    r")",
    re.IGNORECASE,
)
_QUOTED = re.compile(
    r"\"([^\"\n]{2,60})\"|“([^”\n]{2,60})”|«\s?([^»\n]{2,60}?)\s?»|„([^“\n]{2,60})“"
)
_APOSTROPHES = "'\u2019"
_WORD = re.compile(rf"[^\W\d_][\w{_APOSTROPHES}-]*")
#: Lower-case words that may sit inside a name ("Banque de France", "Duke of York").
_CONNECTORS = frozenset(
    {"de", "du", "des", "la", "le", "van", "von", "der", "den", "di", "da", "del", "dos", "das"}
    | {"of", "and", "y", "et", "und", "&", "al", "bin"}
)
#: Most names a group keeps on a summary.
MAX_NAMES = 12


def _titled(word: str) -> bool:
    """A capitalized word, not an all-caps one, nor an elision like "I'll" or "L'on"."""
    if not word[0].isupper() or len(word) < 2 or word.isupper():
        return False
    return word[1] not in _APOSTROPHES or (len(word) > 2 and word[2].isupper())


def _capitalized_names(sentence: str) -> list[str]:
    words = list(_WORD.finditer(sentence))
    names: list[str] = []
    run: list[str] = []

    def close() -> None:
        while run and run[-1].lower() in _CONNECTORS:
            run.pop()
        if sum(_titled(word) for word in run) >= 2:
            names.append(" ".join(run))
        run.clear()

    previous_end = -1
    for position, match in enumerate(words):
        word = match.group()
        joined = previous_end >= 0 and not sentence[previous_end : match.start()].strip()
        if _titled(word) and position > 0:
            if run and not joined:
                close()
            run.append(word)
        elif run and joined and word.lower() in _CONNECTORS:
            run.append(word)
        elif run:
            close()
        previous_end = match.end()
    close()
    return names


def _quoted(text: str) -> list[str]:
    found = []
    for match in _QUOTED.finditer(text):
        quote = next(group for group in match.groups() if group).strip()
        if quote and len(quote.split()) <= 6:
            found.append(quote)
    return found


def extract_entities(text: str, speaker: str | None = None) -> dict[str, tuple[str, ...]]:
    """The entities the rules find in ``text``, by group, each name once in order of appearance.

    >>> found = extract_entities("@ann: the Project Manager wants 25 Euros by 09:30 #budget", "Bob")
    >>> found["people"], found["numbers"], found["others"]
    (('Bob', 'ann'), ('25 Euros', '09:30'), ('Project Manager', '#budget'))
    """
    people = ([speaker] if speaker else []) + _MENTION.findall(text)
    numbers = [match.group().strip() for match in _NUMBER.finditer(text)]
    others = [name for sentence in split_sentences(text) for name in _capitalized_names(sentence)]
    others += ["#" + tag for tag in _HASHTAG.findall(text)] + _quoted(text)
    groups = {PEOPLE: people, NUMBERS: numbers, OTHER_ENTITIES: others}
    return {group: tuple(dict.fromkeys(names)) for group, names in groups.items() if names}


def hashtags(text: str) -> tuple[str, ...]:
    """The #hashtags of ``text`` without their ``#``, each once (a message's own tags)."""
    return tuple(dict.fromkeys(_HASHTAG.findall(text)))


def merge_entities(
    groups: Iterable[Mapping[str, tuple[str, ...]]], limit: int = MAX_NAMES
) -> dict[str, tuple[str, ...]]:
    """The entities of several items: per group, the ``limit`` names most items mention
    (ties in order of first mention)."""
    counts: dict[str, Counter[str]] = {}
    for entities in groups:
        for group, names in entities.items():
            counts.setdefault(group, Counter()).update(names)
    return {
        group: tuple(name for name, _ in counter.most_common(limit))
        for group, counter in counts.items()
    }
