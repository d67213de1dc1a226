"""The analysis stage: text -> language -> tokens -> lemmas -> terms.

Every scorer that matches words (BM25, lexical diversity, explanations) reads terms from here, so
the query and the documents always go through the same steps in the same language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rerank_plus.analysis.cache import LRUCache, content_key
from rerank_plus.analysis.language import (
    DEFAULT_LANGUAGE,
    DEFAULT_LANGUAGES,
    Detection,
    LanguageDetector,
    resolve_languages,
)
from rerank_plus.analysis.lemmatize import lemmatize
from rerank_plus.analysis.stopwords import stop_words
from rerank_plus.analysis.tokenize import tokenize

#: How stop words are matched (see :class:`Analyzer`).
STOPWORD_MODES = ("both", "lemma", "surface", "none")


@dataclass(frozen=True, slots=True)
class Analysis:
    """Each step's output for one text, kept so the command line and explanations can show it."""

    language: str
    tokens: tuple[str, ...]
    lemmas: tuple[str, ...]
    terms: tuple[str, ...]


class Analyzer:
    """Turns texts into BM25 terms, per language, with a bounded cache.

    Args:
        languages: ISO 639-1 codes lingua may answer with (fewer load faster and use less memory).
        default_language: used when no text says anything reliable about its language.
        spacy_pipelines: trained spaCy pipelines to use per language, e.g.
            ``{"fr": "fr_core_news_sm"}``; they tag parts of speech, which drops punctuation by
            tag and lemmatizes by part of speech. Other languages use ``spacy.blank``.
        lemmatize: map words to lemmas (simplemma, or the trained pipeline's lemmatizer).
        stopwords: which form is checked against spaCy's stop-word list: ``"both"`` drops a
            token when its surface form or its lemma is a stop word ("am" -> "be"),
            ``"surface"`` (before lemmatization) or ``"lemma"`` (after) check one form only,
            ``"none"`` keeps every word.
        cache_size: analyses (and detections) kept; 0 turns the cache off.

    >>> Analyzer().analyze("How can I run faster while I am training for a marathon?").terms
    ('run', 'fast', 'train', 'marathon')
    """

    def __init__(
        self,
        languages: Sequence[str] = DEFAULT_LANGUAGES,
        *,
        default_language: str = DEFAULT_LANGUAGE,
        spacy_pipelines: Mapping[str, str] | None = None,
        lemmatize: bool = True,
        stopwords: str = "both",
        cache_size: int = 50_000,
    ) -> None:
        self.languages = tuple(sorted({code.lower() for code in languages}))
        if not self.languages:
            raise ValueError("languages must name at least one ISO 639-1 code, e.g. ('en',).")
        self.default_language = default_language.lower()
        self.spacy_pipelines = dict(spacy_pipelines or {})
        self.lemmatize = lemmatize
        if stopwords not in STOPWORD_MODES:
            raise ValueError(
                f"stopwords must be one of {', '.join(STOPWORD_MODES)}, got {stopwords!r}."
            )
        self.stopwords = stopwords
        self._detector = LanguageDetector(self.languages) if len(self.languages) > 1 else None
        self._detections: LRUCache[Detection] = LRUCache(cache_size)
        self._analyses: LRUCache[Analysis] = LRUCache(cache_size)

    def detect(self, text: str) -> Detection:
        """The language of ``text`` (cached)."""
        if self._detector is None:
            return Detection(self.languages[0], 1.0, reliable=True)
        detector = self._detector
        return self._detections.get_or_compute(content_key(text), lambda: detector.detect(text))

    def languages_for(
        self, query: str, documents: Sequence[str], language: str | None = None
    ) -> tuple[str, list[str]]:
        """The language to analyze the query and each document in (see ``resolve_languages``)."""
        if language is not None:
            return language, [language] * len(documents)
        return resolve_languages(
            self.detect(query), [self.detect(d) for d in documents], self.default_language
        )

    def analyze(self, text: str, language: str | None = None) -> Analysis:
        """Analyze one text, in ``language`` or in the language detected for it (cached)."""
        if language is None:
            detection = self.detect(text)
            language = detection.language if detection.reliable else None
            language = language or self.default_language
        language = language.lower()
        key = (content_key(text), language)
        return self._analyses.get_or_compute(key, lambda: self._analyze(text, language))

    def _analyze(self, text: str, language: str) -> Analysis:
        tokens = tokenize(text, language, self.spacy_pipelines.get(language))
        if self.lemmatize:
            lemmas = tuple(
                t.lemma.lower() if t.lemma else lemmatize(t.text, language) for t in tokens
            )
        else:
            lemmas = tuple(t.text.lower() for t in tokens)
        if self.stopwords == "none":
            terms = lemmas
        else:
            stops = stop_words(language)
            check_surface = self.stopwords in ("both", "surface")
            check_lemma = self.stopwords in ("both", "lemma")
            terms = tuple(
                lemma
                for token, lemma in zip(tokens, lemmas, strict=True)
                if not (check_lemma and lemma in stops)
                and not (check_surface and token.text.lower() in stops)
            )
        return Analysis(language, tuple(t.text for t in tokens), lemmas, terms)

    def clear_cache(self) -> None:
        self._detections.clear()
        self._analyses.clear()
