"""The memory policy as data: per intent, a handful of settings a user can reason about.

A profile is the library's profile shape (``fusion`` for the light stage, see
:mod:`rerank_plus.compose.profiles`) with a ``memory`` section::

    {"fusion": {"method": "rrf"},
     "memory": {"tiers": {"small": 1000, "medium": 3000},
                "detail": {"quotas": {"overview": 0.2, "extracts": 0.3, "quotes": 0.5}}}}

Per intent (``synthesis``, ``detail``, ``recent``, ``entity``), the settings (knobs):

* ``quotas``: the budget share per block (overview = the upper summary levels, extracts =
  window summaries, quotes = raw messages); a block not named gets 0. Soft: what a block leaves
  unused goes to the next one in the intent's fill order.
* ``band_prior``: the level prior, a score factor per band (top level, upper levels, windows,
  messages), applied with :class:`~rerank_plus.PriorBoost`; a band not named gets 1.
* ``freshness``: the recency weight, ``{"half_life_days", "weight"}`` for
  :class:`~rerank_plus.FreshnessBoost`, or None.
* ``mmr_lambda``: relevance against diversity in :class:`~rerank_plus.MaximalMarginalRelevance`
  (1: relevance only).
* ``drill_m``: the drill-down's breadth, how many items each cover group (the items under one
  picked summary) may give, per size tier: one int for every tier, or a mapping of the tiers
  to change.
* ``min_relevance``: the cut-off, a share of the best score under which an item no longer earns
  a place (what the drill-down kept passes it).

A detail question's shape (``time``: when something happened; ``list``: a set spread over
the conversation; ``current``: what holds now of something that changes; see
:mod:`rerank_plus.memory.query.shape`) has a policy of its own: detail's settings (the profile's
included), changed where the shape differs (:data:`~rerank_plus.memory.ready_made.SHAPE_KNOBS`,
and :data:`~rerank_plus.memory.ready_made.SHAPE_KNOBS_ACROSS_DAYS` where the memory's messages
span two days or more), then by ``memory.shapes.<shape>``, which takes the same six settings
(``memory.shapes: false``: every detail question reads detail's policy).

Beside them, ``memory.tiers`` (``small`` and ``medium``: the budgets in tokens up to which a
query is small or medium), ``memory.final_regions`` (with a final reranker, whether it also
picks the region a detail question drills into; default true) and ``memory.annotate_times``
(whether quoted messages get their relative times dated, "yesterday [2024-05-07]"; default
true). Everything else an intent does
(where it drills from, in what order it fills and shows the blocks, how many summaries it picks)
is its strategy, fixed in :mod:`rerank_plus.memory.ready_made` beside what chose it. A key not
listed here is refused with the list of known ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rerank_plus.compose.profiles import PROFILES, check_keys, read_config
from rerank_plus.memory.query.intent import INTENTS
from rerank_plus.memory.ready_made import (
    EVERY_INTENT,
    FRESHNESS,
    SHAPE_KNOBS,
    SHAPE_KNOBS_ACROSS_DAYS,
    SHAPE_STRATEGIES,
    STRATEGIES,
)
from rerank_plus.memory.ready_made import KNOBS as KNOBS_BY_INTENT
from rerank_plus.memory.ready_made import TIERS as READY_TIERS

#: Blocks of a context, in the order they appear: high-level summaries, window summaries
#: picked under them, verbatim messages.
BLOCKS = ("overview", "extracts", "quotes")
#: A coverage fill (and a drill-down) reads one item of its pool (in the pool's order) per this
#: many tokens of its allowance: an item shown costs at least a header and a sentence of five
#: words (about 12 tokens), so it chooses among about three times what could be shown, and a
#: large memory's drill-down (thousands of messages) costs no more than a small one's.
TOKENS_PER_READ = 4

TIERS = ("small", "medium", "large")
_BANDS = ("top", "upper", "windows", "messages")
#: The settings a profile may give each intent (see the module docstring).
KNOBS = ("quotas", "band_prior", "freshness", "mmr_lambda", "drill_m", "min_relevance")
_FRESHNESS = ("half_life_days", "weight")
_SECTION_KEYS = (*INTENTS, "shapes", "tiers", "final_regions", "annotate_times")
#: The shapes with a policy of their own (every other question reads its intent's).
SHAPED = tuple(SHAPE_KNOBS)


@dataclass(frozen=True)
class IntentPolicy:
    """One intent's settings, read from a profile (see the module docstring)."""

    intent: str
    quotas: Mapping[str, float]
    fusion: Mapping[str, Any] | str | None
    fill_order: tuple[str, ...]
    show_order: tuple[str, ...]
    band_prior: Mapping[str, float]
    freshness: Mapping[str, float] | None
    entity_boost: float
    mmr_lambda: float
    overview_items: Mapping[str, int]
    drill_from: str
    drill_picks: Mapping[str, int]
    drill_m: Mapping[str, int]
    drill_order: str
    grow: int
    min_relevance: float
    safe_drill: bool
    final_regions: bool
    lead_quotes: Mapping[str, int]
    #: the fewest lead quotes where the memory's messages span days (a chat kept over weeks)
    lead_quotes_across_days: Mapping[str, int]
    lead_breadth: bool
    quote_order: str
    coverage_blocks: tuple[str, ...]
    spread: Mapping[str, float] | None
    #: the detail question's shape this policy is for ("plain": every question of the intent)
    shape: str = "plain"


