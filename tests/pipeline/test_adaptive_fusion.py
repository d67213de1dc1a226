"""The adaptive fusion: its signals, the weight they choose, and what it explains."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rerank_plus import BM25Reranker, Cascade, Pipeline
from rerank_plus.analysis import Analyzer
from rerank_plus.analysis.language import Detection
from rerank_plus.combine import (
    AdaptiveFusion,
    ReciprocalRankFusion,
    Signals,
    WeightedFusion,
    min_max,
)
from rerank_plus.combine.adaptive import confidence
from rerank_plus.combine.query_language import dominant_script, reads_query, reads_script
from rerank_plus.combine.scale import UnitScale, unit_scale

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
pairs = st.integers(min_value=0, max_value=40).flatmap(
    lambda n: st.tuples(
        st.lists(finite, min_size=n, max_size=n), st.lists(finite, min_size=n, max_size=n)
    )
)
ANALYZER = Analyzer()
queries = st.one_of(st.none(), st.sampled_from(["cat", "Katze?", "猫", "🙂🙂", "", "Γάτα"]))


@settings(deadline=None)
@given(pairs, queries)
def test_fused_values_lie_in_the_unit_interval(scores, query) -> None:
    rerank, first = scores
    fused = AdaptiveFusion(detector=ANALYZER).fuse(rerank, first, query=query)
    assert len(fused.values) == len(fused.details) == len(rerank)
    assert all(0.0 <= v <= 1.0 and not math.isnan(v) for v in fused.values)


def test_it_is_the_weighted_sum_with_the_weight_it_chose() -> None:
    rerank, first = [3.0, 1.0, 2.0, 0.0], [0.1, 0.9, 0.5, 0.2]
    fused = AdaptiveFusion().fuse(rerank, first, query="Wie alt ist die Katze?")
    weight = fused.details[0]["weight"]
    expected = WeightedFusion(alpha=weight).fuse(rerank, first).values
    assert fused.values == pytest.approx(expected)


@pytest.mark.parametrize(
    ("signals", "weight"),
    [
        (Signals("en", True, 0.5, 0.5, True, True), 0.35),
        (Signals("de", False, 0.5, 0.5, True, True), 0.65),  # a script it reads
        (Signals("greek", False, 0.5, 0.5, True, False), 0.85),  # a script it does not read
        (Signals("de", False, 0.5, 0.5, True), 0.65),  # script not told: as a script it reads
        (Signals(None, None, 0.5, 0.5, True), 0.65),
        (Signals("en", True, 1.0, 0.0, True), 0.55),  # the reranker's best stands out
        (Signals("en", True, 0.0, 1.0, True), 0.15),  # the first stage's best stands out
        (Signals("greek", False, 1.0, 0.0, True, False), 1.0),  # capped
        (Signals("thai", False, 0.0, 0.5, False, False), 0.0),  # the reranker matched nothing
    ],
)
def test_weights_follow_the_signals(signals, weight) -> None:
    assert AdaptiveFusion().weight(signals) == pytest.approx(weight)


def test_confidence_is_the_share_of_the_range_above_the_tenth_best() -> None:
    values = [10.0, *[5.0] * 9, 0.0]
    assert confidence(values) == pytest.approx(0.5)
    assert confidence([2.0, 2.0, 2.0]) == 0.0
    assert confidence([]) == 0.0
    assert confidence([1.0, float("inf"), 0.0]) == 1.0


@pytest.mark.parametrize(
    ("query", "languages", "expected"),
    [
        ("Πότε ιδρύθηκε το πανεπιστήμιο;", ("en",), ("greek", False)),
        ("Πότε ιδρύθηκε το πανεπιστήμιο;", ("el",), ("el", True)),  # Greek script decides
        ("大学是什么时候成立的", ("en",), ("cjk", False)),
        ("มหาวิทยาลัยก่อตั้งเมื่อไหร่", ("en", "de"), ("thai", False)),
        ("Wann wurde die Universität gegründet?", ("en",), ("de", False)),
        ("Wann wurde die Universität gegründet?", ("en", "de"), ("de", True)),
        ("When was the university founded?", ("en",), ("en", True)),
        ("🙂 42", ("en",), (None, None)),
        ("", ("en",), (None, None)),
    ],
)
def test_whether_the_first_stage_reads_the_query(query, languages, expected) -> None:
    assert reads_query(query, languages, ANALYZER) == expected


@pytest.mark.parametrize(
    ("query", "languages", "expected"),
    [
        ("Πότε ιδρύθηκε το πανεπιστήμιο;", ("en",), False),
        ("Πότε ιδρύθηκε το πανεπιστήμιο;", ("en", "el"), True),
        ("Wann wurde die Universität gegründet?", ("en",), True),
        ("大学是什么时候成立的", ("en", "ja"), True),  # kana and Han are one script here
        ("🙂 42", ("en",), None),
        ("", ("en",), None),
    ],
)
def test_whether_the_first_stage_reads_the_query_script(query, languages, expected) -> None:
    assert reads_script(query, languages) is expected


def test_a_script_the_first_stage_cannot_read_leans_further_on_the_reranker() -> None:
    fusion = AdaptiveFusion(detector=ANALYZER)
    rerank, first = [3.0, 1.0, 2.0, 0.0], [0.1, 0.9, 0.5, 0.2]
    greek = fusion.fuse(rerank, first, query="Πότε ιδρύθηκε το πανεπιστήμιο;").details[0]
    german = fusion.fuse(rerank, first, query="Wann wurde die Universität gegründet?").details[0]
    assert greek["signals"]["first_stage_reads_script"] is False
    assert german["signals"]["first_stage_reads_script"] is True
    assert german["signals"]["first_stage_reads_query"] is False
    assert greek["weight"] - german["weight"] == pytest.approx(0.85 - 0.65)


class CountingDetector:
    """A real analyzer's detection, counted."""

    def __init__(self) -> None:
        self.calls = 0

    def detect(self, text: str) -> Detection:
        self.calls += 1
        return ANALYZER.detect(text)


