"""The Semantic Kernel plugin and reranked search with real Semantic Kernel objects: a kernel, its
function invocation, an in-memory vector store collection of xquad-en embedded with MiniLM."""

from __future__ import annotations

import asyncio
import copy
import pickle
import sys
import types
from dataclasses import dataclass
from typing import Any

import pytest

pytest.importorskip("semantic_kernel")

import numpy as np
from rerank_plus import BM25Reranker, FusionReranker, Pipeline
from rerank_plus.combine.boosts import PriorBoost
from rerank_plus.compose.presets import KINDS
from semantic_kernel import Kernel
from semantic_kernel.connectors.ai.embedding_generator_base import EmbeddingGeneratorBase
from semantic_kernel.connectors.in_memory import InMemoryCollection
from semantic_kernel.data.text_search import TextSearchResult
from semantic_kernel.data.vector import (
    VectorSearchResult,
    VectorStoreCollectionDefinition,
    VectorStoreField,
)
from semantic_kernel.exceptions import KernelInvokeException

from semantic_kernel_rerank_plus import (
    BiEncoderRerank,
    BM25Rerank,
    CrossEncoderRerank,
    RankedDocument,
    RerankedSearch,
    RerankPlugin,
)
from tests.adapters.conftest import TOP_K, Collection, MiniLM
from tests.adapters.test_adapter_docs import python_blocks
from tests.adapters.test_reranker_kinds import TEXTS as KIND_TEXTS
from tests.adapters.test_reranker_kinds import presence, presence_kind  # noqa: F401 (a fixture)


@dataclass
class Passage:
    """A record type as Semantic Kernel users write them; its fields are declared below (the
    decorator form reads annotations, which ``from __future__ import annotations`` defers)."""

    id: str
    content: str
    level: str = "L1"
    embedding: list[float] | str | None = None


PASSAGE = VectorStoreCollectionDefinition(
    collection_name="passages",
    fields=[
        VectorStoreField("key", name="id", type="str"),
        VectorStoreField("data", name="content", type="str"),
        VectorStoreField("data", name="level", type="str"),
        VectorStoreField("vector", name="embedding", type="float", dimensions=384),
    ],
)


class SharedMiniLM(EmbeddingGeneratorBase):
    """Semantic Kernel's embedding interface over the session's MiniLM and its cache."""

    minilm: Any

    async def generate_embeddings(self, texts: list[str], settings=None, **kwargs) -> np.ndarray:
        return np.asarray(self.minilm.embed(texts))


async def filled(minilm: MiniLM, passages: dict[str, str], **levels: str) -> InMemoryCollection:
    collection = InMemoryCollection(
        record_type=Passage,
        definition=PASSAGE,
        embedding_generator=SharedMiniLM(ai_model_id="all-MiniLM-L6-v2", minilm=minilm),
    )
    await collection.ensure_collection_exists()
    # Semantic Kernel's way: the text goes in the vector field, upsert embeds it.
    await collection.upsert(
        [
            Passage(id=i, content=text, level=levels.get(i, "L1"), embedding=text)
            for i, text in passages.items()
        ]
    )
    return collection


@pytest.fixture(scope="session")
def xquad_collection(xquad_en: Collection, minilm: MiniLM) -> InMemoryCollection:
    return asyncio.run(filled(minilm, xquad_en.passages))


async def first_stage(collection: InMemoryCollection, query: str) -> list[VectorSearchResult]:
    found = await collection.search(query, top=TOP_K)
    return [result async for result in found.results]


async def listed(search, query: str, **options: Any) -> list[Any]:
    found = await search.search(query, **options)
    return [item async for item in found.results]


