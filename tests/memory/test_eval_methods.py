"""Every method fills at most the words it is given; the runner hands the reference's words
to the others; ceilings and spreads pick what they say."""

from __future__ import annotations

import itertools
import json

import pytest
from rerank_plus.evaluation.memory import methods as registry
from rerank_plus.evaluation.memory.baselines import evenly_spaced, spread
from rerank_plus.evaluation.memory.ceilings import greedy_order
from rerank_plus.evaluation.memory.contexts import (
    MethodContext,
    as_method_context,
    fill,
    truncate_words,
)
from rerank_plus.evaluation.memory.embeddings import EmbeddingCache
from rerank_plus.evaluation.memory.qmsum import parse_meeting
from rerank_plus.evaluation.memory.report import markdown_tables, plot_metrics, summarize, to_json
from rerank_plus.evaluation.memory.runner import evaluate
from rerank_plus.evaluation.memory.views import Piece, Resources, windows
from rerank_plus.memory import Memory, MemoryItem
from rerank_plus.memory.model.sentences import word_count

from tests.memory.eval_meetings import design_meeting, hashed_words, long_meeting


def hand_memory(meeting):
    """Turns as level 0 and one summary per 40 turns: what the collapsed tree searches."""
    raw = [
        MemoryItem(f"turn-{t.index}", 0, t.index, t.text, speaker=t.speaker) for t in meeting.turns
    ]
    groups = [raw[start : start + 40] for start in range(0, len(raw), 40)]
    summaries = [
        MemoryItem(f"s{n}", 1, n, group[0].text, covers=tuple(i.id for i in group))
        for n, group in enumerate(groups)
    ]
    return Memory(raw + summaries)


@pytest.fixture
def resources():
    return Resources(EmbeddingCache(hashed_words), build_memory=hand_memory)


BUILT_IN = [name for name in registry.BUILTIN]


@pytest.mark.parametrize("name", BUILT_IN)
@pytest.mark.parametrize("words", [1, 7, 60, 400, 5000])
def test_every_method_fills_at_most_its_words(resources, name, words):
    meeting = long_meeting()
    (method,) = registry.create([name], resources)[1]
    for query in meeting.queries:
        if query.kind not in getattr(method, "kinds", (query.kind,)):
            continue
        text = method.context(meeting, query, words)
        assert isinstance(text, str)
        assert word_count(text) <= words
        total = sum(word_count(t.line) for t in meeting.turns)
        if name not in ("gold-turns", "oracle") and words <= total // 2:
            assert word_count(text) == words  # filled to the budget


def test_fill_cuts_the_last_piece_at_a_word_boundary():
    assert fill(["a b c", "d e f g", "h"], 5) == ["a b c", "d e"]
    assert fill(["a b c"], 0) == []
    assert truncate_words("Ben: one two\nAnna: three four", 4) == "Ben: one two\nAnna:"


@pytest.mark.parametrize(
    "pieces",
    [
        ["预算已批准我们下周开始。", "价格是二十五欧元。"],  # Chinese: one run, a word a letter
        ["ทีมรับของแพนเธอร์สถอดใจที่คะแนน", "ได้อันดับที่หก"],  # Thai: four letters a word
        ["Budget 预算 approved", "Kawann Short 川 led"],  # a name in Han inside English
    ],
)
def test_fill_cuts_runs_of_unspaced_letters_within_the_words_given(pieces):
    total = sum(word_count(piece) for piece in pieces)
    for words in range(total + 1):
        kept = fill(pieces, words)
        assert sum(word_count(piece) for piece in kept) <= words
        assert "".join(kept).replace(" ", "") in "".join(pieces).replace(" ", "")
    assert fill(pieces, total) == pieces
    assert truncate_words("预算已批准 OK", 3) == "预算已"


def test_a_string_context_splits_into_pieces_at_blank_lines():
    context = as_method_context("one\ntwo\n\n  \nthree", "m")
    assert context.pieces == ("one\ntwo", "three")
    with pytest.raises(TypeError, match="method 'm' returned list; context\\(\\) must return"):
        as_method_context(["one"], "m")


def test_windows_group_consecutive_turns_up_to_the_size():
    meeting = long_meeting(30)
    cut = windows(meeting, 40)
    assert cut[0].first_turn == 0
    assert all(a.last_turn + 1 == b.first_turn for a, b in itertools.pairwise(cut))
    assert cut[-1].last_turn == 29
    assert all(piece.words >= 40 for piece in cut[:-1])