def test_each_query_is_read_once() -> None:
    detector = CountingDetector()
    fusion = AdaptiveFusion(detector=detector)
    for _ in range(3):
        weights = {
            query: fusion.fuse([2.0, 1.0], [1.0, 2.0], query=query).details[0]["weight"]
            for query in ("Where does the cat sleep?", "Wo schläft die Katze?")
        }
    assert detector.calls == 2
    assert weights["Wo schläft die Katze?"] > weights["Where does the cat sleep?"]


class FixedDetector:
    """A detector with a set verdict: the unreliable and cross-script answers a real one gives
    only on some texts."""

    def __init__(self, detection: Detection) -> None:
        self.detection = detection

    def detect(self, text: str) -> Detection:
        return self.detection


@pytest.mark.parametrize(
    ("detection", "expected"),
    [
        (Detection("en", 0.9, reliable=True), ("en", True)),
        (Detection("de", 0.9, reliable=True), ("de", False)),
        (Detection("de", 0.4, reliable=False), (None, None)),
        (Detection(None, 0.0, reliable=True), (None, None)),
        (Detection("ru", 0.9, reliable=True), (None, None)),  # Latin letters, Cyrillic language
    ],
)
def test_a_detection_counts_only_when_reliable_and_in_the_querys_script(
    detection, expected
) -> None:
    query = "Wann wurde sie gegründet?"
    assert reads_query(query, ("en",), FixedDetector(detection)) == expected


def test_without_a_detector_only_the_script_can_tell() -> None:
    assert reads_query("Wann wurde sie gegründet?", ("en",), None) == (None, None)
    assert reads_query("Πότε ιδρύθηκε;", ("en",), None) == ("greek", False)


def test_scripts_of_mixed_and_kana_text() -> None:
    assert dominant_script("カタカナとひらがな") == "CJK"
    assert dominant_script("The word Γάτα") == "LATIN"


