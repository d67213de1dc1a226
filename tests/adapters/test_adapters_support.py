"""What both adapters share: ready classes are their kind's options as fields, copies are theirs."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest
from langchain_core.documents import Document
from llama_index.core.schema import NodeWithScore, TextNode
from rerank_plus.adapters_support import first_stage_scores
from rerank_plus.compose.presets import KINDS

import langchain_rerank_plus
import llamaindex_rerank_plus

FRAMEWORKS = {
    langchain_rerank_plus: langchain_rerank_plus.RerankPlusCompressor,
    llamaindex_rerank_plus: llamaindex_rerank_plus.RerankPlusPostprocessor,
}


@pytest.mark.parametrize("package", FRAMEWORKS, ids=lambda p: p.__name__)
@pytest.mark.parametrize("name", ["BM25Rerank", "CrossEncoderRerank", "BiEncoderRerank"])
def test_ready_classes_declare_exactly_the_options_their_reranker_is_built_from(package, name):
    ready = getattr(package, name)
    kind = KINDS[ready.reranker_kind]
    assert kind.ready_class == name and ready.__doc__ == kind.summary
    own_fields = {
        n: f for n, f in ready.model_fields.items() if n not in FRAMEWORKS[package].model_fields
    }
    assert list(own_fields) == list(kind.option_names)
    object_type = FRAMEWORKS[package].model_objects.get(kind.name)
    for option in kind.options:  # typed, with the kind's default and help
        field = own_fields[option.name]
        typed = option.type
        if option.name == "model" and object_type is not None:
            typed = option.type | object_type  # a framework model object, or a name
        assert (field.annotation, field.default, field.description) == (
            typed,
            option.default,
            option.help,
        )


def test_the_shared_helpers_import_no_framework_and_no_pydantic():
    code = (
        "import sys, rerank_plus.adapters_support\n"
        "heavy = ('llama_index', 'langchain', 'langchain_core', 'pydantic', 'torch')\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in heavy)))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert loaded.stdout.strip() == ""


def test_first_stage_scores_only_when_every_candidate_has_a_number():
    assert first_stage_scores([0.5, 2]) == [0.5, 2.0]
    assert first_stage_scores([0.5, None]) is None
    assert first_stage_scores([0.5, "high"]) is None
    assert first_stage_scores([True, 0.5]) is None  # a flag is not a score
    assert first_stage_scores([]) == []


def test_changing_a_langchain_copy_never_reaches_the_input():
    documents = [
        Document(page_content=t, metadata={"tags": ["a"], "n": i}, id=str(i))
        for i, t in enumerate(["cats", "marathon"])
    ]
    compressor = langchain_rerank_plus.BM25Rerank(top_n=None, explain=True)
    for out in (
        compressor.compress_documents(documents, "marathon"),
        asyncio.run(compressor.acompress_documents(documents, "marathon")),
    ):
        out[0].metadata["tags"].append("changed")
        out[0].metadata["n"] = -1
        assert [d.metadata for d in documents] == [{"tags": ["a"], "n": 0}, {"tags": ["a"], "n": 1}]


def test_changing_a_llamaindex_copy_never_reaches_the_input():
    nodes = [
        NodeWithScore(node=TextNode(text=t, metadata={"tags": ["a"], "n": i}, id_=str(i)), score=s)
        for i, (t, s) in enumerate([("cats", 0.9), ("marathon", 0.1)])
    ]
    postprocessor = llamaindex_rerank_plus.BM25Rerank(top_n=None, keep_retrieval_score=True)
    for out in (
        postprocessor.postprocess_nodes(nodes, query_str="marathon"),
        asyncio.run(postprocessor.apostprocess_nodes(nodes, query_str="marathon")),
    ):
        out[0].node.metadata["tags"].append("changed")
        out[0].score = 0.0
        assert [n.node.metadata for n in nodes] == [
            {"tags": ["a"], "n": 0},
            {"tags": ["a"], "n": 1},
        ]
        assert [n.score for n in nodes] == [0.9, 0.1]
