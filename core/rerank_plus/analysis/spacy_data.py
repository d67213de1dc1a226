"""spaCy's per-language data files, read without importing spaCy.

Detecting a Latin-script text's language counts its function words in some fifty languages, so
the first detection reads fifty of spaCy's stop-word lists. Through ``get_lang_class`` that
imports spaCy (and thinc, which imports torch when it is installed) and each language's whole
package: seconds of start-up and hundreds of MB in every process that ranks, a server's or a
batch worker's. Each list is a plain ``stop_words.py`` module (``STOP_WORDS = set(...)``, no
imports): running that one file costs a millisecond. Anything else (no such file, a list
spaCy builds some other way) goes through spaCy itself, which stays the reference
(``tests/languages/test_spacy_data.py`` compares the two for every language).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Set as AbstractSet
from functools import cache
from pathlib import Path


@cache
def _spacy_lang_folder() -> Path | None:
    """spaCy's ``lang`` folder, found without importing spaCy (None if it is not installed)."""
    spec = importlib.util.find_spec("spacy")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "lang"


def has_spacy_language(code: str) -> bool:
    """Whether spaCy has a language package for ``code`` (its tokenizer rules, maybe a list)."""
    folder = _spacy_lang_folder()
    return folder is not None and (folder / code / "__init__.py").is_file()


def has_stop_word_list(code: str) -> bool:
    """Whether spaCy ships a stop-word list for ``code`` (``fo`` and ``nn``, for example, don't)."""
    folder = _spacy_lang_folder()
    return folder is not None and (folder / code / "stop_words.py").is_file()


@cache
def spacy_stop_words(code: str) -> frozenset[str]:
    """spaCy's stop words for ``code``, as ``get_lang_class(code).Defaults.stop_words`` has them."""
    folder = _spacy_lang_folder()
    words = None
    if folder is not None:
        words = _run_stop_words_file(folder / code / "stop_words.py", code)
    if words is None:
        from spacy.util import get_lang_class

        words = get_lang_class(code).Defaults.stop_words
    return frozenset(words)


def _run_stop_words_file(path: Path, code: str) -> AbstractSet[str] | None:
    """``STOP_WORDS`` of one of spaCy's ``stop_words.py`` files, or None where it has none."""
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"_rerank_plus_spacy_stop_words_{code}", path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception:  # a file that needs spaCy's package around it: ask spaCy instead
        return None
    words = getattr(module, "STOP_WORDS", None)
    if not isinstance(words, (set, frozenset)) or not all(isinstance(w, str) for w in words):
        return None
    return words
