"""Turning hits into a context: the blocks within the budget (:mod:`.compose`), a broad
question's coverage fill (:mod:`.coverage`), and what a retrieval hands back
(:mod:`.result`)."""
