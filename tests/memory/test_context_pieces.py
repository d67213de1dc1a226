"""A composed context cut into droppable pieces: the cut joins back into the text, whatever the
question, the budget or the intent; shedding keeps the overview longest."""

from __future__ import annotations

from dataclasses import replace

import pytest
from rerank_plus.memory import MemoryRetriever, build_memory
from rerank_plus.memory.context.pieces import (
    SHED_ORDER,
    ContextPiece,
    context_pieces,
    join_pieces,
    shed,
)
from rerank_plus.selection.budget import approximate_tokens

from tests.adapters.memory_meeting import TURNS, turn_time

QUESTIONS = [
    "What selling price did Ana set?",
    "Summarize the meeting",
    "What did Chloe say about the battery?",
    "What was decided?",
    "Who builds the prototype, and by when?",
]


@pytest.fixture(scope="module")
def retriever() -> MemoryRetriever:
    messages = [
        {"speaker": speaker, "text": text, "time": turn_time(n).isoformat()}
        for n, (speaker, text) in enumerate(TURNS * 4)
    ]
    return MemoryRetriever(build_memory(messages))


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("intent", [None, "synthesis", "detail"])
def test_the_pieces_join_back_into_the_text(retriever, question, intent):
    for budget in (60, 150, 400, 900):
        context = retriever.retrieve(question, max_tokens=budget, intent=intent)
        pieces = context_pieces(context)
        assert join_pieces(pieces) == context.text
        assert {p.block for p in pieces} == {entry.block for entry in context.items}
        headers = sum(line.startswith("[L") for line in context.text.splitlines())
        assert len(pieces) == headers  # a piece per summary line and per stretch of quotes


def test_each_piece_starts_at_a_header_and_scores_its_best_item(retriever):
    context = retriever.retrieve("Summarize the meeting", max_tokens=400, intent="synthesis")
    pieces = context_pieces(context)
    for piece in pieces:
        assert piece.text.startswith("[L") and piece.block in SHED_ORDER
        assert piece.score in {entry.score for entry in context.items if entry.block == piece.block}


def test_shed_drops_quotes_then_extracts_then_the_overview(retriever):
    context = retriever.retrieve("Summarize the meeting", max_tokens=400, intent="synthesis")
    pieces = context_pieces(context)
    assert {"overview", "extracts", "quotes"} <= {p.block for p in pieces}
    total = approximate_tokens(context.text)
    previous = pieces
    for asked in range(0, total + 1, 5):
        kept = shed(pieces, asked, approximate_tokens)
        assert set(kept) <= set(previous) or asked == 0  # more asked never keeps more
        assert total - approximate_tokens(join_pieces(kept)) >= asked or not kept
        ranks = [SHED_ORDER.index(p.block) for p in pieces if p not in kept]
        kept_ranks = [SHED_ORDER.index(p.block) for p in kept]
        assert not ranks or not kept_ranks or max(ranks) <= min(kept_ranks)
        previous = kept
    assert shed(pieces, 0, approximate_tokens) == pieces
    assert shed(pieces, total + 1, approximate_tokens) == []


def test_the_weakest_quote_goes_first():
    pieces = [
        ContextPiece("quotes", "[L0 #1]\nAna: strong", 0.9),
        ContextPiece("quotes", "[L0 #7]\nBen: weak", 0.1),
        ContextPiece("quotes", "[L0 #4]\nCleo: middling", 0.5),
    ]
    assert shed(pieces, 1, approximate_tokens) == [pieces[0], pieces[2]]


def test_an_empty_context_has_no_pieces():
    context = MemoryRetriever(build_memory([])).retrieve("anything", max_tokens=100)
    assert context_pieces(context) == [] and join_pieces([]) == ""


def test_a_text_laid_out_otherwise_comes_back_coarser_never_wrong(retriever):
    context = retriever.retrieve("Summarize the meeting", max_tokens=400, intent="synthesis")
    renumbered = replace(context, text=context.text.replace("[L0 #", "[L0 no. "))
    by_block = context_pieces(renumbered)
    assert join_pieces(by_block) == renumbered.text
    assert [p.block for p in by_block] == list(dict.fromkeys(e.block for e in context.items))
    untitled = replace(context, text="Some other rendering\nof the same items")
    (whole,) = context_pieces(untitled)
    assert (whole.block, whole.text) == ("whole", untitled.text)
    assert join_pieces([whole]) == untitled.text and shed([whole], 1, approximate_tokens) == []