@pytest.mark.slow
async def test_reranking_the_collection_top_20_puts_more_answers_first(xquad_en, xquad_collection):
    reranked = RerankedSearch(
        xquad_collection, BM25Reranker(), text_property_name="content", candidates=TOP_K
    )
    dense_hits = rerank_hits = 0
    for query_id, query in xquad_en.queries.items():
        answer = xquad_en.relevant[query_id]
        dense_hits += (await first_stage(xquad_collection, query))[0].record.id == answer
        best = await listed(reranked, query, output_type="Any", top=1)
        rerank_hits += best[0].record.id == answer
    print(
        f"semantic kernel top-1 hits over {len(xquad_en.queries)} queries:", dense_hits, rerank_hits
    )
    assert rerank_hits > dense_hits, (rerank_hits, dense_hits)


@pytest.mark.slow
async def test_search_and_kernel_functions_give_the_core_sync_order(xquad_en, xquad_collection):
    """The async paths (a worker thread) agree with the core's sync rank on the same candidates:
    the reranked search in each output type, its kernel function, and the plugin's."""
    core = BM25Reranker()
    reranked = RerankedSearch(xquad_collection, core, text_property_name="content")
    kernel = Kernel()
    kernel.add_plugin(RerankPlugin(reranker=core, top_n=None), plugin_name="rerank")
    kernel.add_function(
        "passages", reranked.create_search_function("search", output_type="str", top=TOP_K)
    )
    for query in list(xquad_en.queries.values())[:8]:
        candidates = await first_stage(xquad_collection, query)
        texts = [c.record.content for c in candidates]
        expected = core.rank(query, texts)
        expected_ids = [candidates[r.index].record.id for r in expected]

        results = await listed(reranked, query, output_type="Any", top=TOP_K)
        assert [r.record.id for r in results] == expected_ids
        assert [r.score for r in results] == [r.relevance_score for r in expected]
        for result, ranked in zip(results, expected, strict=True):  # the records, unchanged
            assert result.record == candidates[ranked.index].record
        named = await listed(reranked, query, output_type=TextSearchResult, top=TOP_K)
        assert [r.name for r in named] == expected_ids
        assert await listed(reranked, query, top=TOP_K) == [texts[r.index] for r in expected]

        searched = await kernel.invoke(plugin_name="passages", function_name="search", query=query)
        assert searched.value == [texts[r.index] for r in expected]
        plugin = await kernel.invoke(
            plugin_name="rerank", function_name="rerank", query=query, documents=texts
        )
        assert [(d.index, d.relevance_score, d.score) for d in plugin.value] == [
            (r.index, r.relevance_score, r.score) for r in expected
        ]


@pytest.mark.slow
async def test_the_collection_distance_reaches_a_fusion_reranker_as_higher_is_better(
    xquad_en, xquad_collection
):
    """The in-memory collection returns cosine distances (lower is better); a fusion weighing
    only the first stage must give back the collection's own order, not its reverse."""
    vector_only = FusionReranker(BM25Reranker(), method="weighted", alpha=0.0)
    reranked = RerankedSearch(xquad_collection, vector_only, text_property_name="content")
    for query in list(xquad_en.queries.values())[:3]:
        candidates = await first_stage(xquad_collection, query)
        assert candidates[0].score < candidates[-1].score  # a distance
        got = await listed(reranked, query, output_type="Any", top=TOP_K)
        assert [r.record.id for r in got] == [c.record.id for c in candidates]


@pytest.fixture(scope="module")
def small_collection(minilm_path: str) -> InMemoryCollection:
    minilm = MiniLM(minilm_path)
    passages = {
        "a": "Regular interval sessions make runners faster.",
        "b": "Marathon registration opens in March.",
        "c": "Die Häuser in der Altstadt wurden renoviert.",
        "d": "Marathon registration opens in March.",  # a tie with b
    }
    return asyncio.run(filled(minilm, passages, d="L3"))


