"""Reading the lexicons: one TOML file per language (``data/<language>.toml``), checked
against one schema as it is read.

A file has these tables (``data/english.toml`` is a model to copy):

``[language]``
    ``code``: the ISO 639-1 code, the language's key in ``LEXICONS``; ``spaced``: false where
    words are not written apart; ``script``: the scripts a query must have a letter of for the
    cues to be tried (names of :mod:`rerank_plus.analysis.script`).
``[fragments]`` (optional)
    Named pieces of expression, ``NAME = '...'`` (capitals), that any fragment of the file
    writes in as ``{NAME}`` (``'{PREFIXES}ملخص\\w*'``); a piece may use another. Shared ones
    (:data:`.generated.SHARED_FRAGMENTS`) need no definition.
``[intent]``
    What a query asks for: ``summary``, ``breadth``, ``scope``, ``future``, ``recency``,
    ``entity_leads``, ``entity_trails``, ``name_leads``, ``name_trails``, ``asking``,
    ``topic_leads``.
``[shape]`` (optional)
    What form of answer it asks for: ``time_questions``, ``list_questions``,
    ``current_questions``.
``[time]``
    The time grammar: ``since``, ``since_after``, ``range_opening``, ``range_inner``,
    ``range_endings``, ``range_closing``, ``ago``, ``last_n``, ``day_parts``, ``part_joiner``,
    ``weekdays``, ``previous_weekday``, ``previous_period``, ``current_period``,
    ``clock_leads``, ``clock_times``, ``months``, ``month_alone``, ``day_dates``, and the
    tables ``numbers`` (or ``numbers_from``, a table of :data:`.generated.NUMBER_TABLES`),
    ``units``, ``days`` (day offsets as keys: ``-1 = 'yesterday'``), ``parts``, ``periods``.
``[annotation]`` (optional)
    What dating the relative times of quoted messages reads beyond the query grammar:
    ``days_ahead`` (``1 = 'tomorrow'``), ``next_period``, ``after_n``, ``either_way``.

Each key is the :class:`.Lexicon` field of the same name, which says what it holds; the
fields without a default are required (``[]`` where the language has none). Fragments are
written in single quotes, so that a backslash stays one (``'summar\\w*'``); where a fragment
is expected, an array of strings is one fragment in pieces, joined as written. Every string
is read in NFKC, the form queries are matched in. A file that breaks the schema raises
:class:`LexiconFileError`, whose message names the file and the key.

Languages are listed in the order of :data:`PRECEDENCE`, then by file name: where two
languages read the same words as a time expression, the first one's reading is kept.
"""

from __future__ import annotations

import difflib
import re
import sys
import unicodedata
from collections.abc import Iterable, Mapping
from importlib.resources import files
from os import PathLike
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from rerank_plus.errors import RerankPlusError
from rerank_plus.memory.query.lexicon.generated import NUMBER_TABLES, SHARED_FRAGMENTS
from rerank_plus.memory.query.lexicon.schema import EXAMPLES, KEYS, REQUIRED, Check, Invalid
from rerank_plus.memory.query.lexicon.table import Lexicon

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

#: The order the languages were added in: on equal readings the first one wins, as it did.
PRECEDENCE = (
    *("en", "fr", "de", "es", "it", "pt", "zh", "ja", "ar", "el"),
    *("ru", "th", "nl", "pl", "tr", "ko", "hi", "cs", "vi", "id"),
)

_PACKAGE = __name__.rpartition(".")[0]
_TABLES = ("language", "fragments", "intent", "shape", "time", "annotation")
_NAME = re.compile(r"[A-Z][A-Z0-9_]*")
_USE = re.compile(r"\{([A-Z][A-Z0-9_]*)\}")


class LexiconFileError(RerankPlusError, ValueError):
    """A lexicon file that breaks the schema (:mod:`.loader`); the message names the file and
    the key, and says how to fix it."""