def _check_share(where: str, value: Any, upper: float = 1.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= upper:
        raise ValueError(f"{where} must be a number in [0, {upper:g}], got {value!r}.")
    return float(value)


def _check_count(where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{where} must be an int >= 0, got {value!r}.")
    return value


def _numbers(
    where: str, value: Any, defaults: Mapping[str, float], uppers: Mapping[str, float]
) -> dict[str, float]:
    """A setting made of numbers (``freshness``, ``spread``): the keys given, the others at
    their defaults, each in [0, its upper bound] (100 unless ``uppers`` says otherwise)."""
    check_keys(where, value, tuple(defaults))
    given = {**defaults, **value}
    return {
        key: _check_share(f"{where}.{key}", given[key], uppers.get(key, 100)) for key in defaults
    }


def _per_tier(where: str, value: Any, defaults: Mapping[str, int]) -> dict[str, int]:
    """A count per size tier: one int for every tier, or a mapping of some tiers (the others
    keep their defaults)."""
    if not isinstance(value, Mapping):
        value = dict.fromkeys(TIERS, value)
    check_keys(where, value, TIERS)
    given = {**defaults, **value}
    return {tier: _check_count(f"{where}.{tier}", given[tier]) for tier in TIERS}


def _overlaid(knobs: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """``knobs`` with ``changes`` (a mapping changes only the keys it names)."""
    merged = dict(knobs)
    for key, value in changes.items():
        base = merged.get(key)
        if isinstance(base, Mapping) and isinstance(value, Mapping):
            merged[key] = {**base, **value}
        else:
            merged[key] = value
    return merged


def _ready_knobs(intent: str) -> dict[str, Any]:
    """The ready-made settings of ``intent``: every intent's, then the intent's own."""
    return _overlaid(EVERY_INTENT, KNOBS_BY_INTENT[intent])


def _intent_policy(
    where: str,
    ready: Mapping[str, Any],
    settings: Mapping[str, Any],
    strategy: Mapping[str, Any],
    final_regions: bool,
) -> IntentPolicy:
    """The policy at ``where`` (``memory.detail``, ``memory.shapes.time``): the ``ready``
    settings changed by the profile's ``settings``, and the fixed ``strategy``."""
    check_keys(where, settings, KNOBS)
    merged = {**ready, **settings}
    given_quotas = merged["quotas"]
    check_keys(f"{where}.quotas", given_quotas, BLOCKS)
    quotas = {
        block: _check_share(f"{where}.quotas.{block}", given_quotas.get(block, 0.0))
        for block in BLOCKS
    }
    if sum(quotas.values()) <= 0:
        raise ValueError(f"{where}.quotas must give some share of the budget to a block.")
    given_prior = merged["band_prior"]
    check_keys(f"{where}.band_prior", given_prior, _BANDS)
    prior = {
        band: _check_share(f"{where}.band_prior.{band}", given_prior.get(band, 1.0), 10)
        for band in _BANDS
    }
    freshness = merged["freshness"]
    if freshness is not None:
        freshness = _numbers(f"{where}.freshness", freshness, FRESHNESS, {"half_life_days": 1e6})
    return IntentPolicy(
        quotas=quotas,
        band_prior=prior,
        freshness=freshness,
        mmr_lambda=_check_share(f"{where}.mmr_lambda", merged["mmr_lambda"]),
        drill_m=_per_tier(
            f"{where}.drill_m", merged["drill_m"], _per_tier(where, ready["drill_m"], {})
        ),
        min_relevance=_check_share(f"{where}.min_relevance", merged["min_relevance"]),
        final_regions=final_regions,
        **{
            **strategy,
            "lead_quotes": _per_tier(where, strategy["lead_quotes"], {}),
            "lead_quotes_across_days": _per_tier(where, strategy["lead_quotes_across_days"], {}),
        },
    )


def _shape_policies(
    shapes: Any, detail: IntentPolicy, final_regions: bool, across_days: bool
) -> dict[str, IntentPolicy]:
    """Each shape's policy: ``detail``'s settings (the profile's included), the shape's
    ready-made changes (and those of a memory kept over days, ``across_days``), then the
    profile's ``memory.shapes.<shape>``."""
    check_keys("memory.shapes", shapes, SHAPED)
    settings = {knob: getattr(detail, knob) for knob in KNOBS}
    return {
        shape: _intent_policy(
            f"memory.shapes.{shape}",
            _overlaid(
                _overlaid(settings, SHAPE_KNOBS[shape]),
                SHAPE_KNOBS_ACROSS_DAYS.get(shape, {}) if across_days else {},
            ),
            shapes.get(shape, {}),
            {**STRATEGIES["detail"], **SHAPE_STRATEGIES[shape], "intent": "detail", "shape": shape},
            final_regions,
        )
        for shape in SHAPED
    }


@dataclass(frozen=True)
class MemoryProfile:
    """The four intents' policies, the size tiers, the light stage's fusion options, and the
    policies of a detail question's shapes."""

    policies: Mapping[str, IntentPolicy]
    tiers: Mapping[str, int]
    fusion: Mapping[str, Any] | str
    #: date the relative times of quoted messages (:mod:`rerank_plus.memory.context.time_notes`)
    annotate_times: bool = True
    shapes: Mapping[str, IntentPolicy] = field(default_factory=dict)
    #: the shapes' policies for a memory whose messages span two days or more
    shapes_across_days: Mapping[str, IntentPolicy] = field(default_factory=dict)

    def policy(
        self, intent: str, shape: str = "plain", *, across_days: bool = False
    ) -> IntentPolicy:
        """The policy of a question of ``intent`` and ``shape`` (asked of a memory whose
        messages span days when ``across_days``): its shape's for a detail question of a
        shape that has one, else its intent's."""
        shapes = self.shapes_across_days if across_days else self.shapes
        if intent == "detail" and shape in shapes:
            return shapes[shape]
        return self.policies[intent]

    def tier(self, max_tokens: int) -> str:
        """``small`` up to ``tiers["small"]`` tokens, ``medium`` up to ``tiers["medium"]``,
        ``large`` above."""
        if max_tokens <= self.tiers["small"]:
            return "small"
        return "medium" if max_tokens <= self.tiers["medium"] else "large"


def memory_profile(source: Mapping[str, Any] | str | Path | None = None) -> MemoryProfile:
    """The ready-made profile (``None``), or one read from a dict or a JSON/YAML file whose
    ``memory`` section overrides it.

    >>> profile = memory_profile({"memory": {"detail": {"drill_m": {"medium": 4}}}})
    >>> profile.policies["detail"].drill_m
    {'small': 8, 'medium': 4, 'large': 30}
    """
    if isinstance(source, (str, Path)):
        if not Path(source).is_file():
            _not_a_profile(source)
        source = Path(source)  # a file, even one named as a rerank profile
    config = {} if source is None else read_config(source)
    check_keys("the memory profile", config, ("fusion", "memory"))
    section = config.get("memory", {})
    check_keys("memory", section, _SECTION_KEYS)
    check_keys("memory.tiers", section.get("tiers", {}), ("small", "medium"))
    tiers = {**READY_TIERS, **section.get("tiers", {})}
    for name in ("small", "medium"):
        _check_count(f"memory.tiers.{name}", tiers[name])
    if tiers["small"] > tiers["medium"]:
        raise ValueError("memory.tiers.small must not exceed memory.tiers.medium.")
    final_regions, annotate_times = (
        _check_flag(section, "final_regions"),
        _check_flag(section, "annotate_times"),
    )
    policies = {
        intent: _intent_policy(
            f"memory.{intent}",
            _ready_knobs(intent),
            section.get(intent, {}),
            {**STRATEGIES[intent], "intent": intent},
            final_regions,
        )
        for intent in INTENTS
    }
    given = section.get("shapes", {})
    shapes, over_days = (
        ({}, {})
        if given is False
        else (
            _shape_policies(given, policies["detail"], final_regions, across_days)
            for across_days in (False, True)
        )
    )
    return MemoryProfile(
        policies,
        tiers,
        config.get("fusion", {"method": "rrf"}),
        annotate_times=annotate_times,
        shapes=shapes,
        shapes_across_days=over_days,
    )


def _check_flag(section: Mapping[str, Any], name: str) -> bool:
    """``memory.<name>``, true unless the profile says false."""
    value = section.get(name, True)
    if not isinstance(value, bool):
        raise ValueError(f"memory.{name} must be true or false, got {value!r}.")
    return value


def _not_a_profile(source: str | Path) -> None:
    """Refuse a name that is no file: a rerank profile's name (``detail`` is an intent too), a
    file that is missing, naming what a memory profile may be."""
    name = str(source)
    what = (
        "a rerank profile (from_config's), not a memory profile"
        if name in PROFILES
        else "not a file"
    )
    hint = (
        f"; to force an intent, retrieve(question, intent={name!r})"
        if name in INTENTS
        else f"; to force a shape, retrieve(question, shape={name!r})"
        if name in SHAPED
        else ""
    )
    raise ValueError(
        f"{name!r} is {what}. A memory profile is None (the ready-made one), a dict or a "
        f"JSON/YAML file with a 'memory' section (keys: {', '.join(_SECTION_KEYS)}){hint}."
    )
