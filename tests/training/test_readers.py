"""Reading training data: the format told from the contents, and each bad input's error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rerank_plus.training import TrainingDataError, detect_format, read_data
from rerank_plus.training.meetings import windows

from tests.training.conftest import pair_records, write_jsonl


def beir_folder(folder: Path, with_queries: bool = True) -> Path:
    folder.mkdir()
    write_jsonl(
        folder / "corpus.jsonl",
        [{"_id": f"d{i}", "title": "", "text": f"passage {i} about things"} for i in range(6)],
    )
    if with_queries:
        write_jsonl(
            folder / "queries.jsonl", [{"_id": f"q{i}", "text": f"query {i}"} for i in range(3)]
        )
        (folder / "qrels.tsv").write_text(
            "query-id\tcorpus-id\tscore\nq0\td0\t1\nq1\td1\t2\nq2\td2\t0\n", encoding="utf-8"
        )
    return folder


def meeting_folder(folder: Path) -> Path:
    (folder / "train").mkdir(parents=True)
    turns = [{"speaker": f"S{i % 2}", "content": " ".join(["word"] * 60)} for i in range(10)]
    meeting = {
        "meeting_transcripts": turns,
        "topic_list": [],
        "general_query_list": [{"query": "What was discussed?", "answer": ""}],
        "specific_query_list": [
            {"query": "What did S1 say?", "answer": "", "relevant_text_span": [["5", "5"]]}
        ],
    }
    (folder / "train" / "m1.json").write_text(json.dumps(meeting), encoding="utf-8")
    return folder


def test_formats_are_told_from_the_contents(tmp_path: Path) -> None:
    pairs = write_jsonl(tmp_path / "pairs.jsonl", pair_records())
    corpus = write_jsonl(tmp_path / "corpus.jsonl", [{"_id": "a", "text": "some text"}])
    assert detect_format(pairs) == "pairs"
    assert detect_format(corpus) == "corpus"
    assert detect_format(beir_folder(tmp_path / "beir")) == "beir"
    assert detect_format(beir_folder(tmp_path / "only-corpus", with_queries=False)) == "corpus"
    assert detect_format(meeting_folder(tmp_path / "qmsum")) == "meetings"
    assert detect_format(tmp_path / "qmsum" / "train") == "meetings"
    (tmp_path / "empty").mkdir()
    with pytest.raises(TrainingDataError, match="holds no training data"):
        detect_format(tmp_path / "empty")


def test_pairs_are_read_with_shared_passages(tmp_path: Path) -> None:
    records = [
        {"query": "q one", "positive": "same text", "negatives": ["other"], "scores": [1, 0.2]},
        {"query": "q two", "positives": ["same text"]},
    ]
    data = read_data(write_jsonl(tmp_path / "p.jsonl", records))
    assert len(data.passages) == 2
    first, second = data.examples
    assert first.positives == second.positives
    assert first.judged()[1][1] == 0.2
    assert second.judged() == [(second.positives[0], 1.0)]


def test_beir_skips_queries_without_a_positive_and_counts_them(tmp_path: Path) -> None:
    data = read_data(beir_folder(tmp_path / "beir"))
    assert [e.query_id for e in data.examples] == ["q0", "q1"]
    assert data.skipped == {"queries without a positive": 1}


def test_meeting_windows_hold_the_gold_turns(tmp_path: Path) -> None:
    data = read_data(meeting_folder(tmp_path / "qmsum"))
    assert data.source == "meetings"
    (example,) = data.examples
    assert data.skipped == {"general questions (no gold turns)": 1}
    (positive,) = example.positives
    assert "S1: word" in data.passages[positive].text
    assert {p.group for p in data.passages.values()} == {"m1"}
    assert len(data.passages) == 4  # 600 words in windows of >= 150


def test_windows_cut_at_turn_boundaries() -> None:
    from types import SimpleNamespace

    turns = [SimpleNamespace(index=i, line=f"s: {'w ' * 100}", text="w " * 100) for i in range(3)]
    cut = windows(SimpleNamespace(turns=turns), 150)
    assert [t for _, t in cut] == [(0, 1), (2,)]


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"query": "q", "positive": "a", "negatives": ["b"], "scores": [1.5, 0]}, "outside"),
        ({"query": "q", "positive": "a", "scores": ["high"]}, "not a number"),
        ({"query": "q", "negatives": ["b"]}, "no positive"),
        ({"query": "q", "positive": "a", "negatives": ["a"]}, "both a positive and a negative"),
        ({"query": "q", "positive": "a", "scores": [1, 0]}, "one label per passage"),
        ({"positive": "a"}, "no 'query'"),
    ],
)
def test_bad_pairs_name_the_line_and_the_fix(tmp_path: Path, record: dict, message: str) -> None:
    path = write_jsonl(tmp_path / "bad.jsonl", [{"query": "fine", "positive": "x"}, record])
    with pytest.raises(TrainingDataError, match=message) as caught:
        read_data(path)
    assert "bad.jsonl line 2" in str(caught.value)


def test_not_json_and_missing_paths(tmp_path: Path) -> None:
    (tmp_path / "broken.jsonl").write_text("{not json\n", encoding="utf-8")
    with pytest.raises(TrainingDataError, match="not valid JSON"):
        detect_format(tmp_path / "broken.jsonl")
    with pytest.raises(TrainingDataError, match="does not exist"):
        detect_format(tmp_path / "nowhere")
    (tmp_path / "empty.jsonl").write_text("\n", encoding="utf-8")
    with pytest.raises(TrainingDataError, match="empty"):
        detect_format(tmp_path / "empty.jsonl")


def test_a_missing_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from rerank_plus import MissingExtraError
    from rerank_plus.training.trainer import require_training

    monkeypatch.setitem(sys.modules, "datasets", None)  # import datasets -> ImportError
    with pytest.raises(MissingExtraError, match=r"pip install rerank-plus\[train\]"):
        require_training()