def load_lexicons(
    path: str | PathLike[str] | Traversable | None = None, *, compile_check: bool = True
) -> Mapping[str, Lexicon]:
    """The lexicons of ``path`` (a folder of ``.toml`` files, or one file; by default the
    ones shipped in ``data/``), by language code, read-only. ``compile_check=False`` skips
    compiling each fragment alone (a quarter of a second for the shipped files, which the
    tests compile), not the other checks."""
    source: Traversable = files(_PACKAGE) / "data" if path is None else _as_traversable(path)
    paths = sorted(
        (item for item in source.iterdir() if item.name.endswith(".toml"))
        if source.is_dir()
        else [source],
        key=lambda item: item.name,
    )
    if not paths:
        raise LexiconFileError(f"{source}: no .toml file in this folder; add one per language")
    loaded: dict[str, tuple[str, Lexicon]] = {}
    for item in paths:
        code, lexicon = load_lexicon(item, compile_check=compile_check)
        if code in loaded:
            raise LexiconFileError(
                f"{item}: [language] code {code!r} is also the code of {loaded[code][0]}; "
                "keep one file per language"
            )
        loaded[code] = (item.name, lexicon)
    rank = {code: i for i, code in enumerate(PRECEDENCE)}
    order = sorted(loaded, key=lambda code: rank.get(code, len(rank)))
    return MappingProxyType({code: loaded[code][1] for code in order})


