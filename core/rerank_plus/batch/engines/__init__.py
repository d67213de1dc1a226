"""Engines run a batch job: ``local`` in this process, ``ray`` on Ray Data (optional extra)."""
