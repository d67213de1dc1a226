"""rerank-plus: a precise second stage for retrieval pipelines.

>>> from rerank_plus import BM25Reranker
>>> docs = ["The cat sat on the mat.", "Marathon runners train for months."]
>>> [r.index for r in BM25Reranker().rank("how do runners train", docs)]
[1, 0]
"""

from rerank_plus.analysis import Analysis, Analyzer, Detection, LanguageDetector
from rerank_plus.combine import ReciprocalRankFusion, WeightedFusion
from rerank_plus.combine.boosts import FreshnessBoost, PriorBoost
from rerank_plus.compose.cascade import Cascade
from rerank_plus.compose.fusion import FusionReranker
from rerank_plus.compose.pipeline import Pipeline
from rerank_plus.compose.profiles import from_config
from rerank_plus.errors import MissingExtraError, ModelLoadError, RerankPlusError
from rerank_plus.reranker import RankInput, Reranker, Scores
from rerank_plus.results import RankedResult
from rerank_plus.scoring import (
    BiEncoderReranker,
    BM25Reranker,
    CorpusStatistics,
    CrossEncoderReranker,
)
from rerank_plus.scoring.llm import LLMReranker, OpenAICompatibleChat
from rerank_plus.scoring.remote.client import RemoteReranker
from rerank_plus.selection import (
    GapCutoff,
    MaximalMarginalRelevance,
    RatioCutoff,
    TokenBudget,
)

__version__ = "0.1.0"

__all__ = [
    "Analysis",
    "Analyzer",
    "BM25Reranker",
    "BiEncoderReranker",
    "Cascade",
    "CorpusStatistics",
    "CrossEncoderReranker",
    "Detection",
    "FreshnessBoost",
    "FusionReranker",
    "GapCutoff",
    "LLMReranker",
    "LanguageDetector",
    "MaximalMarginalRelevance",
    "MissingExtraError",
    "ModelLoadError",
    "OpenAICompatibleChat",
    "Pipeline",
    "PriorBoost",
    "RankInput",
    "RankedResult",
    "RatioCutoff",
    "ReciprocalRankFusion",
    "RemoteReranker",
    "RerankPlusError",
    "Reranker",
    "Scores",
    "TokenBudget",
    "WeightedFusion",
    "from_config",
]
