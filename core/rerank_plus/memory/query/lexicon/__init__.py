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
without open stems like ``\\w*``. A piece a table repeats may be named once in the file's
``[fragments]`` and written in as ``{NAME}`` (:mod:`.loader`).

The tables are the common ways each language asks these things, written from the languages'
usage, not from any evaluation set. Each language is one data file, ``data/<language>.toml``
(its tables and keys: :mod:`.loader`). Adding a language is adding its file, and its phrases
to ``tests/memory/phrases/`` (what its questions must read as).
"""

from __future__ import annotations

from collections.abc import Mapping

from rerank_plus.memory.query.lexicon.loader import LexiconFileError, load_lexicons
from rerank_plus.memory.query.lexicon.table import Lexicon

__all__ = ["LEXICONS", "Lexicon", "LexiconFileError", "load_lexicons"]

#: Every language with cues, by ISO 639-1 code, read from ``data/`` when the package is
#: imported (about 20 ms). The tests compile each fragment alone; here they are compiled
#: once, merged, on the first query (:mod:`.cues`, :mod:`..time_expressions`).
LEXICONS: Mapping[str, Lexicon] = load_lexicons(compile_check=False)
