"""The ready-made memory policy, as data: the settings a profile may change (``KNOBS``) and
what each intent's strategy fixes (``STRATEGIES``), each number beside what chose it.

``KNOBS`` are written once for every intent (``EVERY_INTENT``) and then only where an intent
differs, so each number here is a decision. Measurements are on QMSum's train meetings and on
passage collections read as conversations (docs/memory.md, "Evaluation"), unless said.
"""

from __future__ import annotations

from typing import Any

#: The size tiers: ``small`` up to this many tokens, ``medium`` up to the next, ``large`` above.
TIERS = {"small": 1000, "medium": 3000}

#: The recency weight where an intent has one (a ``freshness`` setting's keys not given).
FRESHNESS = {"half_life_days": 1.0, "weight": 2.0}

#: What every intent starts from (see :mod:`rerank_plus.memory.policy` for each knob).
EVERY_INTENT: dict[str, Any] = {
    "quotas": {"overview": 0.2, "extracts": 0.4, "quotes": 0.4},
    "band_prior": {"top": 0.9, "upper": 1.0, "windows": 1.1, "messages": 1.2},
    "freshness": None,
    "mmr_lambda": 0.8,
    "min_relevance": 0.0,
    "drill_m": {"small": 8, "medium": 20, "large": 30},
}

#: Where each intent differs from ``EVERY_INTENT``.
KNOBS: dict[str, dict[str, Any]] = {
    # Broad questions read the whole memory: the top summaries weigh more, every level counts,
    # and novelty matters as much as relevance.
    "synthesis": {
        "band_prior": {"top": 1.3, "upper": 1.15, "windows": 1.0, "messages": 0.9},
        "mmr_lambda": 0.5,
        "drill_m": 4,
    },
    # Precise questions: the quotes take the budget (on QMSum's train meetings every share given
    # to summaries cost recall); a message under 15% of the best score is cut unless drilled.
    "detail": {
        "quotas": {"overview": 0.0, "extracts": 0.0, "quotes": 1.0},
        "mmr_lambda": 0.95,
        "min_relevance": 0.15,
    },
    # "What's new": a day's half-life, strong enough to lead the ranking.
    "recent": {
        "band_prior": {"messages": 1.1},
        "freshness": FRESHNESS,
        "drill_m": {"medium": 12, "large": 20},
    },
    # "Where do we talk about X": the messages naming X first.
    "entity": {
        "quotas": {"overview": 0.2, "extracts": 0.3, "quotes": 0.5},
        "band_prior": {"windows": 1.05},
        "drill_m": {"small": 12},
    },
}

#: A precise question asked of a chat kept over days (its messages span two days or more): at
#: least this many of the best single messages found anywhere lead the quotes, each under its
#: own dated header, before the stretches of the best regions. One sitting reads one region
#: deeply; over weeks the answer may be any session's, and what a person says of themselves
#: comes in passing, in several sessions ("would Cleo like a cooking class?": "I made
#: sourdough this weekend", weeks later "kneading dough is my ritual"). A chat message with
#: its header is about 30 tokens: 3, 12 and 16 take an eighth, a fifth and a tenth of 700,
#: 2,000 and 4,000 tokens, the rest staying with the regions. Gold recall on the development
#: chats (``rerank-plus memory eval --data benchmarks/data/chats --embedder minilm``, 216
#: questions) with detail's one lead quote -> 6 (plain questions only) / 12 / 20 at 2,000
#: tokens: overall 0.758 -> 0.770 / 0.779 / 0.792, open-domain 0.486 -> 0.528 / 0.569 / 0.583,
#: multi-hop 0.537 -> 0.565 / 0.565 / 0.574; at 700 tokens 1 -> 3 / 4: overall 0.694 -> 0.703
#: / 0.706,
#: single-hop 0.759 -> 0.778 / 0.778. More keeps helping there, but those chats favour single
#: messages (their small talk is drawn at random, so an answer's neighbours never continue
#: it, docs/memory.md): the counts stop where the leads would take more than a fifth of the
#: budget from the regions, which on real chats carry the answers one message does not hold.
#: A memory of one day (a meeting) keeps ``lead_quotes``: QMSum's meetings read as before.
LEAD_QUOTES_ACROSS_DAYS = {"small": 3, "medium": 12, "large": 16}