def test_bm25_windows_rank_by_the_words_of_the_question_in_any_language(resources):
    """The lexical baseline reads Greek through the analysis layer, as the policy's light
    stage does: the window that names the harbour's fee comes first."""
    said = "Η συνάντηση συζήτησε το θέμα {} και τα επόμενα βήματα της ομάδας ."  # noqa: RUF001
    lines = [said.format(n) for n in range(40)]
    lines[27] = "Το τέλος του λιμανιού είναι τετρακόσια ευρώ τον μήνα για κάθε σκάφος ."  # noqa: RUF001
    meeting = parse_meeting(
        "greek",
        {
            "meeting_transcripts": [{"speaker": "Ελένη", "content": line} for line in lines],
            "specific_query_list": [
                {
                    "query": "Πόσο είναι το τέλος του λιμανιού;",
                    "answer": "",
                    "relevant_text_span": [["27", "27"]],
                }
            ],
        },
    )
    (method,) = registry.create(["bm25-windows"], resources)[1]
    first = as_method_context(method.context(meeting, meeting.queries[0], 200), "bm25").pieces[0]
    assert "τετρακόσια ευρώ" in first


def test_spread_and_evenly_spaced_pieces():
    assert spread(3, 9) == [1, 4, 7]
    assert spread(1, 10) == [5]
    pieces = [Piece(f"w{n} x y", n, n) for n in range(10)]  # 3 words each
    picked = evenly_spaced(pieces, 9)
    assert [p.first_turn for p in picked[:3]] == [1, 5, 8]
    assert len(picked) == 10  # the others follow, for fill to top up


def test_greedy_oracle_takes_the_largest_gain_first_and_stops_at_zero():
    pieces = [
        Piece("the remote case", 0, 0),
        Piece("red rubber remote case", 1, 1),
        Piece("nothing relevant", 2, 2),
        Piece("rubber", 3, 3),
    ]
    order = greedy_order(pieces, "A red rubber remote with a rubber case and a remote.")
    # needed: red 1, rubber 2, remote 2, case 1. Piece 1 gains 4; then pieces 0 (remote) and
    # 3 (rubber) gain 1 each, the shorter first; then nothing is needed, piece 2 never comes.
    assert [p.first_turn for p in order] == [1, 3, 0]


def test_gold_turns_hold_only_the_gold_turns(resources):
    meeting = design_meeting()
    (gold,) = registry.create(["gold-turns"], resources)[1]
    specific = meeting.queries[1]
    text = gold.context(meeting, specific, 1000)
    assert text.split("\n\n") == [meeting.turns[i].line for i in (1, 2, 4)]


def test_collapsed_tree_searches_every_level(resources):
    meeting = long_meeting()
    (tree,) = registry.create(["collapsed-tree"], resources)[1]
    texts, vectors = tree.index(meeting)
    assert len(texts) == len(meeting.turns) + 3
    assert texts[0].startswith("Speaker 0: Point 0")
    assert vectors.shape == (len(texts), 64)


