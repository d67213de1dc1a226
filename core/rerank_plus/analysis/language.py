"""Language detection: the Unicode script first, then lingua among that script's languages.

The script alone decides many languages (Greek letters are Greek, Hangul is Korean, Thai is Thai)
and narrows the rest (Cyrillic: Russian, Ukrainian, Bulgarian...), so lingua only compares
languages that could have written the text, and loads the models of a script when a text in it
first comes: detecting every supported language stays small in memory (docs/benchmarks.md).
lingua runs in its low-accuracy mode (trigram models): measured as accurate as the high-accuracy
mode on documents, at a tenth of the memory; short texts are marked unreliable either way.

Short texts are often misdetected ("password reset" comes out Italian), so a detection also says
whether it is *reliable*; :func:`resolve_languages` decides what to use for the unreliable ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rerank_plus.analysis.languages import (
    LANGUAGE_SCRIPTS,
    NEUTRAL,
    languages_of_script,
    supported_languages,
)
from rerank_plus.analysis.script import UNSPACED_SCRIPTS, dominant_script

#: Languages that can be asked for but are not detected by default: lingua's Latin model claims
#: technical English (Latinate vocabulary: 4% of the cranfield abstracts), and few collections
#: are written in Latin.
NOT_DETECTED_BY_DEFAULT = frozenset({"la"})
#: Every language the analysis knows (all that lingua detects, docs/languages.md), less those.
DEFAULT_LANGUAGES: tuple[str, ...] = tuple(
    code for code in supported_languages() if code not in NOT_DETECTED_BY_DEFAULT
)
#: lingua's accuracy saturates long before this; cutting keeps 100 documents cheap to detect.
DETECTION_PREFIX_CHARS = 200


@dataclass(frozen=True, slots=True)
class Detection:
    """The verdict on one text: ``language`` is None when no known language fits it; ``script``
    is the script most of its letters are written in."""

    language: str | None
    confidence: float
    reliable: bool
    script: str = "Other"


def check_languages(languages: Iterable[str]) -> tuple[str, ...]:
    """The codes, lowercased and sorted; an unknown code raises an error that lists the known."""
    codes = tuple(sorted({code.lower() for code in languages}))
    for code in codes:
        if code not in LANGUAGE_SCRIPTS:
            raise ValueError(
                f"Unknown language code {code!r}: use ISO 639-1 codes among "
                f"{', '.join(supported_languages())}."
            )
    return codes


class LanguageDetector:
    """Detects the language of a text among ``languages`` (ISO 639-1 codes).

    A detection is reliable when the text has at least ``min_words`` words (letters, in scripts
    written without spaces) and the confidence reaches ``min_confidence``; a script written by
    one language alone gives confidence 1.
    """

    def __init__(
        self,
        languages: Sequence[str] = DEFAULT_LANGUAGES,
        *,
        min_words: int = 3,
        min_confidence: float = 0.5,
    ) -> None:
        self.languages = check_languages(languages)
        self.min_words = min_words
        self.min_confidence = min_confidence

    def detect(self, text: str) -> Detection:
        return self.detect_many([text])[0]

    def detect_many(self, texts: Sequence[str]) -> list[Detection]:
        """Detect several texts; those lingua has to decide go to it together, per script."""
        samples = [text[:DETECTION_PREFIX_CHARS] for text in texts]
        results: list[Detection | None] = [None] * len(samples)
        by_candidates: dict[tuple[str, ...], list[int]] = {}
        for index, sample in enumerate(samples):
            script = dominant_script(sample)
            candidates = languages_of_script(script, self.languages)
            if len(candidates) == 1:
                reliable = self._long_enough(sample, script)
                results[index] = Detection(candidates[0], 1.0, reliable, script)
            elif not candidates:
                results[index] = Detection(None, 0.0, reliable=False, script=script)
            else:
                by_candidates.setdefault(candidates, []).append(index)
        for candidates, indexes in by_candidates.items():
            detector = _build_detector(candidates)
            group = [samples[i] for i in indexes]
            if len(group) == 1:
                all_values = [detector.compute_language_confidence_values(group[0])]
            else:
                all_values = detector.compute_language_confidence_values_in_parallel(group)
            for index, values in zip(indexes, all_values, strict=True):
                results[index] = self._verdict(samples[index], values)
        return [result for result in results if result is not None]

    def _long_enough(self, sample: str, script: str) -> bool:
        if script in UNSPACED_SCRIPTS:
            return sum(c.isalpha() for c in sample) >= self.min_words
        return len(sample.split()) >= self.min_words

    def _verdict(self, sample: str, values: list) -> Detection:  # lingua ships no type hints
        script = dominant_script(sample)
        if not values or values[0].value <= 0.0:
            return Detection(None, 0.0, reliable=False, script=script)
        best = values[0]
        language = best.language.iso_code_639_1.name.lower()
        reliable = self._long_enough(sample, script) and best.value >= self.min_confidence
        return Detection(language, float(best.value), reliable, script)


@lru_cache(maxsize=32)
def _build_detector(languages: tuple[str, ...]):
    from lingua import IsoCode639_1, LanguageDetectorBuilder

    codes = [getattr(IsoCode639_1, code.upper()) for code in languages]
    return LanguageDetectorBuilder.from_iso_codes_639_1(*codes).with_low_accuracy_mode().build()


def dominant_language(detections: Iterable[Detection]) -> str | None:
    """The most frequent language among reliable detections (first seen wins a tie)."""
    counts = Counter(d.language for d in detections if d.reliable and d.language)
    return counts.most_common(1)[0][0] if counts else None


def _fits(language: str, script: str) -> bool:
    """Whether ``language`` can be applied to a text whose letters are in ``script``."""
    if script == "Other" or language == NEUTRAL:
        return True
    written = LANGUAGE_SCRIPTS.get(language)
    return written == script or {written, script} <= {"Han", "Kana"}


def _choose(detection: Detection, fallback: str) -> str:
    if detection.reliable and detection.language:
        return detection.language
    if _fits(fallback, detection.script):
        return fallback
    return detection.language or NEUTRAL


def resolve_languages(
    query: Detection, documents: Sequence[Detection], default: str | None = None
) -> tuple[str, list[str]]:
    """Pick one language for the query and for each document.

    A reliable detection is kept. An unreliable one falls back to the dominant language of the
    reliable documents, then to the query's language if that is reliable, then to ``default``,
    and without a default to the language-neutral analysis (``"und"``). A fallback written in
    another script than the text is never taken (a short Greek text among English ones keeps its
    own detection, or the neutral analysis): never another language's rules.
    """
    fallback = dominant_language(documents)
    if fallback is None:
        fallback = query.language if query.reliable and query.language else default or NEUTRAL
    return _choose(query, fallback), [_choose(d, fallback) for d in documents]
