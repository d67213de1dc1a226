"""LangChain adapter for rerank-plus (a BaseDocumentCompressor); filled by the adapters issue."""
