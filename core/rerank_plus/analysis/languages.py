# ruff: noqa: SIM905  (language codes read best as one line of text)
"""The language registry: every language lingua detects, its script, and its analysis parts.

One row per language says how its text is analyzed, so the choice is a lookup, never a guess:
the tokenizer (spaCy's rules for the language, a word segmenter for unspaced scripts, or the
language-neutral tokenizer), the lemmatizer (simplemma where it has a dictionary) or else a
Snowball stemmer, and spaCy's stop words where spaCy has a list. docs/languages.md is this
table in prose.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rerank_plus.analysis.spacy_data import has_spacy_language, has_stop_word_list

#: ISO 639-1 code -> script, for every language lingua can detect.
LANGUAGE_SCRIPTS: dict[str, str] = {
    **dict.fromkeys(
        "af az bs ca cs cy da de en eo es et eu fi fr ga hr hu id is it la lg lt lv mi ms nb nl "
        "nn pl pt ro sk sl sn so sq st sv sw tl tn tr ts vi xh yo zu".split(),
        "Latin",
    ),
    **dict.fromkeys(["be", "bg", "kk", "mk", "mn", "ru", "sr", "uk"], "Cyrillic"),
    **dict.fromkeys(["ar", "fa", "ur"], "Arabic"),
    **dict.fromkeys(["hi", "mr"], "Devanagari"),
    "bn": "Bengali",
    "el": "Greek",
    "gu": "Gujarati",
    "he": "Hebrew",
    "hy": "Armenian",
    "ja": "Kana",
    "ka": "Georgian",
    "ko": "Hangul",
    "pa": "Gurmukhi",
    "ta": "Tamil",
    "te": "Telugu",
    "th": "Thai",
    "zh": "Han",
}

#: The code of the language-neutral analysis (ISO 639-2 "undetermined").
NEUTRAL = "und"

#: Languages whose words a segmenter finds (the tokenizer only cuts at spaces and punctuation).
SEGMENTED = frozenset({"ja", "ko", "th", "zh"})
#: spaCy tokenizers that need a package we do not require (pyvi, mecab-ko ...): these languages
#: use the neutral tokenizer plus the segmenter of their script.
SPACY_TOKENIZER_NEEDS_EXTRA = frozenset({"ja", "ko", "th", "vi", "zh"})

#: simplemma's codes where they differ from ISO 639-1: one Serbo-Croatian dictionary, in Latin
#: letters (Serbian, detected in Cyrillic, takes the Snowball stemmer instead).
_SIMPLEMMA_CODES = {"bs": "hbs", "hr": "hbs"}
#: Snowball stemmers (snowballstemmer's algorithm names) by ISO 639-1 code.
SNOWBALL = {
    "ar": "arabic", "ca": "catalan", "cs": "czech", "da": "danish", "de": "german",
    "el": "greek", "en": "english", "eo": "esperanto", "es": "spanish", "et": "estonian",
    "eu": "basque", "fa": "persian", "fi": "finnish", "fr": "french", "ga": "irish",
    "hi": "hindi", "hu": "hungarian", "hy": "armenian", "id": "indonesian", "it": "italian",
    "lt": "lithuanian", "nb": "norwegian", "nl": "dutch", "nn": "norwegian", "pl": "polish",
    "pt": "portuguese", "ro": "romanian", "ru": "russian", "sr": "serbian", "st": "sesotho",
    "sv": "swedish", "ta": "tamil", "tr": "turkish",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class LanguageProfile:
    """How one language is analyzed; None in a field means the part does not exist for it."""

    code: str
    script: str
    #: spaCy language class whose tokenizer rules apply ("xx" is spaCy's neutral one).
    tokenizer: str
    #: simplemma's dictionary code, when it has one.
    lemmas: str | None
    #: Snowball algorithm, used when there is no lemma dictionary.
    stemmer: str | None
    #: Whether spaCy ships a stop-word list for the language.
    stop_words: bool

    @property
    def reduction(self) -> str:
        """What maps a word to its base form: ``"lemmas"``, ``"stems"`` or ``"none"``."""
        return "lemmas" if self.lemmas else "stems" if self.stemmer else "none"


def supported_languages() -> tuple[str, ...]:
    """Every language code the analysis knows (all that lingua detects), sorted."""
    return tuple(sorted(LANGUAGE_SCRIPTS))


@cache
def languages_of_script(script: str, among: tuple[str, ...]) -> tuple[str, ...]:
    """The languages of ``among`` written in ``script``. Han without Kana is Chinese, or
    Japanese when Chinese is not among them."""
    found = tuple(code for code in among if LANGUAGE_SCRIPTS.get(code) == script)
    if not found and script == "Han":
        return languages_of_script("Kana", among)
    return found


def _simplemma_code(code: str) -> str | None:
    from simplemma.strategies.dictionaries.dictionary_factory import SUPPORTED_LANGUAGES

    candidate = _SIMPLEMMA_CODES.get(code, code)
    return candidate if candidate in SUPPORTED_LANGUAGES else None


@cache
def profile(code: str) -> LanguageProfile:
    """The analysis parts of ``code`` (an ISO 639-1 code from the registry, or ``"und"``)."""
    if code == NEUTRAL:
        return LanguageProfile(NEUTRAL, "Other", "xx", None, None, stop_words=False)
    if code not in LANGUAGE_SCRIPTS:
        known = ", ".join(supported_languages())
        raise ValueError(f"Unknown language code {code!r}: use ISO 639-1 codes among {known}.")
    spacy_language = has_spacy_language(code)
    tokenizer = code if spacy_language and code not in SPACY_TOKENIZER_NEEDS_EXTRA else "xx"
    lemmas = _simplemma_code(code)
    return LanguageProfile(
        code=code,
        script=LANGUAGE_SCRIPTS[code],
        tokenizer=tokenizer,
        lemmas=lemmas,
        stemmer=None if lemmas else SNOWBALL.get(code),
        stop_words=has_stop_word_list(code),
    )
