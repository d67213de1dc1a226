"""Who summarizes a namespace: a lease on its row, so that one process at a time runs the
summarizer on it, without holding any database lock while the model runs.

A lease is taken in a short write transaction (owner and expiry on the namespace's row),
renewed while the summarizer works, and dropped when the new summaries are stored. A lease
whose owner died is free again when it expires, or at once when the owner was a process of
this machine that no longer exists (what a crash leaves; the next open or flush catches up).
The summaries themselves are stored only if the namespace's ``generation`` is still the one
the lease was taken on (a compare-and-set), so two processes never store two summaries of
the same messages, even if a lease expired under a slow owner.
"""

from __future__ import annotations

import os
import socket
import time
import uuid

from rerank_plus.memory.store.database import Transaction
from rerank_plus.memory.store.rows import NamespaceState

#: Seconds a lease lasts without renewal: the longest a crashed owner on another machine
#: delays the next summary (one on this machine is noticed at once).
LEASE_SECONDS = 60.0
#: Seconds between renewals while summarizing (well inside the lease).
RENEW_SECONDS = 10.0


def new_owner() -> str:
    """A lease owner's name: this machine, this process, and a token of its own."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


def free(current: NamespaceState, now: float) -> bool:
    """Whether nobody holds the namespace's lease (none, expired, or its process is gone)."""
    owner, until = current.lease_owner, current.lease_until
    if owner is None or until is None or until < now:
        return True
    parts = owner.rsplit(":", 2)
    if len(parts) != 3 or parts[0] != socket.gethostname() or not parts[1].isdigit():
        return False
    pid = int(parts[1])
    return pid != os.getpid() and not _alive(pid)


def take(transaction: Transaction, current: NamespaceState, owner: str) -> None:
    """Hold the lease (the row is locked by the transaction)."""
    transaction.execute(
        "UPDATE namespaces SET lease_owner = ?, lease_until = ? WHERE id = ?",
        (owner, time.time() + LEASE_SECONDS, current.id),
    )


def renew(transaction: Transaction, namespace: int, owner: str) -> bool:
    """Extend the lease; False if it is no longer ours (expired and taken, or deleted)."""
    changed = transaction.execute(
        "UPDATE namespaces SET lease_until = ? WHERE id = ? AND lease_owner = ?",
        (time.time() + LEASE_SECONDS, namespace, owner),
    )
    return changed == 1


def release(transaction: Transaction, namespace: int, owner: str, failure: str | None) -> None:
    """Drop the lease, recording the summarizer's failure (None: it did not fail)."""
    transaction.execute(
        "UPDATE namespaces SET lease_owner = NULL, lease_until = NULL, failure = ? "
        "WHERE id = ? AND lease_owner = ?",
        (failure, namespace, owner),
    )