async def test_record_fields_reach_a_boost_and_ties_keep_the_first_stage_order(small_collection):
    plain = RerankedSearch(small_collection, BM25Reranker(), text_property_name="content")
    first = [r.record.id for r in await first_stage(small_collection, "marathon registration")]
    tied = [i for i in first if i in "bd"]
    got = await listed(plain, "marathon registration", output_type="Any", top=2)
    assert [r.record.id for r in got] == tied
    boosted = Pipeline(BM25Reranker(), boosts=[PriorBoost("level", {"L3": 2.0})])
    search = RerankedSearch(small_collection, boosted, text_property_name="content")
    got = await listed(search, "marathon registration", output_type="Any", top=2)
    assert [r.record.id for r in got] == ["d", "b"]


async def test_top_skip_threshold_and_total_count(small_collection):
    search = RerankedSearch(small_collection, BM25Reranker(), text_property_name="content")
    everything = await listed(search, "marathon registration", output_type=TextSearchResult)
    assert len(everything) == 4
    page = await search.search("marathon registration", output_type=TextSearchResult, top=1, skip=1)
    assert [r async for r in page.results] == everything[1:2]
    strict = search.model_copy(update={"threshold": 0.01})
    counted = await strict.search("marathon registration", include_total_count=True)
    assert counted.total_count == 2
    assert len([r async for r in counted.results]) == 2


async def test_a_reranked_search_over_a_reranked_search_reads_text_search_results(
    small_collection,
):
    """RerankedSearch is a TextSearch, so it can be the first stage too (a cascade)."""
    inner = RerankedSearch(small_collection, BM25Reranker(), text_property_name="content")
    boosted = Pipeline(BM25Reranker(), boosts=[PriorBoost("name", {"d": 2.0})])
    outer = RerankedSearch(inner, boosted, candidates=3)
    got = await listed(outer, "marathon registration", output_type=TextSearchResult, top=2)
    assert [r.name for r in got] == ["d", "b"]
    assert await listed(outer, "marathon registration", top=1) == [got[0].value]
    with pytest.raises(ValueError, match="set text_property_name to the field that holds"):
        await listed(outer, "marathon", output_type="Any")


async def test_empty_collection_and_empty_or_odd_queries(small_collection):
    empty = InMemoryCollection(
        record_type=Passage,
        definition=PASSAGE,
        embedding_generator=small_collection.embedding_generator,
    )
    await empty.ensure_collection_exists()
    search = RerankedSearch(empty, BM25Reranker(), text_property_name="content")
    assert await listed(search, "marathon") == []
    full = RerankedSearch(small_collection, BM25Reranker(), text_property_name="content")
    for query in ("🙂🙂", "   "):  # no words: every score 0, the first stage's order stays
        got = await listed(full, query, output_type="Any", top=4)
        first = await first_stage(small_collection, query)
        assert [r.record.id for r in got] == [r.record.id for r in first]
        assert len(got) == 4 and {r.score for r in got} == {0.0}
    # A German question with an English word: each passage is matched in its own language.
    mixed = await listed(full, "Welche Häuser? marathon", output_type=TextSearchResult, top=3)
    assert [r.name for r in mixed] == ["c", "b", "d"]


async def test_bad_search_input_is_a_clear_error(small_collection):
    with pytest.raises(ValueError, match="not a data field of the collection; set it to the one "):
        RerankedSearch(small_collection, BM25Reranker())
    with pytest.raises(ValueError, match=r"'content', 'level'"):
        RerankedSearch(small_collection, BM25Reranker(), text_property_name="text")
    with pytest.raises(TypeError, match="first_stage must be a Semantic Kernel vector store"):
        RerankedSearch(["a", "b"], BM25Reranker())
    with pytest.raises(TypeError, match="reranker must be a rerank_plus Reranker"):
        RerankedSearch(small_collection, "bm25", text_property_name="content")
    with pytest.raises(ValueError, match="Extra inputs are not permitted"):
        RerankedSearch(small_collection, BM25Reranker(), text_property_name="content", topn=3)
    search = RerankedSearch(small_collection, BM25Reranker(), text_property_name="content")
    with pytest.raises(TypeError, match="query must be a str, got NoneType"):
        await search.search(None)
    with pytest.raises(ValueError, match="top must be an int >= 1, got 0"):
        await search.search("marathon", top=0)
    with pytest.raises(ValueError, match="skip must be an int >= 0, got -1"):
        await search.search("marathon", skip=-1)
    with pytest.raises(ValueError, match="output_type must be str, TextSearchResult or 'Any'"):
        await search.search("marathon", output_type=dict)


