"""The AutoMergingRetriever baseline: LlamaIndex's own classes, found through the plugin
group the core reads, filling at most its words."""

from __future__ import annotations

from pathlib import Path

import pytest
from rerank_plus.evaluation.memory import methods as registry
from rerank_plus.evaluation.memory.embeddings import EmbeddingCache
from rerank_plus.evaluation.memory.folding import fold
from rerank_plus.evaluation.memory.views import Resources
from rerank_plus.memory.model.sentences import word_count

from tests.memory.eval_meetings import hashed_words, long_meeting

SPEC = "llamaindex_rerank_plus.memory_baseline:AutoMergingBaseline"


def test_pyproject_declares_the_plugin_in_the_group_the_core_reads():
    tomllib = pytest.importorskip("tomllib")
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    group = pyproject["project"]["entry-points"][registry.PLUGIN_GROUP]
    assert group == {"automerging": SPEC}


def test_a_method_named_by_a_missing_object_says_how_to_fix():
    resources = Resources(hashed_words)
    with pytest.raises(ValueError, match="the 'json:nothing' baseline cannot be loaded"):
        registry.create(["json:nothing"], resources)


@pytest.mark.slow
def test_automerging_fills_its_words_from_the_transcript_with_merged_parents():
    pytest.importorskip("llama_index.core")
    meeting = long_meeting(400)
    resources = Resources(EmbeddingCache(hashed_words))
    (method,) = registry.create([SPEC], resources)[1]
    assert method.name == "automerging"
    index = method.meeting_index(meeting)
    transcript = fold(meeting.transcript)
    for words in (30, 300, 3000):
        text = method.context(meeting, meeting.queries[1], words)
        assert word_count(text) == words
        for piece in text.split("\n\n")[:-1]:  # the last one may be cut
            assert fold(piece) in transcript
    # many leaves of one parent retrieved: the parent (a 512-token chunk) comes back whole
    pieces = index.retrieve("the logo", len(index.leaves))
    assert max(map(word_count, pieces)) > 2 * index.leaf_words
