"""Resident memory after detecting, then analyzing, one text in every default language that has
stop words.

Each text is made of its language's own spaCy stop words (30 of them, sorted), so that it is
plainly in that language whatever the script. Detecting it builds the lingua models of its
script on first use; analyzing it then loads spaCy's tokenizer rules, the lemmatizer or
stemmer and the stop words of the language.

Run: ``python benchmarks/analysis_memory.py`` (prints the figures; docs/languages.md and
docs/benchmarks.md quote them).
"""

from __future__ import annotations

import resource

from rerank_plus import Analyzer
from rerank_plus.analysis.language import DEFAULT_LANGUAGES
from rerank_plus.analysis.languages import profile


def resident_mb() -> float:
    """The process's current resident set size, in MB (from /proc; the peak where absent)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def sample_texts() -> dict[str, str]:
    from spacy.util import get_lang_class

    texts = {}
    for code in DEFAULT_LANGUAGES:
        if not profile(code).stop_words:
            continue
        words = sorted(get_lang_class(code).Defaults.stop_words)
        if words:
            texts[code] = " ".join(words[:30])
    return texts


def main() -> None:
    start = resident_mb()
    texts = sample_texts()
    analyzer = Analyzer()
    right = sum(analyzer.detect(text).language == code for code, text in texts.items())
    detected = resident_mb()
    for text in texts.values():
        analyzer.analyze(text)
    analyzed = resident_mb()
    print(
        f"{len(texts)} languages, {right} detected right. Resident memory: {start:.0f} MB "
        f"after imports, {detected:.0f} MB after detecting one text in each, {analyzed:.0f} MB "
        "after analyzing them too."
    )


if __name__ == "__main__":
    main()
