"""What a build and ``MemoryWriter.add`` share: reading messages (language, terms, sentences), one
vector per text (a summary made of its sources' sentences verbatim gets the unit mean of
theirs), writing a summary (with the extractive fallback), and the state ``add`` continues
from (term statistics, the open window, the sentences of the latest summaries).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

import numpy as np

from rerank_plus.analysis import Analyzer
from rerank_plus.analysis.script import UNSPACED_LETTER, has_unspaced
from rerank_plus.memory.ingest.embedding import Embedder
from rerank_plus.memory.ingest.entities import extract_entities, hashtags
from rerank_plus.memory.ingest.extractive import ExtractiveSummarizer
from rerank_plus.memory.ingest.requests import (
    SourceSentence,
    Summarizer,
    Summary,
    SummaryError,
    SummaryRequest,
)
from rerank_plus.memory.ingest.segment import (
    INFORMATIVE_TERMS,
    INFORMATIVE_WORDS,
    Segmenter,
    Turn,
)
from rerank_plus.memory.ingest.settings import BuildSettings
from rerank_plus.memory.ingest.summaries import summary_id, summary_item, themes
from rerank_plus.memory.ingest.vectors import TermStatistics, unit_mean
from rerank_plus.memory.model.items import MemoryItem
from rerank_plus.memory.model.memory import Memory
from rerank_plus.memory.model.sentences import split_sentences, unspaced_words, word_count

logger = logging.getLogger(__name__)

#: Transcript annotations that are not speech: "{vocalsound}", "[laughter]", "<noise>".
_ANNOTATION = re.compile(r"[\[{<][^\[\]{}<>\n]{1,40}[\]}>]")

#: Vectors kept between ``MemoryWriter.add`` calls (the build keeps every one until it ends).
KEPT_VECTORS = 4096


def without_annotations(text: str) -> str:
    """``text`` without bracketed transcript annotations (what terms and speech words read;
    summaries still keep the sentence as written)."""
    return _ANNOTATION.sub(" ", text) if "{" in text or "[" in text or "<" in text else text


def speech_words(text: str) -> int:
    """Words with a letter or digit: transcripts that space punctuation out ("Yeah , OK .")
    do not make a fragment look like a sentence. Letters of scripts written without spaces
    count as :func:`~rerank_plus.memory.model.sentences.word_count` counts it."""
    unspaced = 0
    if has_unspaced(text):
        unspaced, text = unspaced_words(text), UNSPACED_LETTER.sub(" ", text)
    return unspaced + sum(1 for token in text.split() if any(char.isalnum() for char in token))


@dataclass(frozen=True, slots=True)
class ReadMessage:
    """A message as the build reads it: ``words`` as written (what window sizes count),
    ``speech_words`` without annotations and punctuation (what makes it informative)."""

    item: MemoryItem
    language: str
    terms: Mapping[str, int]
    words: int
    speech_words: int
    sentences: tuple[SourceSentence, ...]


class MemoryBuilder:
    """Settings, models and running state of one memory's build (what a ``MemoryWriter`` keeps)."""

    def __init__(
        self,
        settings: BuildSettings | None = None,
        summarizer: Summarizer | None = None,
        embedder: Embedder | None = None,
        analyzer: Analyzer | None = None,
    ) -> None:
        self.settings = settings or BuildSettings()
        self.extractive = (
            summarizer if isinstance(summarizer, ExtractiveSummarizer) else ExtractiveSummarizer()
        )
        self.summarizer: Summarizer = summarizer or self.extractive
        self.embedder = embedder
        self.analyzer = analyzer or Analyzer()
        self.statistics = TermStatistics()
        self.vectors: dict[str, np.ndarray] = {}
        #: The segmenter (its open window is the one ``add`` extends), that window's messages
        #: as read, and the sentences each recent summary kept; valid while
        #: ``memory.version == self.version``.
        self.segmenter = Segmenter(self.settings)
        self.window_messages: list[ReadMessage] = []
        self.kept: dict[str, tuple[SourceSentence, ...]] = {}
        self.version = -1

    # -- reading -----------------------------------------------------------------------------

    def languages(self, texts: Sequence[str], context: Sequence[str] = ()) -> list[str]:
        """One analysis language per text; ``context`` (earlier texts) helps short ones."""
        if not texts:
            return []
        documents = [*context, *texts]
        return self.analyzer.languages_for(texts[0], documents)[1][len(context) :]

    def sentence(self, text: str, order: tuple[int, int], language: str) -> SourceSentence:
        """A sentence as summaries read it: terms and words of its speech, annotations out."""
        speech = without_annotations(text)
        terms = self.analyzer.analyze(speech, language).term_frequencies
        spoken = speech_words(speech)
        return SourceSentence(text, word_count(text), terms, None, order, language, spoken)

    def read(self, item: MemoryItem, language: str) -> ReadMessage:
        pieces = split_sentences(item.text)
        sentences = tuple(
            self.sentence(text, (item.index, position), language)
            for position, text in enumerate(pieces)
        )
        if len(sentences) == 1:
            terms, spoken = sentences[0].terms, sentences[0].speech_words
        else:
            speech = without_annotations(item.text)
            terms = self.analyzer.analyze(speech, language).term_frequencies
            spoken = speech_words(speech)
        return ReadMessage(item, language, terms, word_count(item.text), spoken, sentences)

    def enrich(self, item: MemoryItem) -> MemoryItem:
        """Entities and hashtag tags for a message that has none (if the settings say so)."""
        if not self.settings.extract_entities:
            return item
        changes: dict[str, object] = {}
        if not item.entities:
            found = extract_entities(item.text, item.speaker)
            if found:
                changes["entities"] = MappingProxyType(found)
        if not item.tags:
            tags = hashtags(item.text)
            if tags:
                changes["tags"] = tags
        return replace(item, **changes) if changes else item  # type: ignore[arg-type]

    # -- vectors -----------------------------------------------------------------------------

    def embed(self, texts: Iterable[str]) -> None:
        """Embed, in one batch, the texts not embedded yet (nothing without an embedder)."""
        if self.embedder is None:
            return
        missing = list(dict.fromkeys(text for text in texts if text not in self.vectors))
        if missing:
            rows = self.embedder.embed(missing)
            self.vectors.update(zip(missing, rows, strict=True))

    def turn(self, message: ReadMessage, count: bool = True) -> Turn:
        """The message as segmentation reads it; counts it in the term statistics first
        (unless ``count`` is False: already counted), so its weights use only messages up to
        it (what ``add`` will also know)."""
        if count:
            self.statistics.add(message.terms)
        vector = (
            self.vectors[message.item.text]
            if self.embedder is not None
            else self.statistics.weigh(message.terms)
        )
        informative = (
            message.speech_words >= INFORMATIVE_WORDS and len(message.terms) >= INFORMATIVE_TERMS
        )
        return Turn(message.words, message.item.time, vector, informative)

    def with_vector(self, sentence: SourceSentence) -> SourceSentence:
        """The sentence with its current vector (embedding, or tf-idf with today's idf) and
        information (summed idf)."""
        weights = self.statistics.weigh(sentence.terms)
        vector = self.vectors[sentence.text] if self.embedder is not None else weights
        information = sum(self.statistics.idf(term) for term in sentence.terms)
        return replace(sentence, vector=vector, information=information)

    # -- summaries ---------------------------------------------------------------------------

    def summarize(self, request: SummaryRequest) -> Summary:
        """The summarizer's summary; on failure, the extractive one when the settings allow."""
        if self.summarizer is self.extractive:
            return self.extractive.summarize(request)
        try:
            answer = self.summarizer.summarize(request)
        except Exception as error:  # the summarizer is the user's: any failure is reported
            if self.settings.on_summary_error != "extractive":
                if isinstance(error, SummaryError):
                    raise
                raise SummaryError(
                    f"the summarizer failed on {request.id} ({type(error).__name__}: "
                    f"{error}); pass on_summary_error='extractive' to build_memory to keep "
                    "an extractive summary instead."
                ) from error
            logger.warning("summary %s: %s; kept the extractive summary", request.id, error)
            fallback = self.extractive.summarize(request)
            return replace(fallback, details={"summary_error": f"{type(error).__name__}: {error}"})
        if isinstance(answer, Summary):
            return answer
        return Summary(text=str(answer), summarizer=getattr(self.summarizer, "name", "custom"))

    def verbatim(
        self, summary: Summary, request: SummaryRequest
    ) -> tuple[SourceSentence, ...] | None:
        """The request's sentences a summary is made of, verbatim: the summarizer's own list,
        else the summary's lines when each is a candidate sentence; None when it wrote its
        own sentences."""
        if summary.sentences is not None:
            return summary.sentences
        by_text = {sentence.text: sentence for sentence in request.sentences}
        pieces = split_sentences(summary.text)
        if all(piece in by_text for piece in pieces):
            return tuple(by_text[piece] for piece in pieces)
        return None

    def summary_vector(self, sentences: Sequence[SourceSentence]) -> tuple[float, ...] | None:
        """The embedding of a summary made of ``sentences`` verbatim: the unit mean of their
        embeddings, already computed for the level below. Embedding the summary's text
        instead would be a model call on up to 256 tokens for every summary an ``add``
        changes (the open window and its parents, half a second a message on a CPU); None
        without an embedder or sentences."""
        vectors = [s.vector for s in sentences if isinstance(s.vector, np.ndarray)]
        if self.embedder is None or not vectors or len(vectors) < len(sentences):
            return None
        return tuple(unit_mean(vectors).tolist())

    def sentences_of(
        self, text: str, order: int, language: str | None = None
    ) -> tuple[SourceSentence, ...]:
        """The sentences of a summary text, read (and embedded) anew."""
        language = language or self.languages([text])[0]
        sentences = tuple(
            self.sentence(piece, (order, position), language)
            for position, piece in enumerate(split_sentences(text))
        )
        self.embed(sentence.text for sentence in sentences)
        return sentences

    def request(
        self,
        level: int,
        index: int,
        children: Sequence[MemoryItem],
        candidates: Sequence[SourceSentence],
        source_words: int,
    ) -> SummaryRequest:
        unique = {sentence.text: sentence for sentence in reversed(candidates)}
        ordered = [sentence for sentence in candidates if unique.get(sentence.text) is sentence]
        if level == 1:
            source = tuple(
                f"{child.speaker}: {child.text}" if child.speaker else child.text
                for child in children
            )
        else:
            source = tuple(child.text for child in children)
        return SummaryRequest(
            id=summary_id(level, index),
            level=level,
            index=index,
            covers=tuple(child.id for child in children),
            sentences=tuple(self.with_vector(sentence) for sentence in ordered),
            source=source,
            budget_words=self.settings.summary_budget(source_words),
            source_words=source_words,
        )

    def summary(
        self,
        request: SummaryRequest,
        children: Sequence[MemoryItem],
        opened_by: str | None = None,
        memory: Memory | None = None,
        session: int | None = None,
    ) -> MemoryItem:
        """Summarize and assemble the item; remembers the sentences it kept (as candidates
        for the level above: the very source sentences when it kept them verbatim, else its
        own sentences read anew), and reads its embedding from theirs when verbatim."""
        summary = self.summarize(request)
        verbatim = self.verbatim(summary, request)
        if verbatim is None:
            language = request.sentences[0].language if request.sentences else None
            self.kept[request.id] = self.sentences_of(summary.text, request.index, language)
        else:
            self.kept[request.id] = verbatim
        topics = themes(request.sentences, self.statistics)
        item = summary_item(
            request.level,
            request.index,
            children,
            summary,
            request.sentences,
            topics,
            opened_by=opened_by,
            session=session,
            memory=memory,
        )
        embedding = self.summary_vector(verbatim) if verbatim is not None else None
        return item if embedding is None else replace(item, embedding=embedding)

    def with_embeddings(self, items: Sequence[MemoryItem]) -> list[MemoryItem]:
        """Items carrying their text's embedding (all texts embedded in one batch)."""
        if self.embedder is None:
            return list(items)
        self.embed(item.text for item in items if item.embedding is None)
        return [
            item
            if item.embedding is not None
            else replace(item, embedding=tuple(self.vectors[item.text].tolist()))
            for item in items
        ]

    def trim(self, keep: Iterable[str]) -> None:
        """Drop vectors no later ``add`` needs, keeping ``keep`` and at most KEPT_VECTORS."""
        wanted = set(keep)
        kept = {text: self.vectors[text] for text in wanted if text in self.vectors}
        for text in reversed(list(self.vectors)):
            if len(kept) >= KEPT_VECTORS:
                break
            kept.setdefault(text, self.vectors[text])
        self.vectors = kept

    def __repr__(self) -> str:
        return (
            f"MemoryBuilder(summarizer={self.summarizer!r}, embedder={self.embedder!r}, "
            f"settings={self.settings!r})"
        )