#: How each intent finds and shows its context: fixed by the design and its measurements, not
#: profile settings (docs/memory.md, "Retrieval, step by step").
STRATEGIES: dict[str, dict[str, Any]] = {
    # Broad questions: the sentences that say the most of the whole memory (coverage), from the
    # top summaries, the window summaries and the messages drilled from the top. On QMSum's
    # train meetings this carried 2 to 5.5 points more of a reference summary's words than
    # whole summaries in order of likeness to "summarize the meeting". The spread (a sentence
    # far from what is shown gains): topic coverage at 700 tokens 0.957 -> 0.975, answer
    # recall 0.285 -> 0.267 (-0.3 to -1.4 at 2,000).
    "synthesis": {
        "fusion": None,
        "fill_order": ("overview", "extracts", "quotes"),
        "show_order": ("overview", "extracts", "quotes"),
        "entity_boost": 1.0,
        "overview_items": {"small": 4, "medium": 4, "large": 4},
        "drill_from": "top",
        "drill_picks": {"small": 4, "medium": 6, "large": 8},
        "drill_order": "round_robin",
        "grow": 0,
        "safe_drill": False,
        "lead_quotes": 0,
        "lead_quotes_across_days": 0,
        "lead_breadth": False,
        "quote_order": "best_first",
        "coverage_blocks": ("overview", "extracts", "quotes"),
        "spread": {"gap": 0.06, "weight": 1.5},
    },
    # Precise questions: the messages of the best regions, verbatim, the best message first
    # (more hits at 700 tokens, +2 points on QMSum's train meetings, +0.5 to +5 on passages in
    # five languages). Fusion min-max scaled: DBSF clips every score three deviations above the
    # pool's mean to 1 and the dense half then orders the lexical best (gold recall at 700
    # tokens +1.9 German, +2.2 French). At 700 tokens two windows only, so that the best
    # messages found anywhere still fit.
    "detail": {
        "fusion": {"method": "weighted", "normalization": "minmax"},
        "fill_order": ("quotes", "extracts", "overview"),
        "show_order": ("quotes", "extracts", "overview"),
        "entity_boost": 1.3,
        "overview_items": {"small": 0, "medium": 1, "large": 2},
        "drill_from": "regions",
        "drill_picks": {"small": 2, "medium": 6, "large": 10},
        "drill_order": "grouped",
        "grow": 2,
        "safe_drill": True,
        "lead_quotes": 1,
        "lead_quotes_across_days": LEAD_QUOTES_ACROSS_DAYS,
        "lead_breadth": False,
        "quote_order": "best_first",
        "coverage_blocks": (),
        "spread": None,
    },
    # "What's new": the latest windows and messages, quotes filled first.
    "recent": {
        "fusion": None,
        "fill_order": ("quotes", "extracts", "overview"),
        "show_order": ("overview", "extracts", "quotes"),
        "entity_boost": 1.1,
        "overview_items": {"small": 1, "medium": 1, "large": 2},
        "drill_from": "windows",
        "drill_picks": {"small": 2, "medium": 4, "large": 8},
        "drill_order": "grouped",
        "grow": 0,
        "safe_drill": False,
        "lead_quotes": 0,
        "lead_quotes_across_days": 0,
        "lead_breadth": False,
        "quote_order": "best_first",
        "coverage_blocks": (),
        "spread": None,
    },
    # "Where do we talk about X": messages naming X first, then what is semantically close.
    "entity": {
        "fusion": None,
        "fill_order": ("quotes", "extracts", "overview"),
        "show_order": ("quotes", "extracts", "overview"),
        "entity_boost": 1.3,
        "overview_items": {"small": 1, "medium": 2, "large": 2},
        "drill_from": "windows",
        "drill_picks": {"small": 3, "medium": 6, "large": 10},
        "drill_order": "grouped",
        "grow": 2,
        "safe_drill": False,
        "lead_quotes": 0,
        "lead_quotes_across_days": 0,
        "lead_breadth": False,
        "quote_order": "best_first",
        "coverage_blocks": (),
        "spread": None,
    },
}