class HalfBudget:
    """A stand-in reference: half its budget in words, first turns first, with an intent."""

    name = "half"

    def context(self, meeting, query, budget):
        pieces = fill((t.line for t in meeting.turns), budget // 2)
        return MethodContext(
            "\n\n".join(pieces),
            tuple(pieces),
            intent="synthesis",
            tokens_by_block={"quotes": budget // 2},
            tokens_by_level={"L0": budget // 2},
        )


class Echo:
    """A trivial injected method: the query itself, cut to the words given."""

    name = "echo"

    def context(self, meeting, query, words):
        return " ".join(query.text.split()[:words])


def test_the_runner_gives_every_method_the_reference_words(resources):
    meetings = [design_meeting(), long_meeting()]
    (lead,) = registry.create(["lead"], resources)[1]
    run = evaluate(meetings, [lead, Echo()], [40, 200], reference=HalfBudget())
    assert run.meetings == ["design", "long"]
    by_query = {}
    for record in run.records:
        by_query.setdefault((record.query, record.budget), {})[record.method] = record
    assert len(by_query) == 4 * 2
    for (_, budget), records in by_query.items():
        reference_words = records["half"].words
        assert reference_words <= budget // 2
        assert records["lead"].words_given == reference_words == records["echo"].words_given
        assert records["lead"].words == reference_words
    summary = summarize(run)
    half = next(r for r in summary if r["method"] == "half" and r["budget"] == 40)
    # half the queries are general: "synthesis" is right for them only.
    assert half["metrics"]["intent_accuracy"] == 0.5
    assert half["tokens_by_block"] == {"quotes": 20.0}
    tables = markdown_tables(summary, "half")
    assert (
        "Budget 40 (max_tokens of half, its words to the others; 2 specific, 2 general queries)"
        in tables
    )
    assert (
        "| half | " in tables
        and "| - | " in tables
        and "half: mean tokens per query: quotes 20, L0 20" in tables
    )
    json.dumps(to_json(run))


def test_without_a_reference_the_budget_is_words(resources):
    (lead,) = registry.create(["lead"], resources)[1]
    run = evaluate([long_meeting()], [lead], [25])
    assert {r.words for r in run.records} == {25}


def test_a_method_over_its_words_is_an_error(resources):
    class Greedy:
        name = "greedy"

        def context(self, meeting, query, words):
            return "word " * (words + 1)

    with pytest.raises(ValueError, match="method 'greedy' returned 11 words for design/"):
        evaluate([design_meeting()], [Greedy()], [10])


def test_unknown_methods_list_the_known_ones(resources):
    with pytest.raises(ValueError, match="unknown method\\(s\\) nope; choose from policy, "):
        registry.create(["nope"], resources)


def test_plots_one_png_per_metric(resources, tmp_path):
    pytest.importorskip("matplotlib")
    (lead,) = registry.create(["lead"], resources)[1]
    run = evaluate([design_meeting()], [lead], [5, 10])
    written = plot_metrics(summarize(run), tmp_path)
    assert sorted(p.name for p in written) == [
        "answer_recall.png",
        "gold_recall.png",
        "hit.png",
        "mrr.png",
        "mrr_words.png",
        "topic_coverage.png",
    ]
    assert all(p.stat().st_size > 1000 for p in written)


def test_embedding_cache_embeds_each_text_once_and_persists(tmp_path):
    calls = []

    def counting(texts):
        calls.append(list(texts))
        return hashed_words(texts)

    cache = EmbeddingCache(counting, tmp_path)
    first = cache(["alpha beta", "gamma", "alpha beta"])
    assert calls[-1] == ["alpha beta", "gamma"] and cache.embedded == 2
    cache(["gamma"])
    assert cache.embedded == 2
    cache.flush()
    again = EmbeddingCache(counting, tmp_path)
    assert (again(["alpha beta", "gamma", "alpha beta"]) == first).all()
    assert again.embedded == 0


@pytest.mark.slow
def test_the_policy_sets_the_words_of_the_others(resources):
    from rerank_plus.selection.budget import approximate_tokens

    meeting = long_meeting()
    reference, others = registry.create(["policy", "hybrid-windows", "collapsed-tree"], resources)
    run = evaluate([meeting], others, [120, 600], reference=reference)
    policy = [r for r in run.records if r.method == "policy"]
    assert len(policy) == 2 * len(meeting.queries)
    assert {r.intent for r in policy} <= {"synthesis", "detail", "recent", "entity"}
    assert all(r.intent_correct is not None for r in policy)
    for record in policy:
        assert record.words_given == record.budget
        assert set(record.tokens_by_level) <= {"L0", "L1"}
        assert set(record.tokens_by_block) <= {"overview", "extracts", "quotes"}
        assert sum(record.tokens_by_block.values()) == sum(record.tokens_by_level.values())
        others_given = {
            r.words_given
            for r in run.records
            if r.query == record.query and r.budget == record.budget and r.method != "policy"
        }
        assert others_given == {record.words}
    context = reference.context(meeting, meeting.queries[1], 600)
    assert approximate_tokens(context.text) <= 600
    assert all(piece in context.text for piece in context.pieces)


def test_versus_best_baseline_leaves_the_ceilings_out():
    from rerank_plus.evaluation.memory.report import versus_best_baseline

    def row(method, recall):
        return {"budget": 700, "method": method, "metrics": {"gold_recall": recall}}

    summary = [row("policy", 0.5), row("dense-windows", 0.42), row("hybrid-windows", 0.45)]
    summary.append(row("gold-turns", 0.9))
    table = versus_best_baseline(summary)
    assert "| 700 | gold recall | 0.500 | hybrid-windows 0.450 | +5.0 |" in table
