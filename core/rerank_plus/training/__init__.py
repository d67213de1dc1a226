"""Fine-tune a bi-encoder or a cross-encoder on your own data (``pip install
rerank-plus[train]``): read pairs, a BEIR folder, meetings or a corpus with LLM-written
questions; mine hard negatives with the project's first stages; train with
sentence-transformers' trainers; compare with the base model and BM25 on held-out queries.

>>> from rerank_plus.training import TrainingSettings
>>> TrainingSettings(kind="cross-encoder").chosen_loss
'bce'
"""

from rerank_plus.training.errors import (
    BaseModelError,
    CheckpointWriteError,
    NoQuestionsError,
    TrainingDataError,
)
from rerank_plus.training.examples import Example, Passage, TrainingData
from rerank_plus.training.finetune import FinetuneResult, finetune
from rerank_plus.training.mining import MiningReport, MiningSettings, mine_negatives
from rerank_plus.training.readers import FORMATS, detect_format, read_data
from rerank_plus.training.settings import LOSSES, TrainingSettings
from rerank_plus.training.split import split_by_query
from rerank_plus.training.synthetic import QuestionBudget, generate_questions

__all__ = [
    "FORMATS",
    "LOSSES",
    "BaseModelError",
    "CheckpointWriteError",
    "Example",
    "FinetuneResult",
    "MiningReport",
    "MiningSettings",
    "NoQuestionsError",
    "Passage",
    "QuestionBudget",
    "TrainingData",
    "TrainingDataError",
    "TrainingSettings",
    "detect_format",
    "finetune",
    "generate_questions",
    "mine_negatives",
    "read_data",
    "split_by_query",
]
