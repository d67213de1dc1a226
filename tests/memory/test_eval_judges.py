# ruff: noqa: RUF001  (a Chinese meeting, with its own punctuation)
"""The judges on a hand-made meeting, with values worked out by hand."""

from __future__ import annotations

import pytest
from rerank_plus.evaluation.memory.folding import (
    FoldedContext,
    content_words,
    fold,
    judged_sentences,
)
from rerank_plus.evaluation.memory.judges import MeetingJudge, answer_recall, intent_correct
from rerank_plus.evaluation.memory.qmsum import parse_meeting, span_turns

from tests.memory.eval_meetings import DESIGN_MEETING, design_meeting


def queries():
    meeting = design_meeting()
    general, specific = meeting.queries
    return meeting, general, specific


def test_loader_reads_turns_topics_and_judgments():
    meeting, general, specific = queries()
    assert [t.index for t in meeting.turns] == [0, 1, 2, 3, 4]
    assert meeting.turns[1].line.startswith("Ben: We chose")
    assert [(t.name, t.turns) for t in meeting.topics] == [
        ("Design", (1, 2)),
        ("Speech", (3,)),
        ("Closing", (4,)),
    ]
    assert general.kind == "general" and general.gold_turns == ()
    assert specific.kind == "specific" and specific.gold_turns == (1, 2, 4)
    assert specific.id == "design/specific/0"
    assert meeting.messages()[1] == {
        "id": "turn-1",
        "speaker": "Ben",
        "text": DESIGN_MEETING["meeting_transcripts"][1]["content"],
    }


def test_spans_are_inclusive_deduplicated_and_clipped():
    assert span_turns([["3", "5"], ["4", "6"], [8, 99]], 10, "here") == (3, 4, 5, 6, 8, 9)


def test_a_bad_span_names_where_it_is():
    with pytest.raises(ValueError, match=r"m1 topic_list\[0\]: a span must be a \[first, last\]"):
        parse_meeting(
            "m1",
            {
                "meeting_transcripts": [{"speaker": "A", "content": "hi"}],
                "topic_list": [{"topic": "x", "relevant_text_span": [["a"]]}],
            },
        )


def test_folding_drops_case_punctuation_and_transcript_markers():
    assert fold("We {vocalsound} chose the RED-rubber case, for the remote!") == (
        "we chose the red rubber case for the remote"
    )
    assert judged_sentences("Yeah . Okay so we chose the red case .") == [
        "okay so we chose the red case"
    ]


def test_a_sentence_is_found_on_word_boundaries_only():
    context = FoldedContext("They restart the art session now.")
    assert "art session now" in context
    assert "start the art" not in context


def test_gold_recall_counts_a_turn_when_half_its_sentences_are_there():
    meeting, _, specific = queries()
    judge = MeetingJudge(meeting)
    pieces = ["Some other words here.", "Ben: WE chose the red-rubber case, for the remote"]
    metrics = judge.judge(specific, "\n\n".join(pieces), pieces)
    # turn 4 ("Yeah .") has no 5+-word sentence: out of the denominator; turn 1 has one of
    # its two sentences (half: recalled), turn 2 none.
    assert metrics == {"gold_recall": 0.5, "hit": 1.0, "mrr": 0.5, "mrr_words": 1.0}


def test_everything_recalled_first_piece_first():
    meeting, _, specific = queries()
    judge = MeetingJudge(meeting)
    pieces = [meeting.turns[2].text, meeting.turns[1].text]
    assert judge.judge(specific, "\n\n".join(pieces), pieces) == {
        "gold_recall": 1.0,
        "hit": 1.0,
        "mrr": 1.0,
        "mrr_words": 1.0,
    }


def test_nothing_recalled():
    meeting, _, specific = queries()
    assert MeetingJudge(meeting).judge(specific, "nothing", ["nothing"]) == {
        "gold_recall": 0.0,
        "hit": 0.0,
        "mrr": 0.0,
        "mrr_words": 0.0,
    }


