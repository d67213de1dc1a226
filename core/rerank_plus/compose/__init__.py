"""Composition: reranker kinds and presets, pipelines, cascades, fusion presets, named profiles."""
