"""The "unified artifacts" file: a whole memory (messages and every summary level) as JSON.

One file carries what a retriever needs, so a memory built once (``rerank-plus memory build``)
is queried many times without rebuilding, and a memory made elsewhere (another builder, a hand
edit, a converter) is read through the same validation::

    {
      "format": "rerank-plus-memory",
      "version": 1,
      "messages": [                      # level 0, in order: messages[i] has index i
        {"id": "m0", "index": 0, "text": "Let's ship on Friday.",
         "time": "2024-05-01T09:30:00+02:00", "speaker": "Ana"},
        ...
      ],
      "levels": [                        # levels[0] is L1, levels[1] is L2, ...
        [{"id": "L1-0", "index": 0, "text": "Ana plans the release.",
          "covers": ["m0", "m1"], "time": "...", "end_time": "..."}, ...],
        ...
      ]
    }

An item is an object with the :class:`~rerank_plus.memory.model.items.MemoryItem` fields:
``id`` (required, unique in the file), ``text`` (required), ``index`` (its position in its
list; optional, checked when given), ``level`` (optional, checked when given: 0 for messages,
k for ``levels[k-1]``), ``covers`` (ids of lower-level items; never on a message), ``time`` and
``end_time`` (ISO 8601; a time without an offset is UTC; epoch seconds are read too),
``speaker``, ``source`` (text), ``tags`` (list of text), ``entities`` (object: group -> list of
names, the group ``"others"`` for untyped names), ``signals`` and ``extras`` (objects of any JSON
data) and ``embedding`` (list of numbers). Fields at their empty default are left out when
writing. Reading keeps what JSON can tell apart: times come back with a fixed UTC offset (the
same instant; a zone name is not kept), and JSON lists inside ``signals`` and ``extras`` come
back as tuples (items are frozen), so a memory whose data uses tuples round-trips exactly.

Errors name the place in the file (``levels[0][3].covers[1]``, item id included) and say how to
fix it; unknown keys are listed, not ignored, so a typo is not silently dropped.

This module reads and writes the files (gzip by name, an atomic replace on save); the data is
written by :mod:`~rerank_plus.memory.model.artifact_shape` and read back, validated, by
:mod:`~rerank_plus.memory.model.artifact_validation`.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from pathlib import Path
from typing import IO, Any

from rerank_plus.memory.errors import MemoryFormatError
from rerank_plus.memory.model.artifact_shape import FORMAT, VERSION, memory_to_dict
from rerank_plus.memory.model.artifact_validation import memory_from_dict
from rerank_plus.memory.model.memory import Memory

__all__ = [
    "FORMAT",
    "VERSION",
    "check_save_target",
    "load_memory",
    "memory_from_dict",
    "memory_to_dict",
    "save_memory",
]


def _reader(path: Path) -> IO[str]:
    """A UTF-8 text handle, gzip-decompressed for ``.gz`` names."""
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open("r", encoding="utf-8")


def save_memory(memory: Memory, path: str | os.PathLike[str], *, embeddings: bool = True) -> Path:
    """Write ``memory`` to ``path`` (``.json``, or ``.json.gz`` compressed); returns the path.

    The file is written to a temporary file of its own beside the target, flushed to disk and
    moved into place, so a save that returns is on disk, and an interrupted one (or another
    process saving the same path at the same moment) never leaves half a memory behind. A JSON
    file has one writer: two processes that each load, add and save the same file keep whichever
    saved last, whole. For several writers, use a memory store.
    """
    target = check_save_target(path)
    data = memory_to_dict(memory, embeddings=embeddings)
    try:
        _write(data, target)
    except OSError as error:  # a full disk, a folder we may not write in: name the target
        reason = error.strerror or str(error)
        named = type(error)(f"cannot save the memory to {target}: {reason}.")
        named.errno = error.errno
        raise named from error
    return target


def check_save_target(path: str | os.PathLike[str]) -> Path:
    """``path`` as a place :func:`save_memory` can write to, checked before any work (a
    command line checks its output before it builds), or an error naming it and the fix."""
    target = Path(path)
    if not target.parent.is_dir():
        raise FileNotFoundError(
            f"cannot save the memory to {target}: the folder {target.parent} does not exist; "
            "create it first."
        )
    if target.is_dir():
        raise IsADirectoryError(
            f"cannot save the memory to {target}: it is a folder; give a file name such as "
            f"{target / 'memory.json'}."
        )
    return target


def _write(data: dict[str, Any], target: Path) -> None:
    """``data`` as JSON in a temporary file of its own beside ``target``, flushed to disk, then
    moved into place."""
    handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".partial")
    partial = Path(name)
    try:
        # dumps, not dump: only the one-shot encoder is the C one (several times faster).
        text = json.dumps(data, ensure_ascii=False, allow_nan=False).encode("utf-8")
        with os.fdopen(handle, "wb") as raw:
            if target.suffix == ".gz":
                # zlib's default level 6: about half the time of gzip's 9 for 1% more bytes
                with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6) as packed:
                    packed.write(text)
            else:
                raw.write(text)
            os.fchmod(raw.fileno(), _mode(target))  # mkstemp's is private to the owner
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(partial, target)
        _sync_folder(target.parent)
    finally:
        partial.unlink(missing_ok=True)


def _mode(target: Path) -> int:
    """The saved file's permissions: the file's it replaces, else readable by all."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        return 0o644


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the platform lets a folder be opened)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def load_memory(path: str | os.PathLike[str]) -> Memory:
    """Read a memory written by :func:`save_memory` (or by hand in the same format)."""
    source = Path(path)
    try:
        with _reader(source) as handle:
            data = json.load(handle)
    except json.JSONDecodeError as error:
        raise MemoryFormatError(
            f"{source}: not JSON ({error.msg} at line {error.lineno}, column {error.colno})."
        ) from error
    except (UnicodeDecodeError, gzip.BadGzipFile) as error:
        raise MemoryFormatError(f"{source}: not a UTF-8 JSON file ({error}).") from error
    except EOFError as error:
        raise MemoryFormatError(
            f"{source}: the compressed file ends early (truncated: {error}); save it again or "
            "restore a complete copy."
        ) from error
    try:
        return memory_from_dict(data)
    except MemoryFormatError as error:
        raise MemoryFormatError(f"{source}: {error}") from error
