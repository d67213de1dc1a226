"""One message at a time, on every backend: looked up by id, the last N read by their numbers,
one deleted (and its text in no context, no summary, no reader of another store from then
on); the store's own errors for a taken id and an unknown namespace; ``shape`` passed on."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from rerank_plus.memory import MemoryFormatError, MemoryRetriever, MemoryWriter, open_store
from rerank_plus.memory.store import DuplicateMessageIdError, StoreError, UnknownNamespaceError

from tests.memory.build_chats import TOPICS
from tests.memory.store.conftest import hashed_embedder

LINES = [line for topic in TOPICS.values() for line in topic]
#: A message whose words no other line has: found wherever it is kept.
SECRET = "Dana's locker code is zebra-4471, keep it between us."


def repeating_llm(prompt: str) -> str:
    """An LLM that repeats the secret when it reads it (summaries over it hold it, up to the
    top), and says something plain otherwise."""
    said = "the locker code zebra-4471 was shared" if "zebra-4471" in prompt else "plans"
    return f"The team discussed {said}."


QUESTIONS = (
    "what is Dana's locker code?",
    "zebra-4471",
    "summarize everything that was said",
    "what did we say about the offsite and the budget?",
    "what was said most recently?",
)


def test_a_message_by_id(store_url: str) -> None:
    with open_store(store_url, embedder=hashed_embedder, background=False) as store:
        store.add("ana", ["first", {"text": "second", "id": "x", "speaker": "Ben"}])
        found = store.message("ana", "x")
        assert found is not None
        assert (found.text, found.speaker, found.index) == ("second", "Ben", 1)
        assert found == store.messages("ana")[1]
        assert found.embedding == store.messages("ana")[1].embedding
        assert store.message("ana", "nope") is None
        with pytest.raises(UnknownNamespaceError, match=r"'bob' holds no messages.*namespaces"):
            store.message("bob", "x")
        with pytest.raises(StoreError, match="non-empty str"):
            store.message("ana", "")


def test_the_last_messages(store_url: str) -> None:
    with open_store(store_url, background=False) as store:
        store.add("ana", LINES[:7])
        every = store.messages("ana")
        for last in (0, 1, 3, 7, 50):
            assert store.messages("ana", last=last) == every[len(every) - min(last, 7) :]
        assert store.messages("nobody", last=3) == []
        for bad in (-1, 1.5, True, "2"):
            with pytest.raises(StoreError, match="last must be"):
                store.messages("ana", last=bad)


def _said_anywhere(store, name: str, text: str) -> bool:
    """Whether ``text`` is in any context of the namespace, or any item of its memory."""
    for question in QUESTIONS:
        for budget in (150, 4000):
            if text in store.retrieve(name, question, max_tokens=budget).text:
                return True
    return any(text in item.text for item in store.memory(name))


def test_a_deleted_message_is_in_no_context(durable_url: str) -> None:
    """Once ``delete_message`` returns, neither this store nor another one on the database
    (another process, with its retriever cached from before) shows its text: not as a
    message, not inside a summary built over it; the summaries are built again without it."""
    lines = [*LINES[:9], SECRET, *LINES[9:20]]
    models = {"embedder": hashed_embedder, "summarizer": repeating_llm}
    with (
        open_store(durable_url, background=False, **models) as store,
        open_store(durable_url, background=False, **models) as other,
    ):
        ids = store.add("team", lines)
        store.flush("team")
        summaries = [item for item in store.memory("team") if item.is_summary]
        assert any("zebra-4471" in item.text for item in summaries)
        assert _said_anywhere(other, "team", "zebra-4471")

        assert store.delete_message("team", ids[9]) is True
        assert not _said_anywhere(other, "team", "zebra-4471")
        assert other.retrieve("team", "budget").trace.steps[-1]["summarized"] == 20
        assert not _said_anywhere(store, "team", "zebra-4471")

        kept = store.messages("team")
        assert [item.id for item in kept] == ids[:9] + ids[10:]
        assert [item.index for item in kept] == list(range(20))
        assert store.message("team", ids[9]) is None
        rebuilt = MemoryWriter.build(kept, **models).memory
        assert list(store.memory("team")) == list(rebuilt)
        assert store.add("team", ["one more"]) == ["m21"]  # never an id a message holds


def test_delete_message_before_the_summaries_exist(store_url: str) -> None:
    with open_store(store_url, embedder=hashed_embedder) as store:
        ids = store.add("team", [SECRET, *LINES[:30]])
        assert store.delete_message("team", ids[0]) is True
        store.flush("team", timeout=60)
        assert not _said_anywhere(store, "team", "zebra-4471")
        assert store.retrieve("team", "budget").trace.steps[-1]["pending"] == 0


def test_deleting_what_is_not_there(store_url: str) -> None:
    with open_store(store_url, background=False) as store:
        with pytest.raises(UnknownNamespaceError, match="'ana' holds no messages"):
            store.delete_message("ana", "m0")
        store.add("ana", ["only one"])
        assert store.delete_message("ana", "m7") is False
        assert store.delete_message("ana", "m0") is True
        assert store.messages("ana") == [] and store.namespaces() == []
        assert store.retrieve("ana", "one").text == ""
        with pytest.raises(UnknownNamespaceError):
            store.delete_message("ana", "m0")
        assert store.add("ana", ["again"]) == ["m1"]


def test_the_store_errors_of_their_own(store_url: str) -> None:
    with open_store(store_url, background=False) as store:
        store.add("ana", [{"text": "first", "id": "a"}])
        with pytest.raises(DuplicateMessageIdError, match=r"'a' is already in.*own id") as error:
            store.add("ana", [{"text": "again", "id": "a"}])
        assert isinstance(error.value, StoreError) and isinstance(error.value, MemoryFormatError)
        assert "\n" not in str(error.value)
        with pytest.raises(UnknownNamespaceError) as unknown:
            store.message("ben", "a")
        assert isinstance(unknown.value, StoreError) and "\n" not in str(unknown.value)


@pytest.mark.parametrize("shape", ["time", "list", "current", "plain"])
def test_shape_is_passed_on(store_url: str, shape: str) -> None:
    question = "when did we talk about the venue deposit?"
    with open_store(store_url, embedder=hashed_embedder, background=False) as store:
        store.add("team", LINES)
        store.flush("team")
        retriever = MemoryRetriever(store.memory("team"), hashed_embedder)
        ours = store.retrieve("team", question, max_tokens=400, intent="detail", shape=shape)
        theirs = retriever.retrieve(question, 400, "detail", shape=shape)
        assert ours.text == theirs.text
        assert [item.item.id for item in ours.items] == [item.item.id for item in theirs.items]


async def test_aretrieve_passes_shape_on(store_url: str) -> None:
    with open_store(store_url, background=False) as store:
        store.add("team", LINES[:10])
        for shape in ("list", "plain"):
            ours = await store.aretrieve("team", "the venue", intent="detail", shape=shape)
            assert (
                ours.text == store.retrieve("team", "the venue", intent="detail", shape=shape).text
            )


def test_a_store_of_format_1_is_migrated(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    with open_store(url, background=False) as store:
        store.add("ana", LINES[:3])
    with sqlite3.connect(tmp_path / "old.db") as connection:  # the layout of format 1
        connection.execute("ALTER TABLE namespaces DROP COLUMN removed")
        connection.execute("UPDATE store_info SET value = '1' WHERE key = 'format'")
    with open_store(url, background=False) as store:
        assert [item.text for item in store.messages("ana")] == LINES[:3]
        assert store.delete_message("ana", "m1") is True
        assert store.add("ana", ["later"]) == ["m3"]
    with sqlite3.connect(tmp_path / "old.db") as connection:
        assert connection.execute("SELECT value FROM store_info").fetchone() == ("2",)


def test_a_summary_built_while_its_message_is_deleted_is_not_stored(store_url: str) -> None:
    """The background summarizer reads the secret, the message is deleted while it works: what
    it built is refused (compare-and-set on the generation), and the summaries are built again
    without the secret."""
    reading = threading.Event()
    go_on = threading.Event()

    def slow_llm(prompt: str) -> str:
        if "zebra-4471" in prompt:
            reading.set()
            go_on.wait(30)
        return repeating_llm(prompt)

    with open_store(store_url, embedder=hashed_embedder, summarizer=slow_llm) as store:
        ids = store.add("team", [SECRET, *LINES[:12]])
        assert reading.wait(30)
        assert store.delete_message("team", ids[0]) is True
        go_on.set()
        store.flush("team", timeout=60)
        assert not _said_anywhere(store, "team", "zebra-4471")
        assert len(store.messages("team")) == 12
