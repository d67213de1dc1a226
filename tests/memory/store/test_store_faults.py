"""Bad input and faults (issue #46): each a one-line StoreError (or the message errors
``build_memory`` raises) naming the fix, and nothing stored or lost."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from rerank_plus.memory import MemoryFormatError, StoreError, open_store

from tests.memory.build_chats import TOPICS
from tests.memory.store.conftest import hashed_embedder, schema_url

LINES = [line for topic in TOPICS.values() for line in topic]


def _one_line(error: pytest.ExceptionInfo[BaseException]) -> str:
    text = str(error.value)
    assert "\n" not in text and text
    return text


@pytest.mark.parametrize(
    "url", ["mysql://user@host/db", "sqlite:memory.db", "/tmp/memory.db", "", "redis://a:pw@h"]
)
def test_an_unknown_scheme_lists_the_known_ones(url: str) -> None:
    with pytest.raises(StoreError, match=r"sqlite:///path/memory.db, postgresql://") as error:
        open_store(url)
    assert "pw" not in _one_line(error)


def test_a_url_that_is_not_text() -> None:
    with pytest.raises(StoreError, match="must be a str"):
        open_store(None)  # type: ignore[arg-type]


def test_a_missing_folder_or_a_folder_as_file(tmp_path) -> None:
    with pytest.raises(StoreError, match="does not exist; create it") as error:
        open_store(f"sqlite:///{tmp_path / 'absent' / 'memory.db'}")
    _one_line(error)
    with pytest.raises(StoreError, match="is a folder"):
        open_store(f"sqlite:///{tmp_path}")


def test_not_a_database(tmp_path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("not a database, only some text that is long enough " * 40)
    with pytest.raises(StoreError, match="not a SQLite database") as error:
        open_store(f"sqlite:///{path}")
    _one_line(error)


def _open_as_nobody(url: str, answers) -> None:
    """In a forked child: give up root, then open the store (what a read-only file is to a
    user who may not write it)."""
    if os.geteuid() == 0:
        os.setgid(65534)
        os.setuid(65534)
    try:
        open_store(url, background=False).add("ana", ["hello"])
        answers.put("opened")
    except StoreError as error:
        answers.put(f"StoreError: {error}")
    except BaseException as error:
        answers.put(f"{type(error).__name__}: {error}")


def test_a_read_only_store() -> None:
    tmp_path = Path(tempfile.mkdtemp())  # pytest's own folders are closed to other users
    url = f"sqlite:///{tmp_path / 'memory.db'}"
    with open_store(url, background=False) as store:
        store.add("ana", ["kept"])
    (tmp_path / "memory.db").chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        context = multiprocessing.get_context("fork")
        answers = context.Queue()
        child = context.Process(target=_open_as_nobody, args=(url, answers))
        child.start()
        child.join(60)
        answer = answers.get(timeout=5)
    finally:
        tmp_path.chmod(0o755)
        (tmp_path / "memory.db").chmod(0o644)
    assert answer.startswith("StoreError: "), answer
    assert "\n" not in answer
    assert "read-only" in answer or "can be written" in answer
    with open_store(url, background=False) as store:
        assert [item.text for item in store.messages("ana")] == ["kept"]
    shutil.rmtree(tmp_path)


def test_a_sqlite_file_locked_beyond_the_timeout(tmp_path) -> None:
    path = tmp_path / "memory.db"
    with open_store(f"sqlite:///{path}", background=False) as store:
        store.add("ana", ["first"])
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with open_store(f"sqlite:///{path}", background=False, timeout=0.2) as store:
            with pytest.raises(StoreError, match=r"stayed locked .* timeout=") as error:
                store.add("ana", ["second"])
            _one_line(error)
            assert [item.text for item in store.messages("ana")] == ["first"]
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_postgres_row_locked_beyond_the_timeout(postgres_url: str) -> None:
    import psycopg

    url = schema_url(postgres_url)
    with open_store(url, background=False, timeout=0.3) as store:
        store.add("ana", ["first"])
        with psycopg.connect(url) as holder:
            holder.execute("SELECT * FROM namespaces WHERE name = 'ana' FOR UPDATE")
            with pytest.raises(StoreError, match="lock stayed held") as error:
                store.add("ana", ["second"])
            _one_line(error)
        store.add("other", ["not waiting for ana"])
        assert [item.text for item in store.messages("ana")] == ["first"]


def test_a_full_disk_stores_nothing(tmp_path) -> None:
    with open_store(f"sqlite:///{tmp_path / 'memory.db'}", background=False) as store:
        store.add("ana", ["first"])
        with store.database.transaction(write=True) as transaction:
            pages = transaction.one("PRAGMA page_count")[0]
            transaction.execute(f"PRAGMA max_page_count = {pages + 2}")
        with pytest.raises(StoreError, match="full: the last change was not stored") as error:
            store.add("ana", [f"{line} " * 50 for line in LINES])
        _one_line(error)
        assert [item.text for item in store.messages("ana")] == ["first"]


def _with_password(url: str, password: str) -> str:
    parts = urlsplit(url)
    netloc = f"{parts.username}:{password}@{parts.hostname}:{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def test_a_wrong_password_names_the_url_without_it(postgres_url: str) -> None:
    import psycopg

    wrong = _with_password(postgres_url, "not-the-password")
    try:
        psycopg.connect(wrong).close()
    except psycopg.OperationalError:
        pass
    else:
        pytest.skip("this server lets any password in (trust authentication)")
    with pytest.raises(StoreError, match="check that the server runs") as error:
        open_store(wrong)
    text = _one_line(error)
    assert "not-the-password" not in text and ":***@" in text


def test_an_unreachable_server(postgres_url: str) -> None:
    parts = urlsplit(_with_password(postgres_url, "s3cret"))
    closed = urlunsplit(parts._replace(netloc=f"{parts.username}:s3cret@127.0.0.1:1"))
    with pytest.raises(StoreError, match="cannot use the PostgreSQL store") as error:
        open_store(closed, timeout=2)
    assert "s3cret" not in _one_line(error)


@pytest.mark.parametrize(
    ("namespace", "words"),
    [("", "is empty"), ("x" * 513, "keep it to 512"), (None, "is a str"), ("a\x00b", "NUL")],
)
def test_bad_namespaces(store_url: str, namespace, words: str) -> None:
    with open_store(store_url, background=False) as store:
        for call in (
            lambda: store.add(namespace, ["hi"]),
            lambda: store.retrieve(namespace, "hi"),
            lambda: store.messages(namespace),
        ):
            with pytest.raises(StoreError, match=words) as error:
                call()
            _one_line(error)
        assert store.namespaces() == []


def test_the_longest_namespace_and_any_characters(store_url: str) -> None:
    with open_store(store_url, background=False) as store:
        for name in ("x" * 512, "ünï/çødé 名前/%_'\";--"):
            store.add(name, ["kept"])
            assert [item.text for item in store.messages(name)] == ["kept"]
        assert len(store.namespaces()) == 2


@pytest.mark.parametrize(
    ("messages", "words"),
    [
        ([{"text": "hi", "time": "yesterday-ish"}], "time"),
        ([{"text": 42}], "must be a str"),
        ([{"speakr": "Ana", "text": "hi"}], "did you mean 'speaker'"),
        ([3.5], "give a str or a mapping"),
        ("one message", "wrap it in a list"),
        ([{"text": "a", "id": "x"}, {"text": "b", "id": "x"}], "repeats"),
        ([{"text": "a", "id": "L1.0"}], "summary's id"),
    ],
)
def test_bad_messages_store_nothing(store_url: str, messages, words: str) -> None:
    with open_store(store_url, background=False) as store:
        store.add("ana", ["first"])
        with pytest.raises(MemoryFormatError, match=words):
            store.add("ana", ["fine", *messages] if isinstance(messages, list) else messages)
        assert [item.text for item in store.messages("ana")] == ["first"]


def test_a_taken_id_stores_nothing(store_url: str) -> None:
    with open_store(store_url, background=False) as store:
        store.add("ana", [{"text": "first", "id": "a"}, "second"])
        for taken in ("a", "m1"):
            with pytest.raises(MemoryFormatError, match=f"{taken!r} is already in"):
                store.add("ana", ["new", {"text": "again", "id": taken}])
        assert store.add("other", [{"text": "same id elsewhere", "id": "a"}]) == ["a"]
        assert len(store.messages("ana")) == 2


def test_a_failing_embedder_stores_nothing(store_url: str) -> None:
    def failing(texts):
        raise ConnectionError("embedding service down")

    with open_store(store_url, embedder=failing, background=False) as store:
        with pytest.raises(StoreError, match=r"embedding service down.*nothing was stored"):
            store.add("ana", ["hello"])
        assert store.messages("ana") == []


def test_another_embedding_length_is_refused(durable_url: str) -> None:
    with open_store(durable_url, embedder=hashed_embedder, background=False) as store:
        store.add("ana", ["hello"])
    other = open_store(durable_url, embedder=lambda texts: [[1.0, 0.0]] * len(texts))
    with other, pytest.raises(StoreError, match=r"length 32.*one embedding model"):
        other.add("ana", ["hi"])
    lexical = open_store(durable_url, background=False)
    with lexical, pytest.raises(StoreError, match="open the store with the embedder"):
        lexical.add("ana", ["hi"])


class FlakySummarizer:
    """An LLM (a callable from a prompt to text) that fails while ``down`` is set."""

    def __init__(self) -> None:
        self.down = True

    def __call__(self, prompt: str) -> str:
        if self.down:
            raise TimeoutError("the LLM did not answer")
        return "The team planned the offsite, the budget and the release."


def test_a_failing_summarizer_keeps_messages_retrievable(store_url: str) -> None:
    summarizer = FlakySummarizer()
    with open_store(store_url, summarizer=summarizer, background=False) as store:
        store.add("team", LINES)
        with pytest.raises(StoreError, match=r"did not answer.*stored and retrievable") as error:
            store.flush("team")
        _one_line(error)
        context = store.retrieve("team", "the Lyon venue")
        assert "Lyon" in context.text
        step = context.trace.steps[-1]
        assert step["pending"] == len(LINES) and "did not answer" in step["summary_error"]
        summarizer.down = False
        store.flush("team")
        step = store.retrieve("team", "the Lyon venue").trace.steps[-1]
        assert step["pending"] == 0 and step["summary_error"] is None
        assert len(store.messages("team")) == len(LINES)


def test_a_failing_summarizer_in_the_background(store_url: str) -> None:
    summarizer = FlakySummarizer()
    with open_store(store_url, summarizer=summarizer) as store:
        store.add("team", LINES)
        for _ in range(200):
            step = store.retrieve("team", "the Lyon venue").trace.steps[-1]
            if step["summary_error"]:
                break
            multiprocessing.Event().wait(0.05)
        assert "did not answer" in step["summary_error"] and step["pending"] == len(LINES)
        summarizer.down = False
        store.flush("team")
        assert store.retrieve("team", "venue").trace.steps[-1]["pending"] == 0


def test_a_store_of_a_newer_format(tmp_path) -> None:
    path = tmp_path / "memory.db"
    open_store(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE store_info SET value = '99' WHERE key = 'format'")
    with pytest.raises(StoreError, match=r"format version '99'.*upgrade rerank-plus") as error:
        open_store(f"sqlite:///{path}")
    _one_line(error)


def test_a_closed_store(store_url: str) -> None:
    store = open_store(store_url)
    store.close()
    with pytest.raises(StoreError, match="closed; open it again"):
        store.add("ana", ["hi"])