#: Where a detail question's shape (``time``, ``list``, ``current``: see
#: :mod:`rerank_plus.memory.query.shape`) changes detail's settings; a profile's
#: ``memory.shapes.<shape>`` changes them further. Measured with the shape given by each
#: question's category (``rerank-plus memory eval --data benchmarks/data/chats``: nine chats in
#: English, French and German, 216 questions; all-MiniLM-L6-v2 unless said; docs/memory.md).
SHAPE_KNOBS: dict[str, dict[str, Any]] = {
    # "When did ...": detail's settings; only the lead quotes change (below).
    "time": {},
    # "Which cities has Ana visited?": at most two messages of each picked window ("one or two
    # best messages per session"); with one each, multi-hop recall was 0.472 / 0.546 at 700 /
    # 2,000 tokens, with two 0.491 / 0.556, with detail's 8 to 30 0.352 / 0.472.
    "list": {"drill_m": 2},
    # "Where does Ana live now?": detail's settings in one sitting (below: over days); the
    # order of the quotes changes (SHAPE_STRATEGIES). A freshness boost (30 days' half-life,
    # weight 0.25 to 1.0, counted from the newest message) lifted recent small talk over older
    # statements that match weakly: recall 0.679 -> 0.642 at 700 tokens with weight 1.0, and
    # never the newest first more than 10 times in 20.
    "current": {},
}

#: Where a shape's settings change further in a memory whose messages span two days or more
#: (a chat kept over weeks), before the profile's ``memory.shapes.<shape>``.
SHAPE_KNOBS_ACROSS_DAYS: dict[str, dict[str, Any]] = {
    # "Where does Ana live now?" asked of a chat: the statements of a changed fact sit in
    # different sessions, so, as for a list, at most two messages of each picked window, the
    # budget going to more windows' best messages; and no cut-off under the best score: the
    # statements often share no word with the question ("first night in our new place in
    # Croydon"), only the dense half finds them, while a word used in another sense ("were
    # they good live?") sets the best score, so 15% of it cut them (both of Maya's statements
    # at 2,000 tokens). Current-state recall on the development chats at 700 / 2,000 tokens
    # (27 questions, with the cue fix of :mod:`.query.intent`): detail's settings 0.778 /
    # 0.796, drill_m 2 0.815 / 0.852, and min_relevance 0 0.833 / 0.889 (alone, without drill_m
    # 2: 0.778 / 0.796; the best flat baseline, single messages by embedding, 0.778 / 0.870).
    # In one sitting a current question is one region's discussion: on QMSum's test meetings
    # (``--lexical-only``) these settings cost 0.2 / 0.5 / 0.6 points of gold recall at 700 /
    # 2,000 / 4,000 tokens, so a meeting keeps detail's.
    "current": {"drill_m": 2, "min_relevance": 0.0},
}

#: Where a shape's strategy differs from detail's.
SHAPE_STRATEGIES: dict[str, dict[str, Any]] = {
    # The best single messages found anywhere first, each a quote under its own header (its own
    # date), then detail's stretches. Three at a small budget: a chat message with its header is
    # about 30 tokens, so three take a seventh of 700; six and eight above, a tenth of the
    # tiers' budgets. (Time questions of the development chats are found by every method, 0.94
    # to 0.95 either way: the count is set by the share of the budget, not by a gain there.)
    "time": {"lead_quotes": {"small": 3, "medium": 6, "large": 8}},
    # Breadth before depth: the lead quotes one per window (the best of each of the best
    # windows), then the best windows drilled round-robin (each window's best message before
    # any second one), no neighbours grown. Three picks at a small budget (detail's two read
    # one stretch and its neighbour), detail's six and ten above. Multi-hop recall at 700 /
    # 2,000 tokens 0.259 / 0.426 -> 0.491 / 0.556 (the best flat baseline, single messages by
    # embedding, 0.324 / 0.481); lexical-only 0.139 / 0.315 -> 0.157 / 0.250 (BM25 finds no
    # word of "which cities has Ana visited" in "back from Lisbon", so breadth reads windows
    # chosen by the name alone).
    "list": {
        "lead_quotes": {"small": 3, "medium": 6, "large": 8},
        "lead_breadth": True,
        "drill_picks": {"small": 3, "medium": 6, "large": 10},
        "drill_order": "round_robin",
        "grow": 0,
    },
    # The statements about the subject from several windows (a changed fact is stated in
    # different sessions), shown newest first with their dates (quote_order.py), the guidance
    # saying so: the newest statement came first in 19 of 19 contexts holding two or more,
    # against 1 to 2 of 19 best first.
    "current": {
        "lead_quotes": {"small": 3, "medium": 6, "large": 8},
        "lead_breadth": True,
        "quote_order": "newest_first",
    },
}
