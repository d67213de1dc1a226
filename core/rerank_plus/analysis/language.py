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
from dataclasses import dataclass, replace
from functools import lru_cache

from rerank_plus.analysis.function_words import FunctionWordCounts, has_function_words
from rerank_plus.analysis.languages import (
    LANGUAGE_SCRIPTS,
    NEUTRAL,
    languages_of_script,
    profile,
    supported_languages,
)
from rerank_plus.analysis.script import UNSPACED_SCRIPTS, dominant_script, vowels_plausible

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
#: An outlier (a text whose function words do not agree with its set's language) is detected on
#: a longer prefix: lingua's low-accuracy mode still errs on 3 in 300 lowercase technical
#: abstracts at 200 characters, on none at 300.
OUTLIER_PREFIX_CHARS = 600
#: A candidate set's language is the one most of up to ``VOTERS`` of its texts, spread over the
#: set, are detected in (a vote, not one run over their joined text: lingua gives a mixed text
#: the language with the most distinctive letters, not the most frequent one); only for sets
#: of at least ``MIN_SET_TEXTS`` texts, since fewer say little about each other.
VOTERS = 5
MIN_SET_TEXTS = 3
#: Words a text needs before the absence of its set's function words says it is in another
#: language (a title or a list of names has none in any language).
MIN_EVIDENCE_WORDS = 10


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

    def detect_many(self, texts: Sequence[str], known: Sequence[Detection] = ()) -> list[Detection]:
        """Detect the texts of one candidate set; ``known`` are detections of the set's other
        texts (cached ones), which say what language the set is in.

        Per script, the set's language comes from ``known`` or from a vote of a few of the
        texts; a text whose function words agree with it takes it without a detector run
        (:mod:`function_words`). The others, the outliers, go to lingua one by one on a longer
        prefix, and a language other than the set's is kept only where the text's function
        words do not contradict it: two signals must agree before a text leaves its set's
        language.
        """
        samples = [text[:DETECTION_PREFIX_CHARS] for text in texts]
        scripts = [dominant_script(sample) for sample in samples]
        results: list[Detection | None] = [None] * len(samples)
        by_candidates: dict[tuple[str, ...], list[int]] = {}
        for index, (sample, script) in enumerate(zip(samples, scripts, strict=True)):
            candidates = languages_of_script(script, self.languages)
            if len(candidates) == 1:
                reliable = self._long_enough(sample, script)
                results[index] = Detection(candidates[0], 1.0, reliable, script)
            elif not candidates:
                results[index] = Detection(None, 0.0, reliable=False, script=script)
            else:
                by_candidates.setdefault(candidates, []).append(index)
        for candidates, indexes in by_candidates.items():
            group = [texts[i] for i in indexes]
            group_scripts = [scripts[i] for i in indexes]
            detections = self._detect_group(group, group_scripts, candidates, known)
            for index, detection in zip(indexes, detections, strict=True):
                results[index] = detection
        return [result for result in results if result is not None]

    def _detect_group(
        self,
        texts: list[str],
        scripts: list[str],
        candidates: tuple[str, ...],
        known: Sequence[Detection],
    ) -> list[Detection]:
        """Texts whose script leaves ``candidates`` to choose from."""
        detector = lingua_detector(candidates)
        samples = [text[:DETECTION_PREFIX_CHARS] for text in texts]
        evidence = [FunctionWordCounts(sample, candidates) for sample in samples]
        agreed = _set_detection(known, candidates)
        if agreed is None and len(samples) >= MIN_SET_TEXTS:
            agreed = self._function_word_vote(detector, samples, scripts, evidence, candidates)
        if agreed is None and len(samples) >= MIN_SET_TEXTS:
            agreed = self._vote(detector, samples, scripts, candidates)
        language = agreed.language if agreed is not None else None
        if agreed is None or language is None or not has_function_words(language, candidates):
            return self._alone(detector, samples, scripts, candidates)
        results: list[Detection | None] = [
            Detection(language, agreed.confidence, self._long_enough(sample, script), script)
            if counts.agrees_with(language)
            else None
            for sample, script, counts in zip(samples, scripts, evidence, strict=True)
        ]
        outliers = [i for i, result in enumerate(results) if result is None]
        longer = [texts[i][:OUTLIER_PREFIX_CHARS] for i in outliers]
        verdicts = self._each(detector, longer, [scripts[i] for i in outliers], candidates)
        for i, verdict in zip(outliers, verdicts, strict=True):
            if verdict.language not in (None, language) and not _stands_apart(
                verdict.language, language, evidence[i], candidates
            ):
                verdict = replace(verdict, reliable=False)
            results[i] = verdict
        return [result for result in results if result is not None]

    def _function_word_vote(
        self,
        detector,
        samples: list[str],
        scripts: list[str],
        evidence: list[FunctionWordCounts],
        candidates: tuple[str, ...],
    ) -> Detection | None:
        """The language the function words of more than half of the texts agree with, when
        lingua finds it too on the first of them: two signals for the price of one detector
        run (a vote of lingua costs five)."""
        agreeing = [counts.agreeing() for counts in evidence]
        votes = Counter(code for codes in agreeing for code in codes)
        if not votes:
            return None
        language, count = votes.most_common(1)[0]
        if 2 * count <= len(samples):
            return None
        first = next(i for i, codes in enumerate(agreeing) if language in codes)
        verdict = self._each(detector, [samples[first]], [scripts[first]], candidates)[0]
        if not verdict.reliable or verdict.language != language:
            return None
        return Detection(language, verdict.confidence, True)

    def _vote(
        self, detector, samples: list[str], scripts: list[str], candidates: tuple[str, ...]
    ) -> Detection | None:
        """The language more than half of up to ``VOTERS`` texts spread over the set are
        reliably detected in, or None."""
        step = max(1, len(samples) // VOTERS)
        voters = list(range(0, len(samples), step))[:VOTERS]
        verdicts = self._each(
            detector, [samples[i] for i in voters], [scripts[i] for i in voters], candidates
        )
        counts = Counter(v.language for v in verdicts if v.reliable and v.language)
        if not counts:
            return None
        language, votes = counts.most_common(1)[0]
        if 2 * votes <= len(voters):
            return None
        confidence = max(v.confidence for v in verdicts if v.language == language)
        return Detection(language, confidence, True)

    def _alone(
        self, detector, samples: list[str], scripts: list[str], candidates: tuple[str, ...]
    ) -> list[Detection]:
        """Texts with no set language to go by (a single text, a set that does not agree).

        A text whose function words agree with a language is first given to lingua among that
        language's rivals only (:func:`_rivals`, about a quarter of the Latin-script languages:
        half the cost); the verdict stands when it is a language the function words agree with.
        The other texts, and those it does not confirm, go to lingua among all ``candidates``.
        """
        results: list[Detection | None] = []
        for sample, script in zip(samples, scripts, strict=True):
            evidence = FunctionWordCounts(sample, candidates)
            leaders = evidence.agreeing()
            verdict = None
            if leaders:
                narrowed = lingua_detector(_rivals(evidence, candidates))
                verdict = self._each(narrowed, [sample], [script], candidates)[0]
            results.append(verdict if verdict is not None and verdict.language in leaders else None)
        rest = [i for i, result in enumerate(results) if result is None]
        verdicts = self._each(
            detector, [samples[i] for i in rest], [scripts[i] for i in rest], candidates
        )
        for i, verdict in zip(rest, verdicts, strict=True):
            results[i] = verdict
        return [result for result in results if result is not None]

    def _each(
        self, detector, samples: list[str], scripts: list[str], candidates: tuple[str, ...]
    ) -> list[Detection]:
        """lingua's verdict on each text on its own, checked against a second signal."""
        values = _confidences(detector, samples)
        return [
            self._verdict(detector, sample, sample_values, script, candidates)
            for sample, sample_values, script in zip(samples, values, scripts, strict=True)
        ]

    def _long_enough(self, sample: str, script: str) -> bool:
        if script in UNSPACED_SCRIPTS:
            return sum(c.isalpha() for c in sample) >= self.min_words
        return len(sample.split()) >= self.min_words

    def _verdict(  # lingua ships no type hints: detector and values are untyped
        self, detector, sample: str, values: list, script: str, candidates: tuple[str, ...]
    ) -> Detection:
        """lingua's language for ``sample``, kept only where a second signal confirms it.

        lingua's confidences are relative: made-up words ("qzxv bkwp mrtl") come out Yoruba or
        Swahili at 0.9 and more. So the text must also show function words of that language,
        or for a language without a list of them, have the vowels of running text and give
        lingua that language again on each half of its words (every other word). Without that,
        a text of ``MIN_EVIDENCE_WORDS`` words or more is in no known language (the neutral
        analysis, no dictionary loaded), a shorter one is unreliable (it takes its set's
        language, if any).
        """
        if not values or values[0].value <= 0.0:
            return Detection(None, 0.0, reliable=False, script=script)
        best = values[0]
        language = best.language.iso_code_639_1.name.lower()
        reliable = self._long_enough(sample, script) and best.value >= self.min_confidence
        evidence = FunctionWordCounts(sample, candidates)
        if _confirmed(detector, language, sample, evidence, candidates):
            return Detection(language, float(best.value), reliable, script)
        if evidence.words >= MIN_EVIDENCE_WORDS:
            return Detection(None, 0.0, reliable=False, script=script)
        return Detection(language, float(best.value), reliable=False, script=script)


def _confirmed(
    detector, language: str, sample: str, evidence: FunctionWordCounts, candidates: tuple[str, ...]
) -> bool:
    """Whether a second signal backs lingua's ``language`` for ``sample`` (see ``_verdict``)."""
    if has_function_words(language, candidates):
        return evidence.shows(language)
    if not vowels_plausible(sample):
        return False
    words = sample.split()
    return all(
        _same_base_forms(_best_language(detector, " ".join(half)), language)
        for half in (words[0::2], words[1::2])
        if half
    )


def _best_language(detector, text: str) -> str | None:
    values = detector.compute_language_confidence_values(text)
    if not values or values[0].value <= 0.0:
        return None
    return str(values[0].language.iso_code_639_1.name.lower())


def _rivals(evidence: FunctionWordCounts, candidates: tuple[str, ...]) -> tuple[str, ...]:
    """The languages a text whose function words agree with one could still be in: those with
    at least half as many function words in it as the most, and those without a list of them."""
    most = max(evidence.counts.values())
    return tuple(
        code
        for code in candidates
        if 2 * evidence.counts.get(code, 0) >= most or not has_function_words(code, candidates)
    )


def _same_base_forms(found: str | None, language: str) -> bool:
    """Whether ``found`` is ``language`` or shares its lemma dictionary (Bosnian and Croatian
    share simplemma's Serbo-Croatian one): telling them apart changes no base form."""
    if found is None or found == language:
        return found is not None
    lemmas = profile(found).lemmas
    return lemmas is not None and lemmas == profile(language).lemmas


def _confidences(detector, samples: list[str]) -> list[list]:  # lingua ships no type hints
    if len(samples) <= 1:
        return [detector.compute_language_confidence_values(sample) for sample in samples]
    return detector.compute_language_confidence_values_in_parallel(samples)


def _set_detection(known: Sequence[Detection], candidates: tuple[str, ...]) -> Detection | None:
    """The language most reliable ``known`` detections among ``candidates`` agree on, when at
    least ``MIN_SET_TEXTS`` do."""
    counts = Counter(d.language for d in known if d.reliable and d.language in candidates)
    if not counts:
        return None
    language, count = counts.most_common(1)[0]
    if count < MIN_SET_TEXTS:
        return None
    confidence = max(d.confidence for d in known if d.reliable and d.language == language)
    return Detection(language, confidence, True)


def _stands_apart(
    language: str, set_language: str, evidence: FunctionWordCounts, candidates: tuple[str, ...]
) -> bool:
    """Whether a text lingua gives ``language`` keeps it inside a set in ``set_language``: its
    function words must back that language against the set's; for a language without a list
    of them, a text long enough to show function words must lack the set's. A title, a list of
    names or a lowercase technical abstract that lingua takes for another language keeps the
    set's language."""
    if has_function_words(language, candidates):
        return evidence.backs(language, against=set_language)
    return evidence.words >= MIN_EVIDENCE_WORDS and not evidence.supports(set_language)


@lru_cache(maxsize=256)
def lingua_detector(languages: tuple[str, ...]):
    """lingua among ``languages`` (low-accuracy mode); detectors share the loaded models."""
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