def test_pipeline_explains_signals_and_weight() -> None:
    bm25 = BM25Reranker()
    pipeline = Pipeline(bm25, fusion=AdaptiveFusion(detector=bm25.analyzer))
    docs = ["The capital of France is Paris.", "Paris is in France.", "Berlin is large."]
    results = pipeline.rank(
        "Which river flows through the capital city of France?",
        docs,
        first_stage_scores=[0.2, 0.8, 0.1],
        explain=True,
    )
    fusion = results[0].explanation["fusion"]
    assert fusion["method"] == "adaptive"
    assert fusion["signals"]["query_language"] == "en"
    assert fusion["signals"]["first_stage_reads_query"] is True
    assert 0.0 <= fusion["weight"] <= 1.0
    assert fusion["fused"] == results[0].relevance_score


@settings(deadline=None)
@given(pairs, queries)
def test_fused_values_are_the_weighted_sum_of_min_max_values(scores, query) -> None:
    rerank, first = scores
    fused = AdaptiveFusion(detector=ANALYZER).fuse(rerank, first, query=query)
    for value, detail, a, b in zip(
        fused.values, fused.details, min_max(rerank), min_max(first), strict=True
    ):
        assert detail["rerank_normalized"] == pytest.approx(a, abs=1e-12)
        assert detail["first_stage_normalized"] == pytest.approx(b, abs=1e-12)
        weight = detail["weight"]
        assert value == pytest.approx(weight * a + (1 - weight) * b, abs=1e-12)


every_float = st.floats(allow_nan=False, allow_infinity=False)


@settings(deadline=None)
@given(st.lists(st.tuples(every_float, every_float), min_size=1, max_size=15))
def test_fusion_keeps_what_both_inputs_agree_on_at_any_magnitude(pairs) -> None:
    rerank, first = [a for a, _ in pairs], [b for _, b in pairs]
    fused = AdaptiveFusion(detector=ANALYZER).fuse(rerank, first, query="cats").values
    assert all(0.0 <= v <= 1.0 for v in fused)

    def above(values: list[float], i: int, j: int) -> bool:
        return values[i] > values[j] or (values[i] == values[j] and i < j)

    for i in range(len(pairs)):
        for j in range(len(pairs)):
            if above(rerank, i, j) and above(first, i, j):
                assert fused[i] >= fused[j], (pairs[i], pairs[j], fused[i], fused[j])


@pytest.mark.parametrize(
    ("values", "unit", "confidence_value"),
    [
        ([4.0, 2.0, 3.0], [1.0, 0.0, 0.5], 1.0),
        ([7.0, 7.0], [0.5, 0.5], 0.0),
        ([1.0, math.inf, -math.inf, math.nan, 0.0], [1.0, 1.0, 0.0, 0.0, 0.0], 1.0),
        ([math.inf, math.inf], [1.0, 1.0], 0.0),
        ([-1e308, 1e308, 0.0], [0.0, 1.0, 0.5], 1.0),
        ([0.0, 5e-324], [0.0, 1.0], 1.0),
    ],
)
def test_unit_scale_at_the_edges(values, unit, confidence_value) -> None:
    scale = unit_scale(values)
    assert [scale.unit(i) for i in range(len(values))] == unit
    assert scale.confidence == confidence_value


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([], UnitScale([], 0.0, 1.0, False, 0.0)),
        ([3.0, 3.0], UnitScale([0.5, 0.5], 0.0, 1.0, False, 0.0)),
        ([4.0, 2.0, 3.0], UnitScale([4.0, 2.0, 3.0], 2.0, 2.0, True, 1.0)),
        (list(range(11)), UnitScale([float(v) for v in range(11)], 0.0, 10.0, True, 0.9)),
        # the span overflows: every value halved (exact)
        (
            [1.5e308, -1.5e308, 0.0],
            UnitScale([7.5e307, -7.5e307, 0.0], -7.5e307, 1.5e308, True, 1.0),
        ),
        # the sum overflows, the span does not
        ([1.5e308, 1.5e308, 0.0], UnitScale([1.5e308, 1.5e308, 0.0], 0.0, 1.5e308, True, 1.0)),
        ([math.inf, 2.0, 1.0, -math.inf], UnitScale([1.0, 1.0, 0.0, 0.0], 0.0, 1.0, True, 1.0)),
        ([math.inf, -math.inf], UnitScale([1.0, 0.0], 0.0, 1.0, True, 1.0)),
        ([math.inf, math.inf], UnitScale([1.0, 1.0], 0.0, 1.0, False, 0.0)),
    ],
)
def test_unit_scale_keeps_low_span_spread_and_confidence(values, expected) -> None:
    assert unit_scale(values) == expected