# The plugin on its own: kernel functions over texts and records.

TEXTS = ["cats sleep", "marathon training plan", "", "🙂", "marathon", "marathon"]


def test_ready_classes_declare_their_kind_options_and_round_trip():
    for ready in (BM25Rerank, CrossEncoderRerank, BiEncoderRerank):
        kind = KINDS[ready.reranker_kind]
        own = [n for n in ready.model_fields if n not in RerankPlugin.model_fields]
        assert own == list(kind.option_names) and ready.__doc__ == kind.summary
    plugin = BM25Rerank(top_n=4, k1=1.2, threshold=0.2)
    rebuilt = BM25Rerank.model_validate_json(plugin.model_dump_json())
    assert rebuilt.model_dump() == plugin.model_dump()
    assert rebuilt.reranker.k1 == 1.2
    assert pickle.loads(pickle.dumps(plugin)).reranker.k1 == 1.2
    cross = CrossEncoderRerank(model="some/cross-encoder", batch_size=8)
    assert cross.reranker.batch_size == 8  # built, not loaded: models load on first use
    import semantic_kernel_rerank_plus

    with pytest.raises(ImportError, match="NotAKindRerank"):
        exec("from semantic_kernel_rerank_plus import NotAKindRerank")
    assert {"BM25Rerank", "RerankPlugin", "RerankedSearch"} <= set(
        semantic_kernel_rerank_plus.__all__
    )


@pytest.mark.usefixtures("presence_kind")
async def test_a_kind_registered_once_is_a_ready_plugin_too():
    import semantic_kernel_rerank_plus

    plugin = semantic_kernel_rerank_plus.BM25PresenceRerank(b=0.0, top_n=None)
    expected = [r.index for r in presence(b=0.0).rank("marathon training", KIND_TEXTS)]
    assert [d.index for d in await plugin.rerank("marathon training", KIND_TEXTS)] == expected
    assert semantic_kernel_rerank_plus.BM25PresenceRerank.reranker_kind == "bm25-presence"


async def test_the_plugin_through_the_kernel_keeps_metadata_and_never_mutates():
    kernel = Kernel()
    plugin = kernel.add_plugin(BM25Rerank(top_n=2, explain=True), plugin_name="rerank")
    assert set(plugin.functions) == {"rerank", "rerank_records"}
    records = [{"text": t, "id": i, "tags": ["x"]} for i, t in enumerate(TEXTS)]
    before = copy.deepcopy(records)
    result = await kernel.invoke(
        plugin_name="rerank", function_name="rerank_records", query="marathon", records=records
    )
    kept: list[RankedDocument] = result.value
    assert [(d.index, d.text, d.metadata["id"]) for d in kept] == [
        (4, "marathon", 4),
        (5, "marathon", 5),  # equal texts: input order
    ]
    assert records == before
    kept[0].metadata["tags"].append("changed")  # a deep copy: the caller's record is untouched
    assert records == before
    assert kept[0].metadata["rerank_explanation"]["matched_terms"].keys() == {"marathon"}


async def test_ties_empty_texts_top_n_and_threshold():
    plugin = RerankPlugin(reranker=BM25Reranker(), top_n=None)
    out = await plugin.rerank("marathon", TEXTS)
    assert [d.index for d in out] == [4, 5, 1, 0, 2, 3]  # ties (and no words) in input order
    assert [d.relevance_score for d in out][3:] == [0.0, 0.0, 0.0]
    assert [d.index for d in await plugin.rerank("marathon", TEXTS, top_n=1)] == [4]
    strict = RerankPlugin(reranker=BM25Reranker(), top_n=None, threshold=0.01)
    assert {d.index for d in await strict.rerank("marathon", TEXTS)} == {1, 4, 5}
    assert await plugin.rerank("marathon", []) == []
    assert await plugin.rerank_records("marathon", []) == []


