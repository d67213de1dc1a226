"""Reranker kinds are declared once: one registration reaches from_config, the command line and
both adapters' ready classes, typed, and serializable."""

from __future__ import annotations

import inspect
import json
import pickle
from collections.abc import Iterator

import pytest
from langchain_core.documents import Document
from llama_index.core.schema import NodeWithScore, TextNode
from pydantic import ValidationError
from rerank_plus import BM25Reranker, from_config
from rerank_plus import adapters_support as support
from rerank_plus.cli import main
from rerank_plus.compose.presets import KINDS, Option, build_reranker, register_kind
from rerank_plus.scoring.bi_encoder import BiEncoderReranker
from rerank_plus.scoring.bm25 import BM25Reranker as BM25Class
from rerank_plus.scoring.cross_encoder import CrossEncoderReranker

import langchain_rerank_plus
import llamaindex_rerank_plus

CLASSES = {
    "bm25": BM25Class,
    "cross-encoder": CrossEncoderReranker,
    "bi-encoder": BiEncoderReranker,
}
NOT_SERIALIZABLE = {"self", "analyzer"}  # objects, not settings a configuration can hold


@pytest.mark.parametrize("name", list(CLASSES))
def test_each_built_in_kind_declares_every_setting_of_its_reranker(name: str) -> None:
    parameters = inspect.signature(CLASSES[name].__init__).parameters
    settings = [p for p in parameters if p not in NOT_SERIALIZABLE]
    kind = KINDS[name]
    assert sorted(kind.option_names) == sorted(settings)
    for option in kind.options:  # same default, or None: "the reranker picks"
        assert option.default in (parameters[option.name].default, None), option.name


def presence(**options: object) -> BM25Reranker:
    """BM25 that counts a term once however often it occurs (k1 = 0): a real, different kind."""
    return BM25Reranker(k1=0.0, **options)  # type: ignore[arg-type]