def load_lexicon(
    path: str | PathLike[str] | Traversable, *, compile_check: bool = True
) -> tuple[str, Lexicon]:
    """One file's language code and :class:`.Lexicon` (``compile_check``: as
    :func:`load_lexicons`)."""
    item = _as_traversable(path)
    if not item.is_file():
        raise LexiconFileError(
            f"{item}: no such file; pass a lexicon file or a folder of them (.toml)"
        )
    try:
        data = tomllib.loads(item.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise LexiconFileError(f"{item}: not valid TOML ({error}); fix the syntax there") from None
    return _Reader(str(item), data, compile_check).read()


def _as_traversable(path: str | PathLike[str] | Traversable) -> Traversable:
    return Path(path) if isinstance(path, (str, PathLike)) else path


class _Reader:
    """One file's tables, checked key by key."""

    def __init__(self, name: str, data: dict[str, Any], compile_check: bool) -> None:
        self.name = name
        self.data = data
        self.compile_check = compile_check
        self.fragments: dict[str, str] = {}
        self.expanded: dict[str, str] = {}
        self.used: set[str] = set()

    def fail(self, where: str, message: str) -> LexiconFileError:
        return LexiconFileError(f"{self.name}: {where} {message}")

    def read(self) -> tuple[str, Lexicon]:
        for table, value in self.data.items():
            if table not in _TABLES:
                raise self.fail(
                    f"[{table}]",
                    f"is not a table of a lexicon file{_did_you_mean(table, _TABLES, 'tables')}",
                )
            if not isinstance(value, dict):
                raise self.fail(f"[{table}]", "must be a table: its name in brackets, keys below")
        language = dict(self.data.get("language", {}))
        code = language.pop("code", None)
        if not isinstance(code, str) or not re.fullmatch(r"[a-z]{2}", code):
            raise self.fail(
                "[language] code",
                f'must be the language\'s ISO 639-1 code, e.g. code = "en"; got {code!r}',
            )
        self._read_fragments(self.data.get("fragments", {}))
        time = dict(self.data.get("time", {}))
        numbers_from = time.pop("numbers_from", None)
        values: dict[str, Any] = {}
        given_tables = {
            "language": language,
            "intent": self.data.get("intent", {}),
            "shape": self.data.get("shape", {}),
            "time": time,
            "annotation": self.data.get("annotation", {}),
        }
        for table, given in given_tables.items():
            for key, value in given.items():
                if KEYS.get(key, ("",))[0] != table:
                    known = [name for name, (home, _) in KEYS.items() if home == table]
                    raise self.fail(
                        f"[{table}] {key}",
                        f"is not a key of [{table}]{_did_you_mean(key, known, 'keys')}",
                    )
                values[key] = self._check(f"[{table}] {key}", KEYS[key][1], value)
        if numbers_from is not None:
            values["numbers"] = self._numbers_from(numbers_from, "numbers" in values)
        if missing := sorted(REQUIRED - set(values)):
            key = missing[0]
            example = EXAMPLES.get(key, f"{key} = [] if there is none")
            raise self.fail(f"[{KEYS[key][0]}] {key}", f"is missing; add it ({example})")
        if unused := sorted(self.fragments.keys() - self.used):
            name = unused[0]
            raise self.fail(
                f"[fragments] {name}", f"is never used; use it as {{{name}}} or remove it"
            )
        return code, Lexicon(**values)

    def _check(self, where: str, check: Check, value: Any) -> Any:
        try:
            return check(value, self._expand)
        except Invalid as invalid:
            raise self.fail(where + invalid.where, invalid.message) from None

    def _read_fragments(self, table: dict[str, Any]) -> None:
        for name, text in table.items():
            if not _NAME.fullmatch(name):
                raise self.fail(
                    f"[fragments] {name}", "must be a name in capitals (A-Z, 0-9, _), e.g. TALK"
                )
            if isinstance(text, list) and text and all(isinstance(piece, str) for piece in text):
                text = "".join(text)
            if not isinstance(text, str):
                raise self.fail(f"[fragments] {name}", "must be a string: NAME = '...'")
            self.fragments[name] = text

    def _numbers_from(self, name: Any, also_listed: bool) -> Mapping[str, int]:
        if also_listed:
            raise self.fail("[time] numbers_from", "and [time] numbers are both given; keep one")
        if name not in NUMBER_TABLES:
            raise self.fail(
                "[time] numbers_from", f"must be one of {', '.join(NUMBER_TABLES)}, got {name!r}"
            )
        table = NUMBER_TABLES[name]()
        return MappingProxyType({unicodedata.normalize("NFKC", w): n for w, n in table.items()})

    def _expand(self, text: str, where: str) -> str:
        """The fragment ``text`` (at ``where`` in its key) as the lexicon holds it: named
        fragments written in, NFKC, compiled unless told not to."""
        try:
            found = unicodedata.normalize("NFKC", self._written_in(text, []))
        except Invalid as invalid:
            raise Invalid(where, invalid.message) from None
        try:
            if self.compile_check:
                re.compile(found)
        except re.error as error:
            raise Invalid(
                where, f"is not a valid regular expression ({error}): {found!r}; fix the fragment"
            ) from None
        return found

    def _written_in(self, text: str, through: list[str]) -> str:
        """``text`` with every ``{NAME}`` written in (``through``: the names being written)."""

        def one(use: re.Match[str]) -> str:
            name = use.group(1)
            inside = f" (in {{{through[-1]}}})" if through else ""
            if name in through:
                raise Invalid("", f"uses {{{name}}} inside itself{inside}; break the cycle")
            if name in self.fragments:
                self.used.add(name)
                if name not in self.expanded:
                    self.expanded[name] = self._written_in(self.fragments[name], [*through, name])
                return self.expanded[name]
            if name in SHARED_FRAGMENTS:
                return SHARED_FRAGMENTS[name]
            defined = ", ".join(sorted(self.fragments)) or "none"
            raise Invalid(
                "",
                f"uses {{{name}}}{inside}, which no fragment defines; define it under "
                f"[fragments] (defined: {defined}) or write the text out",
            )

        return _USE.sub(one, text)


def _did_you_mean(name: str, known: Iterable[str], what: str) -> str:
    known = list(known)
    close = difflib.get_close_matches(name, known, n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return f"{hint}; the {what} are {', '.join(known)}"