def test_subnormal_and_huge_spans_fuse_exactly() -> None:
    fusion = AdaptiveFusion(alpha=0.5, detector=ANALYZER)
    tiny = fusion.fuse([0.0, 5e-324, 0.0], [1e308, -1e308, 0.0], query="When?")
    weight = tiny.details[0]["weight"]
    assert tiny.values == pytest.approx([1 - weight, weight, (1 - weight) / 2])


DOCS = [
    "The cat sleeps on the sofa all day.",
    "Dogs bark in the garden.",
    "A cat and a dog share the garden.",
    "Cars need fuel.",
]
FIRST = [0.2, 0.9, 0.5, 0.1]


@pytest.mark.parametrize(
    "fusion",
    [AdaptiveFusion(detector=ANALYZER), WeightedFusion(alpha=0.7), ReciprocalRankFusion()],
    ids=repr,
)
@pytest.mark.parametrize("query", ["where does the cat sleep", "Wo schläft die Katze?", "🙂"])
def test_pipeline_scores_alike_with_or_without_explanations(fusion, query) -> None:
    pipeline = Pipeline(BM25Reranker(), fusion=fusion)
    plain = pipeline.score_candidates(query, DOCS, first_stage_scores=FIRST)
    explained = pipeline.score_candidates(query, DOCS, first_stage_scores=FIRST, explain=True)
    assert plain.raw == explained.raw == plain.relevance == explained.relevance
    assert all(type(value) is float for value in plain.raw)
    expected = fusion.fuse(BM25Reranker().score(query, DOCS).raw, FIRST, query=query).values
    assert plain.raw == expected


def test_pipeline_fuses_only_what_an_earlier_stage_kept() -> None:
    bm25 = BM25Reranker()
    fused = Pipeline(Cascade([bm25, bm25], keep=[2, 2]), fusion=AdaptiveFusion(detector=ANALYZER))
    results = fused.rank("cat garden", DOCS, first_stage_scores=FIRST)
    assert len(results) == 2
    assert all(0.0 <= r.relevance_score <= 1.0 for r in results)


def test_details_behave_as_a_sequence() -> None:
    fused = AdaptiveFusion().fuse([1.0, 2.0, 3.0], [3.0, 2.0, 1.0], query="cat")
    assert [d["rerank_normalized"] for d in fused.details] == [0.0, 0.5, 1.0]
    assert [d["first_stage_normalized"] for d in fused.details[1:]] == [0.5, 0.0]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"alpha": 2}, r"alpha must be a number in \[0, 1\]"),
        ({"confidence_weight": -1}, r"confidence_weight must be a number in \[0, 1\]"),
        ({"first_stage_languages": "en"}, "first_stage_languages must be a list of ISO 639-1"),
        ({"unread_alpha": 1.5}, r"^unread_alpha must be a number in \[0, 1\], got 1.5\.$"),
        ({"unread_script_alpha": -0.1}, r"^unread_script_alpha must be a number in \[0, 1\]"),
        ({"unknown_alpha": True}, r"^unknown_alpha must be a number in \[0, 1\], got True\.$"),
        (
            {"first_stage_languages": [1]},
            r"^first_stage_languages must be a list of ISO 639-1 codes such as \['en'\], "
            r"got \[1\]\.$",
        ),
    ],
)
def test_bad_options(options, message) -> None:
    with pytest.raises(ValueError, match=message):
        AdaptiveFusion(**options)


