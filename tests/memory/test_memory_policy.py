"""Memory profiles as data: the ready-made intents, overrides, tiers, and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rerank_plus.memory.policy import INTENTS, memory_profile


def test_ready_made_profiles_follow_the_design() -> None:
    profile = memory_profile()
    assert set(profile.policies) == set(INTENTS)
    synthesis, detail = profile.policies["synthesis"], profile.policies["detail"]
    # synthesis: every level, sentence by sentence for what it adds to the context
    assert all(synthesis.quotas[block] > 0 for block in ("overview", "extracts", "quotes"))
    assert set(synthesis.coverage_blocks) == {"overview", "extracts", "quotes"}
    assert not detail.coverage_blocks  # a precise question wants whole messages, best first
    # detail: quotes first; summaries only get what the quotes leave (measured: see memory.md)
    assert (
        detail.quotas["quotes"] == max(detail.quotas.values()) and detail.fill_order[0] == "quotes"
    )
    # a precise question's answer leads; a broad one reads the big picture first
    assert detail.show_order[0] == "quotes" and synthesis.show_order[0] == "overview"
    assert detail.overview_items["small"] == 0 < detail.overview_items["large"]
    assert synthesis.band_prior["top"] > synthesis.band_prior["messages"]
    assert detail.band_prior["messages"] > detail.band_prior["top"]
    # only a question about what is new weighs recency
    assert [i for i, p in profile.policies.items() if p.freshness] == ["recent"]
    assert detail.safe_drill and not synthesis.safe_drill
    assert min(detail.lead_quotes.values()) >= 1  # the best message first
    assert set(synthesis.lead_quotes.values()) == {0}
    # detail locates regions (a window, its best message, its neighbours) with its own fusion
    assert detail.drill_from == "regions"
    assert detail.fusion == {"method": "weighted", "normalization": "minmax"}
    assert synthesis.fusion is None and synthesis.drill_from == "top"
    # a broad context spreads over the conversation; the others read what is relevant
    assert synthesis.spread and 0 < synthesis.spread["gap"] <= 1 and detail.spread is None


@pytest.mark.parametrize(
    ("tokens", "tier"), [(1, "small"), (1000, "small"), (1001, "medium"), (3001, "large")]
)
def test_size_tiers(tokens: int, tier: str) -> None:
    assert memory_profile().tier(tokens) == tier


def test_a_memory_section_overrides_one_intent_and_the_tiers(tmp_path: Path) -> None:
    config = {
        "fusion": {"method": "weighted", "alpha": 0.7},
        "memory": {
            "tiers": {"small": 500},
            "detail": {"quotas": {"overview": 0.1, "extracts": 0.2, "quotes": 0.7}},
        },
    }
    path = tmp_path / "memory-profile.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    profile = memory_profile(path)
    assert profile.tiers == {"small": 500, "medium": 3000}
    assert profile.policies["detail"].quotas["quotes"] == 0.7
    assert profile.policies["synthesis"].quotas == memory_profile().policies["synthesis"].quotas
    assert profile.fusion == {"method": "weighted", "alpha": 0.7}
    assert profile.tier(600) == "medium"


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"selection": {}}, "Unknown key 'selection' in the memory profile"),
        ({"memory": {"chat": {}}}, "Unknown key 'chat' in memory; valid keys: synthesis"),
        ({"memory": {"detail": {"quota": {}}}}, "Unknown key 'quota' in memory.detail"),
        (
            {"memory": {"detail": {"quotas": {"overview": 2}}}},
            "memory.detail.quotas.overview must be a number in [0, 1], got 2.",
        ),
        (
            {"memory": {"detail": {"quotas": {"overview": 0, "extracts": 0, "quotes": 0}}}},
            "memory.detail.quotas must give some share of the budget to a block.",
        ),
        (
            {"memory": {"tiers": {"small": 4000}}},
            "memory.tiers.small must not exceed memory.tiers.medium.",
        ),
        (
            {"memory": {"entity": {"drill_m": {"small": -1, "medium": 1, "large": 1}}}},
            "memory.entity.drill_m.small must be an int >= 0, got -1.",
        ),
        (
            {"memory": {"detail": {"drill_m": {"medium": 4, "huge": 9}}}},
            "Unknown key 'huge' in memory.detail.drill_m; valid keys: small, medium, large.",
        ),
        (
            {"memory": {"detail": {"quotas": {"quote": 1.0}}}},
            "Unknown key 'quote' in memory.detail.quotas; valid keys: overview, extracts, quotes.",
        ),
        (
            {"memory": {"detail": {"band_prior": {"window": 1.2}}}},
            "Unknown key 'window' in memory.detail.band_prior; valid keys: top, upper",
        ),
        (
            {"memory": {"recent": {"freshness": {"half_life": 2}}}},
            "Unknown key 'half_life' in memory.recent.freshness; valid keys: half_life_days, "
            "weight.",
        ),
        (
            {"memory": {"tiers": {"large": 9000}}},
            "Unknown key 'large' in memory.tiers; valid keys: small, medium.",
        ),
        (
            {"memory": {"final_regions": "yes"}},
            "memory.final_regions must be true or false, got 'yes'.",
        ),
    ],
)
def test_bad_profiles_say_what_to_fix(config: dict, message: str) -> None:
    with pytest.raises(ValueError) as raised:
        memory_profile(config)
    assert message in str(raised.value)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"memory": []}, "memory must be a mapping (JSON object), got list."),
        (
            {"memory": {"detail": {"freshness": 3}}},
            "memory.detail.freshness must be a mapping (JSON object), got int.",
        ),
        ({"memory": {"detail": {"quotas": [1]}}}, "memory.detail.quotas must be a mapping"),
    ],
)
def test_a_section_that_is_no_mapping_says_so(config: dict, message: str) -> None:
    with pytest.raises(TypeError) as raised:
        memory_profile(config)
    assert message in str(raised.value)


def test_the_drill_breadth_takes_some_tiers_or_one_int() -> None:
    ready = memory_profile().policies["detail"]
    some = memory_profile({"memory": {"detail": {"drill_m": {"medium": 3}}}})
    assert some.policies["detail"].drill_m == {**ready.drill_m, "medium": 3}
    one = memory_profile({"memory": {"detail": {"drill_m": 5}}})
    assert one.policies["detail"].drill_m == {"small": 5, "medium": 5, "large": 5}


@pytest.mark.parametrize(
    "key",
    ["drill_picks", "overview_items", "lead_quotes", "neighbour_weight", "spread", "fill_order"],
)
def test_a_strategy_is_no_setting_and_the_error_lists_the_settings(key: str) -> None:
    with pytest.raises(ValueError) as raised:
        memory_profile({"memory": {"detail": {key: 1}}})
    assert f"Unknown key '{key}' in memory.detail; valid keys: quotas, band_prior" in str(
        raised.value
    )


def test_the_ready_made_profile_holds_a_handful_of_numbers() -> None:
    """Each intent's settings are written once for all and then where an intent differs: the
    count is what docs/memory.md reports, and a number added there is a decision to justify."""
    from rerank_plus.memory import ready_made

    def numbers(value: object) -> int:
        if isinstance(value, dict):
            return sum(numbers(item) for item in value.values())
        return int(isinstance(value, (int, float)) and not isinstance(value, bool))

    written = numbers(ready_made.EVERY_INTENT) + numbers(ready_made.KNOBS)
    assert written + numbers(ready_made.TIERS) < 40


def test_final_regions_is_one_switch_for_the_profile() -> None:
    off = memory_profile({"memory": {"final_regions": False}})
    assert not any(policy.final_regions for policy in off.policies.values())
    assert all(policy.final_regions for policy in memory_profile().policies.values())


def test_a_freshness_setting_keeps_what_it_leaves_out() -> None:
    detail = memory_profile({"memory": {"detail": {"freshness": {"weight": 0.5}}}})
    assert detail.policies["detail"].freshness == {"half_life_days": 1.0, "weight": 0.5}


def test_a_profile_name_that_is_no_file_says_so() -> None:
    with pytest.raises(ValueError) as raised:
        memory_profile("no-such-profile.yaml")
    assert str(raised.value) == (
        "'no-such-profile.yaml' is not a file. A memory profile is None (the ready-made one), a "
        "dict or a JSON/YAML file with a 'memory' section (keys: synthesis, detail, recent, "
        "entity, shapes, tiers, final_regions, annotate_times)."
    )


@pytest.mark.parametrize("name", ["detail", "synthesis", "recent"])
def test_a_rerank_profile_name_is_not_a_memory_profile(name: str) -> None:
    """Not "Unknown key 'profile'": what the name is, what a memory profile is, and how to
    force the intent the name also is."""
    with pytest.raises(ValueError) as raised:
        memory_profile(name)
    message = str(raised.value)
    assert message.startswith(
        f"{name!r} is a rerank profile (from_config's), not a memory profile."
    )
    assert "a JSON/YAML file with a 'memory' section (keys: synthesis, detail, " in message
    assert message.endswith(f"; to force an intent, retrieve(question, intent={name!r}).")
    assert "\n" not in message


def test_a_file_named_like_a_rerank_profile_is_read_as_a_memory_profile(
    tmp_path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "detail").write_text('{"memory": {"detail": {"drill_m": 5}}}', encoding="utf-8")
    assert memory_profile("detail").policies["detail"].drill_m["medium"] == 5
