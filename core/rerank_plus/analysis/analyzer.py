"""The analysis stage: text -> script and language -> words -> base forms -> terms.

Every scorer that matches words (BM25, lexical diversity, explanations) reads terms from here, so
the query and the documents always go through the same steps in the same language.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rerank_plus.analysis.cache import LRUCache, content_key
from rerank_plus.analysis.language import (
    DEFAULT_LANGUAGES,
    Detection,
    LanguageDetector,
    check_languages,
    resolve_languages,
)
from rerank_plus.analysis.languages import NEUTRAL, SEGMENTED, profile
from rerank_plus.analysis.normalize import normalize_text
from rerank_plus.analysis.script import dominant_script, needs_segmentation
from rerank_plus.analysis.segment import segmenter_for
from rerank_plus.analysis.stem import stemmer_available
from rerank_plus.analysis.terms import STOPWORD_MODES, piece_words, word_form
from rerank_plus.analysis.tokenize import tagged_tokens


@dataclass(frozen=True, slots=True)
class Analysis:
    """Each step's output for one text, kept so the command line and explanations can show it."""

    language: str
    tokens: tuple[str, ...]
    lemmas: tuple[str, ...]
    terms: tuple[str, ...]
    #: How often each term occurs: what BM25 and lexical similarity read.
    term_frequencies: Mapping[str, int]
    #: The script most of the letters are in ("Latin", "Han", "Thai"...; "Other": no letters).
    script: str = "Other"
    #: How words became terms: "lemmas", "stems", "words" (no base forms for the language) or
    #: "neutral" (unknown language), plus "+jieba", "+ngrams"... when a segmenter cut words.
    path: str = "neutral"


def analysis_path(language: str, text: str, use_lemmas: bool) -> str:
    """The path a text takes (see :attr:`Analysis.path`)."""
    if language == NEUTRAL:
        path = "neutral"
    else:
        reduction = profile(language).reduction if use_lemmas else "none"
        if reduction == "stems" and not stemmer_available():
            reduction = "none"
        path = {"none": "words"}.get(reduction, reduction)
    if language in SEGMENTED or needs_segmentation(text):
        path += f"+{segmenter_for(language)}"
    return path


class Analyzer:
    """Turns texts into BM25 terms, per language, with a bounded cache.

    Args:
        languages: ISO 639-1 codes detection may answer with; by default every language the
            analysis knows (docs/languages.md). Text in none of them gets the neutral analysis.
        default_language: used when no text says anything reliable about its language; None
            (the default) uses the language-neutral analysis instead of guessing.
        spacy_pipelines: trained spaCy pipelines to use per language, e.g.
            ``{"fr": "fr_core_news_sm"}``; they tag parts of speech, which drops punctuation by
            tag and lemmatizes by part of speech. Other languages use spaCy's rule tokenizers.
        lemmatize: map words to base forms (simplemma's lemmas, the trained pipeline's, or a
            Snowball stem where no lemma dictionary exists).
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
        default_language: str | None = None,
        spacy_pipelines: Mapping[str, str] | None = None,
        lemmatize: bool = True,
        stopwords: str = "both",
        cache_size: int = 50_000,
    ) -> None:
        self.languages = check_languages(languages)
        if not self.languages:
            raise ValueError("languages must name at least one ISO 639-1 code, e.g. ('en',).")
        self.default_language = check_languages([default_language])[0] if default_language else None
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
        return self.detect_many([text])[0]

    def detect_many(self, texts: Sequence[str]) -> list[Detection]:
        """The language of each text; the ones not cached are detected together."""
        if self._detector is None:
            only = self.languages[0]
            return [Detection(only, 1.0, True, dominant_script(t[:200])) for t in texts]
        keys = [content_key(text) for text in texts]
        found = [self._detections.get(key) for key in keys]
        missing = {key: text for key, text, hit in zip(keys, texts, found, strict=True) if not hit}
        detected = (
            dict(zip(missing, self._detector.detect_many(list(missing.values())), strict=True))
            if missing
            else {}
        )
        for key, detection in detected.items():
            self._detections.put(key, detection)
        return [hit or detected[key] for key, hit in zip(keys, found, strict=True)]

    def languages_for(
        self, query: str, documents: Sequence[str], language: str | None = None
    ) -> tuple[str, list[str]]:
        """The language to analyze the query and each document in (see ``resolve_languages``)."""
        if language is not None:
            return language, [language] * len(documents)
        query_detection, *document_detections = self.detect_many([query, *documents])
        return resolve_languages(query_detection, document_detections, self.default_language)

    def analyze(self, text: str, language: str | None = None) -> Analysis:
        """Analyze one text, in ``language`` or in the language detected for it (cached).

        ``language`` may be ``"und"`` for the language-neutral analysis.
        """
        if language is None:
            language = resolve_languages(self.detect(text), [], self.default_language)[0]
        language = language.lower()
        if language != NEUTRAL:
            check_languages([language])
        key = (content_key(text), language)
        return self._analyses.get_or_compute(key, lambda: self._analyze(text, language))

    def _analyze(self, text: str, language: str) -> Analysis:
        text = normalize_text(text)
        tokens, lemmas, terms = [], [], []
        pipeline = self.spacy_pipelines.get(language)
        if pipeline is not None:
            for word, tagged_lemma in tagged_tokens(text, pipeline):
                form = word_form(word, language, tagged_lemma, self.lemmatize, self.stopwords)
                if form is not None:
                    tokens.append(word)
                    lemmas.append(form[0])
                    if form[1]:
                        terms.append(form[0])
        else:
            for piece in text.split():
                for word, base, is_term in piece_words(
                    piece, language, self.lemmatize, self.stopwords
                ):
                    tokens.append(word)
                    lemmas.append(base)
                    if is_term:
                        terms.append(base)
        return Analysis(
            language,
            tuple(tokens),
            tuple(lemmas),
            tuple(terms),
            Counter(terms),
            script=dominant_script(text[:200]),
            path=analysis_path(language, text, self.lemmatize),
        )

    def clear_cache(self) -> None:
        self._detections.clear()
        self._analyses.clear()
