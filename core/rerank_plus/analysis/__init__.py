"""Text analysis: language -> tokens -> lemmas -> terms."""

from rerank_plus.analysis.analyzer import Analysis, Analyzer
from rerank_plus.analysis.language import DEFAULT_LANGUAGES, Detection, LanguageDetector

__all__ = ["DEFAULT_LANGUAGES", "Analysis", "Analyzer", "Detection", "LanguageDetector"]
