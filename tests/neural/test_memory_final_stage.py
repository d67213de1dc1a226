"""A memory retriever's final reranker, a real cross-encoder, chooses where a precise answer
sits: the message quoted first and the region the drill-down reads.

The tiny cross-encoder of ``conftest`` scores a text that mentions "marathon" high. The
question's words match other messages better, so the light stage alone quotes one of those.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rerank_plus.cli import main
from rerank_plus.memory import MemoryRetriever, build_memory
from rerank_plus.scoring.cross_encoder import CrossEncoderReranker

from tests.memory.eval_meetings import DESIGN_MEETING

QUESTION = "What did they say about the race in the park?"
ANSWER = "the marathon starts at the park gate in the summer morning"


def _messages() -> list[dict[str, str]]:
    topics = ["museum painting", "school teacher", "train station", "market street"]
    said = []
    for n in range(48):
        text = f"the {topics[n % 4]} and the {topics[(n + 1) % 4]} by the road {n}"
        if n in (5, 17, 29):
            text = f"the race by the park and the park road near the tree {n}"
        if n == 41:
            text = ANSWER
        said.append({"text": text, "speaker": "Ana" if n % 2 else "Ben", "id": f"m{n}"})
    return said


@pytest.fixture(scope="module")
def memory():
    return build_memory(_messages(), window_words=60, min_window_words=30)


def _first_quote(text: str) -> str:
    lines = text.splitlines()
    start = lines.index("Quotes (verbatim messages):")
    return lines[start + 2].split(": ", 1)[1]  # past the quotes' title and the first header


def test_without_a_final_reranker_the_light_stage_quotes_the_question_s_words(memory) -> None:
    context = MemoryRetriever(memory).retrieve(QUESTION, max_tokens=120, intent="detail")
    assert _first_quote(context.text) != ANSWER


def test_the_final_reranker_picks_the_message_quoted_first_and_the_region(
    memory, tiny_cross_encoder_path: Path
) -> None:
    retriever = MemoryRetriever(
        memory, final_reranker=CrossEncoderReranker(str(tiny_cross_encoder_path))
    )
    context = retriever.retrieve(QUESTION, max_tokens=120, intent="detail")
    steps = context.trace.to_dict()["steps"]
    names = [step["step"] for step in steps]
    regions_stage = next(
        s for s in steps if s["step"] == "final_rerank" and s["block"] == "regions"
    )
    assert names.index("final_rerank") < names.index("regions")
    assert regions_stage["scores"][0][0] == "m41"
    regions = next(s for s in steps if s["step"] == "regions")
    assert regions["top"][0][0] == memory.parents("m41")[0].id
    assert _first_quote(context.text) == ANSWER
    assert len(regions_stage["scores"]) <= retriever.final_candidates
    # the final stage orders; the scores stay on the light stage's scale, so the blocks'
    # cutoffs and the order of the quotes' stretches read one scale: the pick takes the best
    light_best = next(s for s in steps if s["step"] == "search" and s["level"] == 0)["top"][0][1]
    first = next(item for item in context.items if item.block == "quotes")
    assert first.id == "m41" and first.score == pytest.approx(light_best)


def test_a_profile_leaves_the_region_to_the_light_stage(
    memory, tiny_cross_encoder_path: Path
) -> None:
    retriever = MemoryRetriever(
        memory,
        final_reranker=CrossEncoderReranker(str(tiny_cross_encoder_path)),
        profile={"memory": {"final_regions": False}},
    )
    context = retriever.retrieve(QUESTION, max_tokens=120, intent="detail")
    stages = [s["block"] for s in context.trace.to_dict()["steps"] if s["step"] == "final_rerank"]
    assert "regions" not in stages and "quotes" in stages


def test_memory_eval_runs_the_policy_with_a_final_reranker(
    tmp_path: Path, tiny_cross_encoder_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "qmsum" / "test"
    data.mkdir(parents=True)
    (data / "design.json").write_text(json.dumps(DESIGN_MEETING))
    arguments = ["memory", "eval", "--data", str(tmp_path / "qmsum"), "--budget", "200"]
    arguments += ["--lexical-only", "--methods", "policy", "--quiet"]
    out = tmp_path / "out"
    final = ["--final-reranker", str(tiny_cross_encoder_path)]
    assert main([*arguments, *final, "--output", str(out)]) == 0
    records = json.loads((out / "results.json").read_text())["records"]
    assert {r["kind"] for r in records} == {"specific", "general"}
    assert all(r["words"] > 0 for r in records)
    capsys.readouterr()
    assert main([*arguments, "--final-reranker", str(tmp_path / "no-model")]) == 2
    assert "rerank-plus memory: error:" in capsys.readouterr().err
