"""The words that say what a query asks for, one small table per language: linguistic data.

Every entry is a lowercase regular-expression fragment matched as whole words in the folded
query (:mod:`.folding`: no accents, word-inner apostrophes and hyphens as spaces, so write
"aujourd hui" and "parle t on"; accents may be kept, they are folded too). Inflection is
covered by stems ("summar\\w*", "résum\\w*") or listed forms. Placeholders in templates:
``<N>`` a number (digits or a number word of the language), ``<UNIT>`` a unit of time,
``<PERIOD>`` week, month or year, ``<WEEKDAY>`` a day name, ``<MONTH>`` a month name, ``<DAY>``
a day of the month (1-31), ``<YEAR>`` four digits, ``<HOUR>`` (digits or a number word) and
``<MINUTE>`` (digits) a clock time, ``<PM>`` after the words that put it past noon. A space is
one or more whitespace characters, " ?" any or none. In a language written without spaces
(``spaced=False``) fragments match inside a run of letters, so they are written as whole words,
without open stems like ``\\w*``.

The tables are the common ways each language asks these things, written from the languages'
usage, not from any evaluation set. Adding a language is adding one :class:`Lexicon`, in a
module of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from rerank_plus.memory.query.lexicon.arabic import ARABIC
from rerank_plus.memory.query.lexicon.chinese import CHINESE
from rerank_plus.memory.query.lexicon.czech import CZECH
from rerank_plus.memory.query.lexicon.dutch import DUTCH
from rerank_plus.memory.query.lexicon.english import ENGLISH
from rerank_plus.memory.query.lexicon.french import FRENCH
from rerank_plus.memory.query.lexicon.german import GERMAN
from rerank_plus.memory.query.lexicon.greek import GREEK
from rerank_plus.memory.query.lexicon.hindi import HINDI
from rerank_plus.memory.query.lexicon.indonesian import INDONESIAN
from rerank_plus.memory.query.lexicon.italian import ITALIAN
from rerank_plus.memory.query.lexicon.japanese import JAPANESE
from rerank_plus.memory.query.lexicon.korean import KOREAN
from rerank_plus.memory.query.lexicon.polish import POLISH
from rerank_plus.memory.query.lexicon.portuguese import PORTUGUESE
from rerank_plus.memory.query.lexicon.russian import RUSSIAN
from rerank_plus.memory.query.lexicon.spanish import SPANISH
from rerank_plus.memory.query.lexicon.table import Lexicon
from rerank_plus.memory.query.lexicon.thai import THAI
from rerank_plus.memory.query.lexicon.turkish import TURKISH
from rerank_plus.memory.query.lexicon.vietnamese import VIETNAMESE

__all__ = ["LEXICONS", "Lexicon"]

#: Every language with cues, by ISO 639-1 code.
LEXICONS: Mapping[str, Lexicon] = MappingProxyType(
    {
        "en": ENGLISH,
        "fr": FRENCH,
        "de": GERMAN,
        "es": SPANISH,
        "it": ITALIAN,
        "pt": PORTUGUESE,
        "zh": CHINESE,
        "ja": JAPANESE,
        "ar": ARABIC,
        "el": GREEK,
        "ru": RUSSIAN,
        "th": THAI,
        "nl": DUTCH,
        "pl": POLISH,
        "tr": TURKISH,
        "ko": KOREAN,
        "hi": HINDI,
        "cs": CZECH,
        "vi": VIETNAMESE,
        "id": INDONESIAN,
    }
)
