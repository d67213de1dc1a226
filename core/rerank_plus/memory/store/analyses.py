"""The analysed index stored with a snapshot, so that a process reading a namespace for the
first time does not analyse every item again.

What a retriever's index spends its build on is reading each item: detecting its language,
then cutting its words and finding their base forms and terms (tokenizers and lemma tables that
take seconds to load per language); the tables it builds from them (postings, BM25 statistics)
are quick. So the stored value is what the index's analyzer read: each item's language
detection (with a checksum of the text it was made of: it is only used for that text), and the
words, base forms and terms of every distinct piece of text (word between spaces) in each
language, the speakers' names included (the index counts a name as a word of its messages;
detecting and analysing the names was about a quarter of a new process's first query). A new
process hands them to its analyzer before its first query
(:meth:`~rerank_plus.analysis.Analyzer.remember`,
:func:`~rerank_plus.analysis.terms.remember_pieces`): the index is then built by lookups,
without a tokenizer or lemma table, and is the index built by analysing.

The value is zlib-compressed JSON: the analyzer's settings (what other settings stored is not
used), the detections by item id and by speaker (absent in values stored before speakers
were), and per language the pieces, each as ``[piece, words, base forms, terms]`` with ``0``
for "the same as the one before" (words: the piece alone).
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from rerank_plus.analysis import Analyzer
from rerank_plus.analysis.language import Detection
from rerank_plus.analysis.normalize import normalize_text
from rerank_plus.analysis.terms import PieceWords, remember_pieces
from rerank_plus.memory.index.memory_index import MemoryIndex
from rerank_plus.memory.index.tables import search_texts
from rerank_plus.memory.model.memory import Memory


def _settings(analyzer: Analyzer) -> list[Any]:
    return [
        list(analyzer.languages),
        analyzer.default_language,
        sorted(analyzer.spacy_pipelines.items()),
        analyzer.lemmatize,
        analyzer.stopwords,
    ]


def _checksum(text: str) -> int:
    return zlib.crc32(text.encode("utf-8", "surrogatepass"))


def _packed(piece: str, words: PieceWords) -> list[Any]:
    said, bases, terms = words
    return [
        piece,
        0 if said == (piece,) else list(said),
        0 if bases == said else list(bases),
        0 if terms == bases else list(terms),
    ]


def _unpacked(entry: list[Any]) -> tuple[str, PieceWords]:
    piece, said, bases, terms = entry
    said = (piece,) if said == 0 else tuple(said)
    bases = said if bases == 0 else tuple(bases)
    return piece, (said, bases, bases if terms == 0 else tuple(terms))


def analyses_blob(index: MemoryIndex) -> bytes:
    """What ``index`` read of its items (see the module docstring), as stored."""
    analyzer = index.analyzer
    detections: dict[str, list[Any]] = {}
    pieces: dict[str, dict[str, PieceWords]] = {}
    for item in index.items:
        searched = index.search_texts[item.id]
        found = index.detections[item.id]
        detections[item.id] = [
            _checksum(searched),
            [found.language, found.confidence, found.reliable, found.script],
        ]
        language = index.item_terms[item.id][0]
        if language in analyzer.spacy_pipelines:
            continue  # a trained pipeline reads a text whole, not piece by piece
        table = pieces.setdefault(language, {})
        for text in {searched, item.text}:
            parts = normalize_text(text).split()
            read = analyzer.analyze(text, language).pieces
            if len(parts) == len(read):
                table.update(zip(parts, read, strict=True))
    speakers: dict[str, list[Any]] = {}
    for item in index.items:
        if item.level == 0 and item.speaker and item.speaker not in speakers:
            found = analyzer.detect(item.speaker)
            speakers[item.speaker] = [
                found.language,
                found.confidence,
                found.reliable,
                found.script,
            ]
            name = analyzer.analyze(item.speaker)
            parts = normalize_text(item.speaker).split()
            if name.language not in analyzer.spacy_pipelines and len(parts) == len(name.pieces):
                pieces.setdefault(name.language, {}).update(zip(parts, name.pieces, strict=True))
    data = {
        "analyzer": _settings(analyzer),
        "detections": detections,
        "speakers": speakers,
        "pieces": {
            language: [_packed(piece, words) for piece, words in table.items()]
            for language, table in pieces.items()
        },
    }
    return zlib.compress(json.dumps(data, ensure_ascii=False).encode("utf-8"))


def remember_analyses(analyzer: Analyzer, memory: Memory, blob: bytes) -> int:
    """Hand the stored readings of ``memory``'s items to ``analyzer``; returns how many items'
    detections were remembered (0: none, e.g. stored by an analyzer with other settings)."""
    data = json.loads(zlib.decompress(blob))
    if data.get("analyzer") != json.loads(json.dumps(_settings(analyzer))):
        return 0
    for language, entries in data["pieces"].items():
        remember_pieces(
            language, analyzer.lemmatize, analyzer.stopwords, dict(map(_unpacked, entries))
        )
    for speaker, detection in data.get("speakers", {}).items():
        analyzer.remember(speaker, Detection(*detection))
    stored = data["detections"]
    searched = search_texts(memory)
    count = 0
    for item in memory.items:
        entry = stored.get(item.id)
        text = searched[item.id]
        if entry is None or entry[0] != _checksum(text):
            continue  # not stored, or another text under that id
        analyzer.remember(text, Detection(*entry[1]))
        count += 1
    return count
