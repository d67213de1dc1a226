"""Composition: rerankers built into pipelines, cascades, fusion presets and named profiles."""
