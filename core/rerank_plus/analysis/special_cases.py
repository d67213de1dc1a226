"""spaCy's tokenizer exceptions that the tokenizer's shortcut can meet, read without spaCy.

:func:`~rerank_plus.analysis.tokenize.letters_only_tokens` tokenizes a piece of letters (alone,
or with one trailing ``, ; : ! ? )``) without spaCy, unless spaCy's tokenizer has an exception
for it ("cannot" -> "can", "not"). Reading the exceptions through spaCy imports spaCy, thinc and
(when it is installed) torch: about 2.5 s in a new process, most of a memory store's first
query when its words are all such pieces (``benchmarks/memory_store.py --only retrieval``).
The exceptions of that form, for every tokenizer of the language registry, are kept in
``data/spacy_special_cases.json`` with the spaCy version they were read from; with another
version installed (or for a tokenizer not in the file) they are read from spaCy itself, so the
tokens are spaCy's either way. ``tests/languages/test_special_cases.py`` compares the file with
spaCy; after a spaCy upgrade, write it again with
``python -c "from rerank_plus.analysis.special_cases import write_stored; write_stored()"``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

#: Punctuation that every spaCy tokenizer cuts off the end of a word of letters. Not ".": the
#: Armenian, Arabic, Persian and Serbian rules keep it on some words ("већ.").
TRAILING_PUNCTUATION = frozenset(",;:!?)")
#: The exceptions of the registry's tokenizers, and the spaCy version they were read from.
STORED = Path(__file__).with_name("data") / "spacy_special_cases.json"


def shortcut_cases(rules: Iterable[str]) -> frozenset[str]:
    """The exceptions the shortcut can meet: letters, or letters and one trailing mark."""
    return frozenset(
        rule
        for rule in rules
        if rule.isalpha() or (rule[:-1].isalpha() and rule[-1:] in TRAILING_PUNCTUATION)
    )


def installed_spacy() -> str | None:
    """The installed spaCy's version, read without importing it (None: not installed)."""
    try:
        return metadata.version("spacy")
    except metadata.PackageNotFoundError:
        return None


@cache
def _stored() -> dict[str, frozenset[str]]:
    """The file's exceptions by tokenizer, when they were read from the installed spaCy."""
    data = json.loads(STORED.read_text(encoding="utf-8"))
    if data.get("spacy") != installed_spacy():
        return {}
    return {tokenizer: frozenset(rules) for tokenizer, rules in data["cases"].items()}


def stored_cases(tokenizer: str) -> frozenset[str] | None:
    """The ``tokenizer``'s shortcut exceptions from the file (None: ask spaCy)."""
    return _stored().get(tokenizer)


def _rules(tokenizer: Any) -> Iterable[str]:
    return tokenizer.rules or ()


def write_stored() -> None:
    """Read the exceptions of every tokenizer of the registry from spaCy, and write the file."""
    import spacy

    from rerank_plus.analysis.languages import profile, supported_languages

    tokenizers = sorted({profile(code).tokenizer for code in supported_languages()})
    cases = {
        tokenizer: sorted(shortcut_cases(_rules(spacy.blank(tokenizer).tokenizer)))
        for tokenizer in tokenizers
    }
    text = json.dumps({"spacy": installed_spacy(), "cases": cases}, ensure_ascii=False, indent=0)
    STORED.write_text(text + "\n", encoding="utf-8")