async def test_many_long_and_mixed_language_documents():
    documents = [f"passage {i} about rivers" for i in range(400)]
    documents[321] = "Die Häuser wurden renoviert; the houses were renovated " * 2000
    documents[7] = "马拉松训练计划 marathon"
    plugin = RerankPlugin(reranker=BM25Reranker(), top_n=3)
    out = await plugin.rerank("renovated houses", documents)
    assert out[0].index == 321
    assert (await plugin.rerank("marathon", documents))[0].index == 7


async def test_async_runs_the_reranker_off_the_event_loop(thread_recording_bm25):
    plugin = RerankPlugin(reranker=thread_recording_bm25, top_n=2)
    sync = thread_recording_bm25.rank("marathon training", TEXTS, top_n=2)
    out = await plugin.rerank("marathon training", TEXTS)
    assert [(d.index, d.relevance_score) for d in out] == [
        (r.index, r.relevance_score) for r in sync
    ]
    assert thread_recording_bm25.ran_sync_then_in_a_worker()


async def test_bad_plugin_input_is_a_clear_error():
    with pytest.raises(ValueError, match=r"pass one, RerankPlugin\(reranker=BM25Reranker\(\)\)"):
        RerankPlugin()
    with pytest.raises(TypeError, match="reranker must be a rerank_plus Reranker"):
        RerankPlugin(reranker="bm25")
    with pytest.raises(ValueError, match="Extra inputs are not permitted"):
        BM25Rerank(topn=3)
    plugin = BM25Rerank()
    with pytest.raises(TypeError, match="Wrap a single document in a list"):
        await plugin.rerank("q", "one text")
    with pytest.raises(TypeError, match=r"documents\[1\] is NoneType, not str"):
        await plugin.rerank("q", ["a", None])
    with pytest.raises(TypeError, match="query must be a str"):
        await plugin.rerank(None, ["a"])
    with pytest.raises(ValueError, match="top_n must be a positive int or None, got 0"):
        await plugin.rerank("q", ["a"], top_n=0)
    with pytest.raises(TypeError, match=r"records\[1\] is str, not a dict"):
        await plugin.rerank_records("q", [{"text": "a"}, "b"])
    with pytest.raises(ValueError, match=r"records\[0\] has no 'text' key \(it has 'body'\)"):
        await plugin.rerank_records("q", [{"body": "a"}])
    with pytest.raises(TypeError, match=r"records\[0\]\['text'\] is int, not str"):
        await plugin.rerank_records("q", [{"text": 3}])
    with pytest.raises(TypeError, match="records must be a list of dicts, got dict"):
        await plugin.rerank_records("q", {"text": "a"})
    assert [
        d.index for d in await BM25Rerank(text_key="body").rerank_records("a", [{"body": "a"}])
    ] == [0]
    kernel = Kernel()
    kernel.add_plugin(plugin, plugin_name="rerank")
    with pytest.raises(KernelInvokeException) as raised:  # the kernel checks the declared types
        await kernel.invoke(
            plugin_name="rerank", function_name="rerank", query="q", documents="one text"
        )
    assert "Parameter documents is expected to be parsed to list[str]" in str(
        raised.value.__cause__
    )


@pytest.mark.slow
def test_the_documentation_example_runs(minilm_path: str, monkeypatch) -> None:
    """Run as a module of its own: its dataclass looks its module up in sys.modules."""
    blocks = python_blocks("semantic-kernel.md")
    assert blocks, "docs/semantic-kernel.md has no python example"
    for block in blocks:
        module = types.ModuleType("semantic_kernel_docs_example")
        monkeypatch.setitem(sys.modules, module.__name__, module)
        code = compile(block, "semantic-kernel.md", "exec", dont_inherit=True)  # no __future__
        exec(code, module.__dict__)
