"""LlamaIndex adapter for rerank-plus (a BaseNodePostprocessor); filled by the adapters issue."""
