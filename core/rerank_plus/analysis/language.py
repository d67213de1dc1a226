"""Language detection with lingua, restricted to the languages the pipeline can analyze.

Short texts are often misdetected ("password reset" comes out Italian), so a detection also says
whether it is *reliable*; :func:`resolve_languages` decides what to use for the unreliable ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

#: Languages that lingua detects, spaCy tokenizes and simplemma lemmatizes.
DEFAULT_LANGUAGES: tuple[str, ...] = ("de", "en", "es", "fr", "it", "nl", "pt")
#: Used when nothing else decides (no reliable text anywhere).
DEFAULT_LANGUAGE = "en"
#: lingua's accuracy saturates long before this; cutting keeps 100 documents cheap to detect.
DETECTION_PREFIX_CHARS = 300


@dataclass(frozen=True, slots=True)
class Detection:
    """lingua's verdict on one text: ``language`` is None when it found no language at all."""

    language: str | None
    confidence: float
    reliable: bool


class LanguageDetector:
    """Detects the language of a text among ``languages`` (ISO 639-1 codes), high-accuracy mode.

    A detection is reliable when the text has at least ``min_words`` words and lingua's top
    confidence reaches ``min_confidence``.
    """

    def __init__(
        self,
        languages: Sequence[str] = DEFAULT_LANGUAGES,
        *,
        min_words: int = 3,
        min_confidence: float = 0.5,
    ) -> None:
        self.languages = tuple(sorted({code.lower() for code in languages}))
        self.min_words = min_words
        self.min_confidence = min_confidence
        self._detector = _build_detector(self.languages)

    def detect(self, text: str) -> Detection:
        return self.detect_many([text])[0]

    def detect_many(self, texts: Sequence[str]) -> list[Detection]:
        """Detect several texts at once (lingua spreads them over the CPU cores)."""
        samples = [text[:DETECTION_PREFIX_CHARS] for text in texts]
        if len(samples) == 1:
            all_values = [self._detector.compute_language_confidence_values(samples[0])]
        else:
            all_values = self._detector.compute_language_confidence_values_in_parallel(samples)
        return [
            self._verdict(sample, values)
            for sample, values in zip(samples, all_values, strict=True)
        ]

    def _verdict(self, sample: str, values: list) -> Detection:  # lingua ships no type hints
        if not values or values[0].value <= 0.0:
            return Detection(language=None, confidence=0.0, reliable=False)
        best = values[0]
        language = best.language.iso_code_639_1.name.lower()
        reliable = len(sample.split()) >= self.min_words and best.value >= self.min_confidence
        return Detection(language=language, confidence=float(best.value), reliable=reliable)


@lru_cache(maxsize=8)
def _build_detector(languages: tuple[str, ...]):
    from lingua import IsoCode639_1, LanguageDetectorBuilder

    codes = []
    for code in languages:
        iso = getattr(IsoCode639_1, code.upper(), None)
        if iso is None:
            raise ValueError(
                f"Unknown language code {code!r}: use ISO 639-1 codes such as 'en', 'fr', 'de'."
            )
        codes.append(iso)
    if len(codes) == 1:
        raise ValueError(
            "Language detection needs at least two languages; to use one language for every "
            "text, force it instead (language='xx')."
        )
    return LanguageDetectorBuilder.from_iso_codes_639_1(*codes).build()


def dominant_language(detections: Iterable[Detection]) -> str | None:
    """The most frequent language among reliable detections (first seen wins a tie)."""
    counts = Counter(d.language for d in detections if d.reliable and d.language)
    return counts.most_common(1)[0][0] if counts else None


def resolve_languages(
    query: Detection, documents: Sequence[Detection], default: str = DEFAULT_LANGUAGE
) -> tuple[str, list[str]]:
    """Pick one language for the query and for each document.

    A reliable detection is kept. An unreliable one falls back to the dominant language of the
    reliable documents, then to the query's language if that is reliable, then to ``default``.
    The query falls back the same way (its candidates speak for it).
    """
    fallback = dominant_language(documents)
    if fallback is None:
        fallback = query.language if query.reliable and query.language else default
    query_language = query.language if query.reliable and query.language else fallback
    document_languages = [d.language if d.reliable and d.language else fallback for d in documents]
    return query_language, document_languages
