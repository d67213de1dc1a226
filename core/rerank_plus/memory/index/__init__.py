"""What retrieval reads from a memory, computed once per version: per-level BM25 statistics,
embeddings as matrices, term salience, the embeddings' likeness, and the incremental update
from the previous version's rows."""
