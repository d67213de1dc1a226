"""A real LlamaIndex ``SimilarityPostprocessor`` after the memory retriever: a cutoff that keeps
the question's matches keeps the drilled stretch around them (its quiet messages carried score
0 and were dropped)."""

from __future__ import annotations

from llama_index.core.postprocessor import SimilarityPostprocessor
from llama_index.core.schema import QueryBundle
from rerank_plus.memory import build_memory

from llamaindex_rerank_plus.memory import MemoryNodeRetriever

MESSAGES = [
    "Ana: the catering for the offsite is settled.",
    "Ben: good, and the chairs arrive on Monday.",
    "Ana: the venue deposit is 900 euros, due Friday.",
    "Ben: fine, I will tell finance today.",
    "Ana: and the projector comes from our office.",
    *(f"Cleo: note {n} about shelf {n * 3} and crate {n * 7}." for n in range(30)),
]


def test_a_cutoff_at_the_weakest_match_keeps_the_whole_context() -> None:
    memory = build_memory(MESSAGES, window_words=40)
    retriever = MemoryNodeRetriever(memory, max_tokens=200, intent="detail")
    nodes = retriever.retrieve("venue deposit")
    matched = [n.score for n in nodes if "venue" in n.node.get_content()]
    assert len(nodes) > len(matched) > 0  # the answer's neighbours came with it
    cutoff = SimilarityPostprocessor(similarity_cutoff=min(matched))
    kept = cutoff.postprocess_nodes(nodes, query_bundle=QueryBundle("venue deposit"))
    assert [n.node.node_id for n in kept] == [n.node.node_id for n in nodes]