@pytest.fixture
def presence_kind(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr(support, "_READY", {})
    register_kind(
        "bm25-presence",
        presence,
        options=(
            Option("b", float, 0.75, "BM25 length normalization."),
            Option("language", str | None, None, "Force one ISO 639-1 language."),
        ),
        ready_class="BM25PresenceRerank",
        summary="BM25 on term presence.",
    )
    yield "bm25-presence"
    del KINDS["bm25-presence"]


TEXTS = ["training", "marathon marathon marathon marathon", "cats"]  # presence ties 0 and 1


def test_one_registration_reaches_configurations_adapters_and_the_command_line(
    presence_kind: str, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = [r.index for r in presence(b=0.0).rank("marathon training", TEXTS)]
    assert expected != [r.index for r in BM25Reranker(b=0.0).rank("marathon training", TEXTS)]

    pipeline = from_config({"reranker": {"provider": presence_kind, "b": 0.0}})
    assert [r.index for r in pipeline.rank("marathon training", TEXTS)] == expected

    compressor = langchain_rerank_plus.BM25PresenceRerank(b=0.0, top_n=None)
    documents = [Document(page_content=t, id=str(i)) for i, t in enumerate(TEXTS)]
    out = compressor.compress_documents(documents, "marathon training")
    assert [int(d.id) for d in out] == expected

    postprocessor = llamaindex_rerank_plus.BM25PresenceRerank(b=0.0, top_n=None)
    nodes = [NodeWithScore(node=TextNode(text=t, id_=str(i))) for i, t in enumerate(TEXTS)]
    reranked = postprocessor.postprocess_nodes(nodes, query_str="marathon training")
    assert [int(n.node.node_id) for n in reranked] == expected
    assert postprocessor.to_dict()["class_name"] == "RerankPlusBM25PresenceRerank"

    path = tmp_path / "candidates.txt"
    path.write_text("\n".join(TEXTS), encoding="utf-8")
    arguments = ["rank", "-q", "marathon training", "--reranker", presence_kind, "-o", "b=0"]
    assert main([*arguments, str(path)]) == 0
    assert [r["index"] for r in json.loads(capsys.readouterr().out)["results"]] == expected


def test_a_registered_name_or_ready_class_cannot_be_taken_twice(presence_kind: str) -> None:
    with pytest.raises(ValueError, match="'bm25-presence' is already registered"):
        register_kind(presence_kind, presence, options=(), ready_class="Other", summary="")
    with pytest.raises(ValueError, match="'BM25Rerank' is already taken"):
        register_kind("other", presence, options=(), ready_class="BM25Rerank", summary="")


@pytest.mark.parametrize("package", [langchain_rerank_plus, llamaindex_rerank_plus])
def test_ready_classes_are_one_class_each_listed_and_typed(package) -> None:
    assert package.BM25Rerank is package.BM25Rerank
    assert package.BM25Rerank.__module__ == package.__name__
    assert {"BM25Rerank", "BiEncoderRerank", "CrossEncoderRerank"} <= set(package.__all__)
    assert "BM25Rerank" in dir(package)
    with pytest.raises(ImportError, match="NotAKindRerank"):
        exec(f"from {package.__name__} import NotAKindRerank")
    with pytest.raises(ValidationError, match="k1"):
        package.BM25Rerank(k1="high")
    schema = package.CrossEncoderRerank.model_json_schema()["properties"]
    assert schema["batch_size"]["type"] == "integer"
    assert schema["batch_size"]["description"] == "Pairs per forward pass."


@pytest.mark.parametrize("package", [langchain_rerank_plus, llamaindex_rerank_plus])
def test_ready_classes_pickle(package) -> None:
    ready = package.BM25Rerank(k1=1.2, top_n=2)
    copy = pickle.loads(pickle.dumps(ready))
    assert type(copy) is package.BM25Rerank
    assert copy.reranker.k1 == 1.2


def test_options_are_checked_by_name_and_parsed_by_type() -> None:
    with pytest.raises(ValueError, match="Unknown option 'speed' for reranker 'bm25'; valid"):
        build_reranker("bm25", speed=2)
    with pytest.raises(ValueError, match="Unknown reranker 'mixedbread'; choose one of "):
        build_reranker("mixedbread")
    cross = KINDS["cross-encoder"]
    assert cross.option("max_length").parse("none") is None
    assert cross.option("max_length").parse("256") == 256
    assert cross.option("half_precision").parse("no") is False
    assert cross.option("long_documents").parse("max_passage") == "max_passage"
    with pytest.raises(ValueError, match=r"option batch_size takes int, got '3\.5'"):
        cross.option("batch_size").parse("3.5")
    with pytest.raises(ValueError, match="option half_precision takes bool, got 'maybe'"):
        cross.option("half_precision").parse("maybe")
    with pytest.raises(ValueError, match="Unknown option 'k' for reranker 'bm25'"):
        KINDS["bm25"].option("k")


def test_command_line_kind_arguments_say_what_is_wrong(tmp_path, capsys) -> None:
    path = tmp_path / "candidates.txt"
    path.write_text("cats\n", encoding="utf-8")
    cases = [
        (["-o", "k1"], "give NAME=VALUE"),
        (["-o", "k1=abc"], "option k1 takes float, got 'abc'"),
        (["-o", "k1=🙂"], "option k1 takes float, got '🙂'"),
        (["-o", "k1=1e400"], "option k1 takes float, got '1e400'"),
        (["-o", "=3"], "Unknown option '' for reranker 'bm25'; valid options: k1, b, language"),
        (["--reranker", "bi-encoder", "--lang", "en"], "bi-encoder has none"),
        (["--config", "detail", "-o", "k1=1"], "put --reranker and --option in it"),
    ]
    for arguments, message in cases:
        assert main(["rank", "-q", "cats", *arguments, str(path)]) == 2
        assert message in capsys.readouterr().err
