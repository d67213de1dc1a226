"""The memory policy as data: per intent, how the budget is split and how items are scored.

A profile is the library's profile shape (``fusion`` for the light stage, see
:mod:`rerank_plus.compose.profiles`) with a ``memory`` section::

    {"fusion": {"method": "rrf"},
     "memory": {"tiers": {"small": 1000, "medium": 3000},
                "detail": {"quotas": {"overview": 0.2, "extracts": 0.3, "quotes": 0.5}}}}

Per intent (``synthesis``, ``detail``, ``recent``, ``entity``):

* ``quotas``: shares of ``max_tokens`` per block (overview = the upper summary levels, extracts =
  window summaries, quotes = raw messages). Soft: what a block leaves unused goes to the next
  block in ``fill_order``.
* ``show_order``: the order the blocks are shown in: the overview first for a broad question
  (the big picture, then its evidence), the quotes first for a precise one (the answer's own
  words lead; readers and models attend most to the start of a context).
* ``band_prior``: a level prior, a score factor per band (top level, upper levels, windows,
  messages), applied with :class:`~rerank_plus.PriorBoost`.
* ``freshness``: ``{"half_life_days", "weight"}`` for :class:`~rerank_plus.FreshnessBoost`, or
  None.
* ``entity_boost``: a score factor for items that name an entity of the question (in their
  text, tags or entities, or as the speaker of a message or of a window's messages), applied
  with :class:`~rerank_plus.PriorBoost`; 1 turns it off.
* ``mmr_lambda``: relevance against novelty in :class:`~rerank_plus.MaximalMarginalRelevance`.
* ``overview_items``: per size tier (small, medium, large), how many high-level summaries the
  overview holds at most. This and the other per-tier counts take one int for every tier, or
  a mapping of the tiers to change.
* ``fusion``: the light stage's fusion for this intent (the library's fusion options, see
  :func:`~rerank_plus.combine.build_fusion`), or None for the profile's ``fusion``.
* ``drill_from``: where the drill-down starts: ``top`` (the highest level: breadth for broad
  questions), ``windows`` (the best window summaries) or ``regions`` (windows ranked with
  their best message and their neighbours, :mod:`rerank_plus.memory.retrieve.locate`: where a
  precise answer sits); ``neighbour_weight``, how much a window's better neighbour adds to its
  region score; ``drill_picks`` per tier, how many items it starts from; ``drill_m`` per
  tier, how many items each cover group may give; ``drill_order``: ``round_robin`` across
  groups (breadth) or ``grouped`` (the best group's items first: a contiguous stretch of the
  conversation); ``grow``: how many of the best windows bring their neighbouring windows
  along (an answer often runs past a window's edge); 0 turns it off.
* ``min_relevance``: the dynamic cutoff, a share of the best score under which an item no
  longer earns a place (the marginal gain has dropped); what the drill-down kept passes it.
* ``safe_drill``: drill again when the quotes hold none of a detail query's keywords.
* ``final_regions``: with ``drill_from: regions`` and a final reranker, the final reranker
  re-scores the best messages before the regions are ranked, so the strong model picks the
  region the drill-down reads; false leaves it to the light stage.
* ``lead_quotes``: how many of the best messages found anywhere come before the drilled ones
  in the quotes' fill (the best single message is where a precise answer most often is, and
  the stretch drilled from the best region may not hold it), and the best one's window takes
  the second drilled place when it ranks above the window there; 0 leaves the drill first.
* ``coverage_blocks``: the blocks filled sentence by sentence for the terms they add to the
  context rather than item by item in order of relevance
  (:mod:`rerank_plus.memory.context.coverage`).
* ``spread``: ``{"gap", "weight"}``, or None: a coverage fill's picks spread over the
  conversation (:class:`~rerank_plus.memory.context.coverage.Timeline`): a sentence gains up to
  ``weight`` times the weight of the memory's most used term for standing ``gap`` (a share of
  the conversation, 0 to 1) or more from everything shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rerank_plus.combine.registry import build_fusion
from rerank_plus.compose.profiles import check_keys, read_config
from rerank_plus.memory.query.intent import INTENTS

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
#: The recent intent's freshness, and what a ``freshness`` setting leaves out.
_DEFAULT_FRESHNESS = {"half_life_days": 1.0, "weight": 2.0}
#: Synthesis's spread over the conversation, and what a ``spread`` setting leaves out.
_DEFAULT_SPREAD = {"gap": 0.06, "weight": 1.5}

_DEFAULTS: dict[str, dict[str, Any]] = {
    # Broad questions: the sentences that say the most of the whole memory (coverage), from
    # the top summaries, the window summaries and the messages drilled from the top (their own
    # words carry more of what an answer names). On QMSum's train meetings this carried 2 to
    # 5.5 points more of a reference summary's words than whole summaries in order of likeness
    # to "summarize the meeting", and covered more of the meetings' topics at 700 tokens.
    "synthesis": {
        "quotas": {"overview": 0.2, "extracts": 0.4, "quotes": 0.4},
        "fusion": None,
        "fill_order": ["overview", "extracts", "quotes"],
        "show_order": ["overview", "extracts", "quotes"],
        "band_prior": {"top": 1.3, "upper": 1.15, "windows": 1.0, "messages": 0.9},
        "freshness": None,
        "entity_boost": 1.0,
        "mmr_lambda": 0.5,
        "overview_items": {"small": 4, "medium": 4, "large": 4},
        "drill_m": {"small": 4, "medium": 4, "large": 4},
        "drill_from": "top",
        "neighbour_weight": 0.0,
        "drill_picks": {"small": 4, "medium": 6, "large": 8},
        "drill_order": "round_robin",
        "grow": 0,
        "min_relevance": 0.0,
        "safe_drill": False,
        "final_regions": True,
        "lead_quotes": 0,
        "coverage_blocks": ["overview", "extracts", "quotes"],
        # a sentence far from what is shown gains: topics said once (an opening review,
        # petitions) are not passed over. On QMSum's train meetings at 700 tokens, topic
        # coverage 0.957 -> 0.975, answer recall 0.285 -> 0.267 (-0.3 to -1.4 at 2,000)
        "spread": _DEFAULT_SPREAD,
    },
    # Precise questions: the messages under the best windows, verbatim. Summaries get only
    # what the quotes leave: on QMSum's train meetings every share given to them cost recall.
    "detail": {
        "quotas": {"overview": 0.0, "extracts": 0.0, "quotes": 1.0},
        # min-max: DBSF clips every score three deviations above the pool's mean to 1, and the
        # dense half then orders the lexical best among themselves (noise where the model
        # reads the language poorly; gold recall at 700 tokens +1.9 German, +2.2 French)
        "fusion": {"method": "weighted", "normalization": "minmax"},
        "fill_order": ["quotes", "extracts", "overview"],
        "show_order": ["quotes", "extracts", "overview"],
        "band_prior": {"top": 0.9, "upper": 1.0, "windows": 1.1, "messages": 1.2},
        "freshness": None,
        "entity_boost": 1.3,
        "mmr_lambda": 0.95,
        "overview_items": {"small": 0, "medium": 1, "large": 2},
        # small: the best window and the next one, a few messages each, so that the best
        # messages found anywhere still fit (more hits at 700 tokens, the same recall)
        "drill_m": {"small": 8, "medium": 20, "large": 30},
        "drill_from": "regions",
        "neighbour_weight": 0.25,
        "drill_picks": {"small": 2, "medium": 6, "large": 10},
        "drill_order": "grouped",
        "grow": 2,
        "min_relevance": 0.15,
        "safe_drill": True,
        "final_regions": True,
        # the best message first: more hits at 700 tokens, +2 points on QMSum's train
        # meetings, +0.5 to +5 on passages read as a conversation (XQuAD, five languages)
        "lead_quotes": 1,
        "coverage_blocks": [],
        "spread": None,
    },
    # "What's new": the latest windows and messages first.
    "recent": {
        "quotas": {"overview": 0.2, "extracts": 0.4, "quotes": 0.4},
        "fusion": None,
        "fill_order": ["quotes", "extracts", "overview"],
        "show_order": ["overview", "extracts", "quotes"],
        "band_prior": {"top": 0.9, "upper": 1.0, "windows": 1.1, "messages": 1.1},
        "freshness": _DEFAULT_FRESHNESS,
        "entity_boost": 1.1,
        "mmr_lambda": 0.8,
        "overview_items": {"small": 1, "medium": 1, "large": 2},
        "drill_m": {"small": 8, "medium": 12, "large": 20},
        "drill_from": "windows",
        "neighbour_weight": 0.0,
        "drill_picks": {"small": 2, "medium": 4, "large": 8},
        "drill_order": "grouped",
        "grow": 0,
        "min_relevance": 0.0,
        "safe_drill": False,
        "final_regions": True,
        "lead_quotes": 0,
        "coverage_blocks": [],
        "spread": None,
    },
    # "Where do we talk about X": messages naming X first, then what is semantically close.
    "entity": {
        "quotas": {"overview": 0.2, "extracts": 0.3, "quotes": 0.5},
        "fusion": None,
        "fill_order": ["quotes", "extracts", "overview"],
        "show_order": ["quotes", "extracts", "overview"],
        "band_prior": {"top": 0.9, "upper": 1.0, "windows": 1.05, "messages": 1.2},
        "freshness": None,
        "entity_boost": 1.3,
        "mmr_lambda": 0.8,
        "overview_items": {"small": 1, "medium": 2, "large": 2},
        "drill_m": {"small": 12, "medium": 20, "large": 30},
        "drill_from": "windows",
        "neighbour_weight": 0.0,
        "drill_picks": {"small": 3, "medium": 6, "large": 10},
        "drill_order": "grouped",
        "grow": 2,
        "min_relevance": 0.0,
        "safe_drill": False,
        "final_regions": True,
        "lead_quotes": 0,
        "coverage_blocks": [],
        "spread": None,
    },
}
_DEFAULT_TIERS = {"small": 1000, "medium": 3000}
_SECTION_KEYS = (*INTENTS, "tiers")


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
    neighbour_weight: float
    drill_picks: Mapping[str, int]
    drill_m: Mapping[str, int]
    drill_order: str
    grow: int
    min_relevance: float
    safe_drill: bool
    final_regions: bool
    lead_quotes: int
    coverage_blocks: tuple[str, ...]
    spread: Mapping[str, float] | None


def _check_share(where: str, value: Any, upper: float = 1.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= upper:
        raise ValueError(f"{where} must be a number in [0, {upper:g}], got {value!r}.")
    return float(value)


def _check_count(where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{where} must be an int >= 0, got {value!r}.")
    return value


def _check_choice(where: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{where} must be one of {', '.join(choices)}, got {value!r}.")
    return str(value)


def _check_fusion(where: str, value: Any) -> Mapping[str, Any] | str | None:
    """The fusion options as given, once the library has built a fusion from them."""
    if value is not None:
        try:
            build_fusion(value)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{where}: {error}") from error
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


def _block_order(where: str, value: Any) -> tuple[str, ...]:
    order = tuple(value)
    if sorted(order) != ["extracts", "overview", "quotes"]:
        raise ValueError(f"{where} must name overview, extracts and quotes once each, got {order}.")
    return order


def _blocks(where: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise ValueError(f"{where} must be a list of block names, got {value!r}.")
    unknown = [block for block in value if block not in BLOCKS]
    if unknown:
        raise ValueError(
            f"{where} names unknown block(s) {unknown}; use overview, extracts or quotes."
        )
    return tuple(dict.fromkeys(value))


def _intent_policy(intent: str, settings: Mapping[str, Any]) -> IntentPolicy:
    where = f"memory.{intent}"
    check_keys(where, settings, tuple(sorted(_DEFAULTS[intent])))
    merged = {**_DEFAULTS[intent], **settings}
    given_quotas = merged["quotas"]
    check_keys(f"{where}.quotas", given_quotas, BLOCKS)
    quotas = {
        block: _check_share(f"{where}.quotas.{block}", given_quotas.get(block, 0.0))
        for block in BLOCKS
    }
    if sum(quotas.values()) <= 0:
        raise ValueError(f"{where}.quotas must give some share of the budget to a block.")
    order = _block_order(f"{where}.fill_order", merged["fill_order"])
    given_prior = merged["band_prior"]
    check_keys(f"{where}.band_prior", given_prior, _BANDS)
    prior = {
        band: _check_share(f"{where}.band_prior.{band}", given_prior.get(band, 1.0), 10)
        for band in _BANDS
    }
    freshness = merged["freshness"]
    if freshness is not None:
        freshness = _numbers(
            f"{where}.freshness", freshness, _DEFAULT_FRESHNESS, {"half_life_days": 1e6}
        )
    spread = merged["spread"]
    if spread is not None:
        spread = _numbers(f"{where}.spread", spread, _DEFAULT_SPREAD, {"gap": 1.0})
        if spread["gap"] <= 0:
            raise ValueError(f"{where}.spread.gap must be a share of the conversation in (0, 1].")
    return IntentPolicy(
        intent=intent,
        quotas=quotas,
        fusion=_check_fusion(f"{where}.fusion", merged["fusion"]),
        fill_order=order,
        show_order=_block_order(f"{where}.show_order", merged["show_order"]),
        band_prior=prior,
        freshness=freshness,
        entity_boost=_check_share(f"{where}.entity_boost", merged["entity_boost"], 10),
        mmr_lambda=_check_share(f"{where}.mmr_lambda", merged["mmr_lambda"]),
        overview_items=_per_tier(
            f"{where}.overview_items", merged["overview_items"], _DEFAULTS[intent]["overview_items"]
        ),
        drill_from=_check_choice(
            f"{where}.drill_from", merged["drill_from"], ("top", "windows", "regions")
        ),
        neighbour_weight=_check_share(f"{where}.neighbour_weight", merged["neighbour_weight"]),
        drill_picks=_per_tier(
            f"{where}.drill_picks", merged["drill_picks"], _DEFAULTS[intent]["drill_picks"]
        ),
        drill_m=_per_tier(f"{where}.drill_m", merged["drill_m"], _DEFAULTS[intent]["drill_m"]),
        drill_order=_check_choice(
            f"{where}.drill_order", merged["drill_order"], ("round_robin", "grouped")
        ),
        grow=_check_count(f"{where}.grow", merged["grow"]),
        min_relevance=_check_share(f"{where}.min_relevance", merged["min_relevance"]),
        safe_drill=bool(merged["safe_drill"]),
        final_regions=bool(merged["final_regions"]),
        lead_quotes=_check_count(f"{where}.lead_quotes", merged["lead_quotes"]),
        coverage_blocks=_blocks(f"{where}.coverage_blocks", merged["coverage_blocks"]),
        spread=spread,
    )


@dataclass(frozen=True)
class MemoryProfile:
    """The four intents' policies, the size tiers and the light stage's fusion options."""

    policies: Mapping[str, IntentPolicy]
    tiers: Mapping[str, int]
    fusion: Mapping[str, Any] | str

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
    config = {} if source is None else read_config(source)
    check_keys("the memory profile", config, ("fusion", "memory"))
    section = config.get("memory", {})
    check_keys("memory", section, _SECTION_KEYS)
    check_keys("memory.tiers", section.get("tiers", {}), ("small", "medium"))
    tiers = {**_DEFAULT_TIERS, **section.get("tiers", {})}
    for name in ("small", "medium"):
        _check_count(f"memory.tiers.{name}", tiers[name])
    if tiers["small"] > tiers["medium"]:
        raise ValueError("memory.tiers.small must not exceed memory.tiers.medium.")
    policies = {intent: _intent_policy(intent, section.get(intent, {})) for intent in INTENTS}
    return MemoryProfile(policies, tiers, config.get("fusion", {"method": "rrf"}))
