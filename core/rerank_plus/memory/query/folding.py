# ruff: noqa: RUF002  (typographic apostrophes are what folding is for)
"""The one form every cue is matched in: lowercase, no accents, one apostrophe, one length.

Users type "Résumé", "resume", "aujourd’hui", "aujourd'hui" and "parle-t-on" or "parle t on";
each pair must hit the same cue. Folding is character by character and keeps the text's
length, so a span found in the folded text is the same span in the query (what the windows'
``expression`` and the entities are cut from).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: Apostrophes, quotation marks and dashes as users type them, mapped to one form each.
_PUNCTUATION = str.maketrans(
    {
        "\u2019": "'",  # right single quotation mark, the usual typographic apostrophe
        "\u2018": "'",
        "\u02bc": "'",  # modifier letter apostrophe
        "`": "'",
        "\u00b4": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
    }
)
#: An apostrophe or hyphen inside a word ("what's", "parle-t-on", "mois-ci"): cues are written
#: with a space there, so each spelling matches; digits keep theirs ("2024-05-01").
_JOINER = re.compile(r"(?<=[^\W\d_])['-](?=[^\W\d_])")
#: Devanagari vowel signs, nasal marks, nukta and virama: inside a word, yet not ``\w`` (which
#: would cut "बैठक" into "ब" and "ठक", and find "कल" inside "निकला").
INNER_MARKS = "\u0900-\u0903\u093a-\u094f\u0951-\u0957\u0962\u0963"
#: One character of a word: what bounds a cue in a language written with spaces.
WORD_CHARACTER = rf"[\w{INNER_MARKS}]"


@lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    """``char`` lowercased without its accents, always one character. A letter that
    decomposes into several letters (a Hangul syllable: its jamo) stays whole: its first piece
    alone would fold every syllable that starts alike to one form."""
    lowered = char.lower()
    if len(lowered) != 1:  # "İ".lower() is "i" + a combining dot
        lowered = lowered[0]
    base = "".join(c for c in unicodedata.normalize("NFD", lowered) if not unicodedata.combining(c))
    return base if len(base) == 1 else lowered


def fold(text: str) -> str:
    """``text`` lowercased, without accents, with one apostrophe and one dash, and word-inner
    apostrophes and hyphens as spaces; ``len(fold(text)) == len(text)``.

    >>> fold("Où parle-t-on de l’Été ?")
    'ou parle t on de l ete ?'
    """
    text = text.translate(_PUNCTUATION)
    text = "".join(map(_fold_char, text)) if not text.isascii() else text.lower()
    return _JOINER.sub(" ", text)
