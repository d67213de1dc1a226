"""Backoff: capped exponential with full jitter, and Retry-After in both of its forms."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

from rerank_plus.scoring.remote.retry import RetryPolicy, parse_retry_after


def test_retry_after_seconds_date_and_garbage() -> None:
    assert parse_retry_after("3") == 3.0
    soon = format_datetime(datetime.now(timezone.utc) + timedelta(seconds=30), usegmt=True)
    assert 25 <= (parse_retry_after(soon) or 0) <= 30
    past = format_datetime(datetime.now(timezone.utc) - timedelta(days=1), usegmt=True)
    assert parse_retry_after(past) == 0.0
    assert parse_retry_after(None) is None
    assert parse_retry_after("soon") is None


def test_backoff_doubles_up_to_the_cap_and_jitter_stays_below_it() -> None:
    fixed = RetryPolicy(base_delay=0.5, max_delay=3.0, jitter=False)
    assert [fixed.delay(n, None) for n in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    jittered = RetryPolicy(base_delay=0.5, max_delay=3.0)
    assert all(0 <= jittered.delay(3, None) <= 3.0 for _ in range(200))


def test_retry_after_wins_but_is_capped() -> None:
    policy = RetryPolicy(base_delay=0.1, max_delay=10.0)
    assert policy.delay(0, "7") == 7.0
    assert policy.delay(0, "3600") == 10.0