def test_settings_and_repr_name_every_parameter() -> None:
    fusion = AdaptiveFusion(0.3, 0.6, 0.7, 0.1, 0.9, first_stage_languages=["EN", "de"])
    assert fusion.settings() == {
        "method": "adaptive",
        "alpha": 0.3,
        "unread_alpha": 0.6,
        "unread_script_alpha": 0.9,
        "unknown_alpha": 0.7,
        "confidence_weight": 0.1,
        "first_stage_languages": ["de", "en"],
    }
    assert repr(fusion) == (
        "AdaptiveFusion(alpha=0.3, unread_alpha=0.6, unread_script_alpha=0.9, "
        "unknown_alpha=0.7, confidence_weight=0.1, first_stage_languages=['de', 'en'])"
    )


def test_signals_read_each_list_and_the_query() -> None:
    fusion = AdaptiveFusion(detector=ANALYZER)
    standing_out = [10.0] + [1.0] * 9 + [0.0]  # the best stands out of the top ten: 0.9
    flat_top = [1.0] * 10 + [0.0]  # ten equal best: 0.0
    assert fusion.signals(standing_out, flat_top, "Πότε ιδρύθηκε;") == Signals(
        query_language="greek",
        first_stage_reads_query=False,
        rerank_confidence=0.9,
        first_stage_confidence=0.0,
        rerank_found_anything=True,
        first_stage_reads_script=False,
    )
    assert fusion.signals([2.0] * 11, standing_out, None) == Signals(
        None, None, 0.0, 0.9, False, first_stage_reads_script=None
    )


def test_fused_values_take_one_rounding_per_candidate() -> None:
    # weight / span folded once per list, as the fast path does: dividing each value by its
    # span first rounds differently in the last bit (0.3209876543209877 for the third)
    fusion = AdaptiveFusion(unknown_alpha=0.35, confidence_weight=0.0)
    fused = fusion.fuse([6.52, 7.89, 0.94], [0.03, 0.84, 0.43])
    assert fused.values == [0.2810071942446043, 1.0, 0.32098765432098775]


def test_a_sum_past_one_by_rounding_is_clipped_to_one() -> None:
    # weight / span times span rounds to 1.0000000000000002 here: the best candidate of both
    # lists would fuse to just above 1 without the clip
    fusion = AdaptiveFusion(unknown_alpha=0.1, confidence_weight=0.0)
    fused = fusion.fuse([3.83, 7.37, 3.93], [0.05, 0.27, 0.25])
    assert fused.values == [0.0, 1.0, 0.8210066769388804]
    wide = fusion.fuse([3.1, 2.23, 8.04], [23.9, 18.7, 43.5])  # a first-stage span above 1
    assert wide.values == [0.20368385986341678, 0.0, 1.0]


def test_weights_are_rounded_to_six_decimals() -> None:
    signals = Signals("en", True, 1 / 3, 0.0, True, first_stage_reads_script=True)
    assert AdaptiveFusion().weight(signals) == 0.416667


def test_without_a_detector_of_its_own_the_shared_analyzer_reads_the_query() -> None:
    fusion = AdaptiveFusion()
    signals = fusion.signals([1.0, 0.0], [0.0, 1.0], "Where does the cat sleep during the day?")
    assert (signals.query_language, signals.first_stage_reads_query) == ("en", True)


def test_it_remembers_at_most_4096_queries() -> None:
    fusion = AdaptiveFusion(detector=ANALYZER)
    for number in range(4096):
        fusion.signals([1.0, 0.0], [0.0, 1.0], f"Πότε {number};")
    assert len(fusion._readings) == 4096
    fusion.signals([1.0, 0.0], [0.0, 1.0], "Πότε;")
    assert list(fusion._readings) == ["Πότε;"]
