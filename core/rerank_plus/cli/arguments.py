"""Argument types for the command line: a bad value fails at parse time, in one line, exit 2."""

from __future__ import annotations

import argparse
import math
from pathlib import Path


def positive_int(text: str) -> int:
    """``--top-n``, ``--k``: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, got {text!r}")
    return value


def unit_interval(text: str) -> float:
    """``--threshold``: compared with relevance_score, so a number in [0, 1]."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be a number in [0, 1], got {text!r}")
    return value


def existing_file(text: str) -> str:
    """A file that must be there before any work starts (``--run``)."""
    if not Path(text).is_file():
        raise argparse.ArgumentTypeError(f"no such file: {text!r}")
    return text


def language_code(text: str) -> str:
    """``--lang``: a supported ISO 639-1 code (en, zh, th, ...) or ``und`` (language-neutral)."""
    from rerank_plus.analysis.languages import NEUTRAL, supported_languages

    code = text.strip().lower()
    if code != NEUTRAL and code not in supported_languages():
        raise argparse.ArgumentTypeError(
            f"unknown language code {text!r}; use an ISO 639-1 code such as en, zh, th, "
            f"or {NEUTRAL} for the language-neutral analysis"
        )
    return code


def first_stage_spec(text: str) -> str:
    """``--first-stage``: ``bm25`` or ``dense:MODEL``."""
    if text == "bm25" or (text.startswith("dense:") and len(text) > len("dense:")):
        return text
    raise argparse.ArgumentTypeError(
        f"unknown first stage {text!r}; use bm25 or dense:MODEL (dense:minilm works offline)"
    )
