"""``rerank-plus demo``: a two-stage example on a small multilingual sample, stage by stage."""

from __future__ import annotations

import argparse
import textwrap

from rerank_plus.cli.demo_sample import PASSAGES, QUERIES


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo", help="Rerank a small multilingual sample and show each pipeline stage."
    )
    parser.add_argument("--top-n", type=int, default=3, help="results to keep (default 3)")
    parser.set_defaults(run=run)


def _line(rank: int, index: int, score: float, label: str) -> str:
    text = textwrap.shorten(PASSAGES[index], width=70, placeholder="...")
    return f"  {rank:>2}. [{index}] {label}={score:6.3f}  {text}"


def run(args: argparse.Namespace) -> int:
    from rerank_plus import BM25Reranker

    reranker = BM25Reranker()
    analyzer = reranker.analyzer
    for query, first_stage in QUERIES:
        print(f"\nQuery: {query}")
        print("First stage (vector search, all-MiniLM-L6-v2 cosine), all candidates:")
        before = sorted(range(len(PASSAGES)), key=lambda i: (-first_stage[i], i))
        for rank, i in enumerate(before, start=1):
            print(_line(rank, i, first_stage[i], "cosine"))
        detection = analyzer.detect(query)
        query_language, _ = analyzer.languages_for(query, PASSAGES)
        analysis = analyzer.analyze(query, query_language)
        print(
            f"Query analysis (detected {detection.language}, confidence "
            f"{detection.confidence:.2f}, {'kept' if detection.reliable else 'unreliable'}; "
            f"analyzed as {query_language}):"
        )
        print(f"  raw    : {query}")
        print(f"  tokens : {list(analysis.tokens)}")
        print(f"  lemmas : {list(analysis.lemmas)}")
        print(f"  terms  : {list(analysis.terms)}")
        results = reranker.rank(query, PASSAGES, top_n=args.top_n, explain=True)
        print(f"After rerank-plus BM25+NLP (top {args.top_n}):")
        for rank, result in enumerate(results, start=1):
            print(_line(rank, result.index, result.relevance_score, "relevance"))
            explanation = result.explanation or {}
            matched = ", ".join(explanation.get("matched_terms", {})) or "none"
            print(f"        {explanation.get('document_language')} passage; matched: {matched}")
    return 0
