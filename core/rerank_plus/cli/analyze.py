"""``rerank-plus analyze TEXT``: show what the analysis stage makes of a text, as JSON."""

from __future__ import annotations

import argparse
import json

from rerank_plus.cli.arguments import language_code


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="Show the script, language, analysis path, tokens, base forms and terms of a text.",
    )
    parser.add_argument("text", help="the text to analyze")
    parser.add_argument(
        "--lang",
        type=language_code,
        help="force the language (ISO 639-1, e.g. en, zh, th; und: language-neutral)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rerank_plus.analysis import Analyzer

    analyzer = Analyzer()
    detection = analyzer.detect(args.text)
    analysis = analyzer.analyze(args.text, args.lang)
    report = {
        "script": analysis.script,
        "language": analysis.language,
        "path": analysis.path,
        "detected_language": detection.language,
        "confidence": round(detection.confidence, 4),
        "reliable": detection.reliable,
        "tokens": list(analysis.tokens),
        "lemmas": list(analysis.lemmas),
        "terms": list(analysis.terms),
    }
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0