def test_mrr_in_words_reads_where_the_answer_starts_whatever_the_pieces():
    meeting, _, specific = queries()
    judge = MeetingJudge(meeting)
    answer = meeting.turns[2].text
    before = " ".join(["filler"] * 320)  # 320 words: the answer starts in the third piece
    for pieces in ([before, answer], [*before.split(" "), answer]):
        metrics = judge.judge(specific, " ".join(pieces), pieces)
        assert metrics["mrr_words"] == 1 / 3
    assert judge.judge(specific, answer + " " + before, [answer, before])["mrr_words"] == 1.0


def test_a_specific_query_without_judged_gold_turns_is_left_out():
    meeting = design_meeting()
    only_short = type(meeting.queries[1])("design", 9, "specific", "q", "a", (0, 4))
    assert MeetingJudge(meeting).judge(only_short, "Good morning everyone .", []) == {}


def test_content_words_drop_stop_words_and_contraction_remnants():
    # "the", "'s" and "about" are stop words; "remote's" splits into "remote" and "s".
    assert content_words("The remote's case is about the remote.") == {"remote": 2, "case": 1}


def test_answer_recall_clips_counts():
    # content words of the reference: remote x2, case, red, rubber (6 words minus stop words).
    reference = "The remote's case: red, rubber remote."
    assert answer_recall(reference, "remote remote remote case") == pytest.approx(3 / 5)
    assert answer_recall(reference, "REMOTE, red!") == pytest.approx(2 / 5)
    assert answer_recall("the and of", "anything") is None


def test_topic_coverage_counts_topics_with_a_judged_sentence_in_the_context():
    meeting, general, _ = queries()
    judge = MeetingJudge(meeting)
    context = "Dan: I think speech recognition is too expensive for us."
    metrics = judge.judge(general, context, [context])
    # "Closing" (turn 4, "Yeah .") has no judged sentence: 2 topics count, "Speech" is covered.
    assert metrics["topic_coverage"] == 0.5
    assert metrics["answer_recall"] == 0.0
    both = context + " The battery lasts about three years ."
    assert judge.judge(general, both, [both])["topic_coverage"] == 1.0


def test_intent_is_right_when_general_means_synthesis():
    _, general, specific = queries()
    assert intent_correct(general, "synthesis")
    assert not intent_correct(general, "detail")
    assert intent_correct(specific, "entity")
    assert not intent_correct(specific, "synthesis")


def test_judges_read_scripts_written_without_spaces_by_letter():
    meeting = parse_meeting(
        "zh",
        {
            "meeting_transcripts": [
                {"speaker": "王芳", "content": "今年的市场预算是四万欧元。好的。"},
                {"speaker": "张伟", "content": "嗯。"},
                {"speaker": "李娜", "content": "大部分预算会用在社交媒体广告上。"},
            ],
            "topic_list": [{"topic": "预算", "relevant_text_span": [["0", "2"]]}],
            "general_query_list": [{"query": "总结会议", "answer": "预算是四万欧元。"}],
            "specific_query_list": [
                {"query": "预算多少？", "answer": "四万欧元", "relevant_text_span": [["0", "1"]]}
            ],
        },
    )
    general, specific = meeting.queries
    # a sentence of 5+ letters is judged ("好的。", two letters, is not; "嗯。" has none)
    assert judged_sentences("今年的市场预算是四万欧元。好的。") == ["今年的市场预算是四万欧元"]
    judge = MeetingJudge(meeting)
    context = "王芳: 今年的市场预算是四万欧元。"
    assert judge.judge(specific, context, [context])["gold_recall"] == 1.0
    # ROUGE-1 by letter: 预 算 是 四 万 欧 元, all in the context
    assert answer_recall(general.answer, context) == 1.0
    assert answer_recall(general.answer, "欧元") == pytest.approx(2 / 7)
