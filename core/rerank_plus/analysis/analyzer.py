"""The analysis stage: text -> script and language -> words -> base forms -> terms.

Every scorer that matches words (BM25, lexical diversity, explanations) reads terms from here, so
the query and the documents always go through the same steps in the same language.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import itemgetter

from rerank_plus.analysis.cache import LRUCache, content_key
from rerank_plus.analysis.language import (
    DEFAULT_LANGUAGES,
    Detection,
    LanguageDetector,
    check_languages,
    resolve_languages,
)
from rerank_plus.analysis.languages import LANGUAGE_SCRIPTS, NEUTRAL, SEGMENTED, profile
from rerank_plus.analysis.normalize import normalize_text
from rerank_plus.analysis.script import dominant_script, needs_segmentation
from rerank_plus.analysis.segment import segmenter_for
from rerank_plus.analysis.stem import stemmer_available
from rerank_plus.analysis.terms import STOPWORD_MODES, PieceWords, text_words, word_form
from rerank_plus.analysis.tokenize import tagged_tokens

#: The terms of a piece (see :data:`PieceWords`).
_TERMS = itemgetter(2)


@dataclass(frozen=True, slots=True)
class Analysis:
    """Each step's output for one text, kept so the command line and explanations can show it."""

    language: str
    terms: tuple[str, ...]
    #: How often each term occurs: what BM25 and lexical similarity read.
    term_frequencies: Mapping[str, int]
    #: The script most of the letters are in ("Latin", "Han", "Thai"...; "Other": no letters).
    script: str = "Other"
    #: How words became terms: "lemmas", "stems", "words" (no base forms for the language) or
    #: "neutral" (unknown language), plus "+jieba", "+ngrams"... when a segmenter cut words.
    path: str = "neutral"
    #: (words, base forms, terms) of each whitespace-separated piece, as the analysis cached
    #: them: :attr:`tokens` and :attr:`lemmas` are read from here when shown, so that scoring,
    #: which reads terms only, never copies them.
    pieces: tuple[PieceWords, ...] = field(default=(), repr=False)

    @property
    def tokens(self) -> tuple[str, ...]:
        """The words of the text, in order, without punctuation and symbols."""
        return tuple(chain.from_iterable(piece[0] for piece in self.pieces))

    @property
    def lemmas(self) -> tuple[str, ...]:
        """The base form (lemma, stem, or folded word) of each token, stop words included."""
        return tuple(chain.from_iterable(piece[1] for piece in self.pieces))


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
        """The language of each text, as one candidate set: the ones not cached are detected
        together, with the cached ones saying what language the set is in."""
        if self._detector is None:
            only = self.languages[0]
            return [Detection(only, 1.0, True, dominant_script(t[:200])) for t in texts]
        keys = [content_key(text) for text in texts]
        found = [self._detections.get(key) for key in keys]
        missing = {key: text for key, text, hit in zip(keys, texts, found, strict=True) if not hit}
        known = [hit for hit in found if hit is not None]
        detected = (
            dict(
                zip(
                    missing,
                    self._detector.detect_many(list(missing.values()), known),
                    strict=True,
                )
            )
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
        if language != NEUTRAL and language not in LANGUAGE_SCRIPTS:
            check_languages([language])  # raises the error that lists the known codes
        key = (content_key(text), language)
        return self._analyses.get_or_compute(key, lambda: self._analyze(text, language))

    def _analyze(self, text: str, language: str) -> Analysis:
        text = normalize_text(text)
        pieces = self._pieces(text, language)
        terms = tuple(chain.from_iterable(map(_TERMS, pieces)))
        return Analysis(
            language,
            terms,
            Counter(terms),
            script=dominant_script(text[:200]),
            path=analysis_path(language, text, self.lemmatize),
            pieces=pieces,
        )

    def _pieces(self, text: str, language: str) -> tuple[PieceWords, ...]:
        """The words of ``text``, their base forms and its terms, piece by piece; a trained
        pipeline reads the text whole, as one piece."""
        pipeline = self.spacy_pipelines.get(language)
        if pipeline is None:
            return tuple(text_words(text.split(), language, self.lemmatize, self.stopwords))
        found: list[tuple[str, str, bool]] = []
        for word, tagged_lemma in tagged_tokens(text, pipeline):
            form = word_form(word, language, tagged_lemma, self.lemmatize, self.stopwords)
            if form is not None:
                found.append((word, *form))
        words = tuple(word for word, _, _ in found)
        bases = tuple(base for _, base, _ in found)
        return ((words, bases, tuple(base for _, base, is_term in found if is_term)),)

    def remember(
        self, text: str, detection: Detection | None = None, analysis: Analysis | None = None
    ) -> None:
        """Keep a detection and an analysis of ``text`` made earlier (e.g. stored with a
        memory), so that asking for them reads them instead of detecting or analyzing again.
        They must be what this analyzer's settings give for the text."""
        key = content_key(text)
        if detection is not None:
            self._detections.put(key, detection)
        if analysis is not None:
            self._analyses.put((key, analysis.language), analysis)

    def clear_cache(self) -> None:
        self._detections.clear()
        self._analyses.clear()
