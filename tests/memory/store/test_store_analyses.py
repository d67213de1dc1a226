"""The analysed index stored with a snapshot: a new process (a new analyzer, an empty piece
cache) that remembers it builds the very index analysing builds, and a store reading it gives
the same contexts."""

from __future__ import annotations

from rerank_plus.analysis import Analyzer
from rerank_plus.analysis.terms import clear_piece_cache
from rerank_plus.memory import MemoryRetriever, build_memory, open_store
from rerank_plus.memory.index.memory_index import MemoryIndex
from rerank_plus.memory.store.analyses import analyses_blob, remember_analyses

from tests.memory.build_chats import SPEAKERS, TOPICS, UNSPACED_TOPICS

LINES = [line for topic in TOPICS.values() for line in topic]
MIXED = LINES + [line for topics in UNSPACED_TOPICS.values() for t in topics.values() for line in t]


def test_remembered_readings_build_the_same_index() -> None:
    memory = build_memory(MIXED)
    first = MemoryIndex(memory, None, Analyzer())
    blob = analyses_blob(first)
    clear_piece_cache()
    analyzer = Analyzer()
    assert remember_analyses(analyzer, memory, blob) == len(memory.items)
    second = MemoryIndex(memory, None, analyzer)
    assert second.item_terms == first.item_terms
    assert second.detections == first.detections
    assert second.languages == first.languages
    for level, (ours, theirs) in enumerate(zip(second.levels, first.levels, strict=True)):
        assert ours.postings.keys() == theirs.postings.keys(), level
    for item in memory.items:
        assert second.sentence_terms(item) == first.sentence_terms(item)


def test_speakers_are_remembered_with_the_items() -> None:
    """The index counts each speaker's name as a word of its messages: a new process reads the
    names' language and words from the stored readings, and counts the same vocabulary."""
    said = [{"text": line, "speaker": SPEAKERS[n % 3]} for n, line in enumerate(MIXED)]
    memory = build_memory([*said, {"text": "un mot", "speaker": "Jean-Loïc Dupré"}])
    first = MemoryIndex(memory, None, Analyzer())
    blob = analyses_blob(first)
    clear_piece_cache()
    analyzer = Analyzer()
    remember_analyses(analyzer, memory, blob)
    second = MemoryIndex(memory, None, analyzer)
    assert second.vocabulary == first.vocabulary
    for speaker in {*SPEAKERS, "Jean-Loïc Dupré"}:
        assert analyzer.analyze(speaker) == first.analyzer.analyze(speaker)


def test_readings_of_other_settings_or_texts_are_not_used() -> None:
    memory = build_memory(LINES)
    blob = analyses_blob(MemoryIndex(memory, None, Analyzer()))
    assert remember_analyses(Analyzer(stopwords="none"), memory, blob) == 0
    other = build_memory([f"{line} (edited)" for line in LINES])
    assert remember_analyses(Analyzer(), other, blob) == 0


def test_a_new_reader_starts_from_the_stored_readings(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'memory.db'}"
    queries = ("the offsite venue", "summarize the budget", "what did QA find?")
    with open_store(url, background=False) as store:
        store.add("team", MIXED)
        store.flush("team")
        first = [store.retrieve("team", query).text for query in queries]
        with store.database.transaction(write=False) as transaction:
            (stored,) = transaction.one("SELECT analysis FROM snapshots")
        assert stored is not None
        memory = store.memory("team")
    clear_piece_cache()
    with open_store(url, background=False) as store:
        assert [store.retrieve("team", query).text for query in queries] == first
    retriever = MemoryRetriever(memory)
    assert [retriever.retrieve(query).text for query in queries] == first


def test_a_question_reads_its_words_as_analysing_them_does() -> None:
    """A question's "venue?" finds "venue" among the remembered pieces: its words, base forms
    and terms are the ones analysing it without them gives."""
    memory = build_memory(MIXED)
    blob = analyses_blob(MemoryIndex(memory, None, Analyzer()))
    questions = [
        "What about the venue?",
        "budget, invoices; spreadsheet: hiring!",
        "Who booked (the hotel)?",
        "Quels hôtels, près du lieu ?",
    ]
    clear_piece_cache()
    analyzer = Analyzer()
    remember_analyses(analyzer, memory, blob)
    remembered = [analyzer.analyze(question) for question in questions]
    clear_piece_cache()
    fresh = Analyzer()
    assert [fresh.analyze(question) for question in questions] == remembered
