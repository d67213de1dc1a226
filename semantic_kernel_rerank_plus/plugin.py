"""A Semantic Kernel plugin whose functions rerank documents: translation only, logic in core."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar

from pydantic import ConfigDict, Field, PrivateAttr
from rerank_plus import Reranker
from rerank_plus.adapters_support import RankCall, copy_metadata, ready_reranker
from rerank_plus.validation import check_documents
from semantic_kernel.functions import kernel_function
from semantic_kernel.kernel_pydantic import KernelBaseModel


class RankedDocument(KernelBaseModel):
    """One kept document: its place in the input, its text, its scores and its metadata.

    ``relevance_score`` is in [0, 1] (what thresholds read); ``score`` is the reranker's raw
    value. ``metadata`` is a deep copy of the record's other fields, plus the explanation under
    ``rerank_explanation`` when the plugin explains.
    """

    index: int
    text: str
    relevance_score: float
    score: float
    metadata: dict[str, Any] = Field(default_factory=dict)


class RerankPlugin(KernelBaseModel):
    """Reranking as kernel functions: ``rerank`` (texts) and ``rerank_records`` (dicts whose
    other fields are kept), both reordering by relevance to the query and keeping the best.

    Add it with ``kernel.add_plugin(BM25Rerank(top_n=5), plugin_name="rerank")``. The reranker
    runs in a worker thread, so the kernel's event loop is never blocked.

    >>> from rerank_plus import BM25Reranker
    >>> plugin = RerankPlugin(reranker=BM25Reranker(), top_n=3)
    """

    # A typo such as topn=3 is an error, not a setting silently dropped.
    model_config = ConfigDict(extra="forbid")

    top_n: int | None = Field(default=5, description="Documents to keep; None keeps all.")
    threshold: float | None = Field(default=None, description="Minimum relevance_score.")
    explain: bool = Field(
        default=False, description="Put the explanation in metadata['rerank_explanation']."
    )
    text_key: str = Field(default="text", description="Key of a record's text in rerank_records.")
    # Ready classes (rerank_plus.adapters_support.ready_class) name the kind they build.
    reranker_kind: ClassVar[str | None] = None
    _reranker: Reranker | None = PrivateAttr(default=None)

    def __init__(self, reranker: Reranker | None = None, **data: Any) -> None:
        super().__init__(**data)
        if reranker is None and self.reranker_kind is None:
            ready_reranker(None, self, rebuilt_by="model_validate")  # raises, saying what to do
        if reranker is not None and not isinstance(reranker, Reranker):
            raise TypeError(
                f"reranker must be a rerank_plus Reranker (BM25Reranker(), a Pipeline, ...), "
                f"got {type(reranker).__name__}."
            )
        self._reranker = reranker

    @property
    def reranker(self) -> Reranker:
        """The core reranker: the one given, or the one the ready classes build from fields."""
        if self._reranker is None:
            self._reranker = ready_reranker(self.reranker_kind, self, rebuilt_by="model_validate")
        return self._reranker

    @kernel_function(
        name="rerank",
        description="Reorder documents by relevance to a query, best first, and keep the best.",
    )
    async def rerank(
        self,
        query: Annotated[str, "What the documents should answer."],
        documents: Annotated[list[str], "The candidate texts."],
        top_n: Annotated[int | None, "How many to keep; the plugin's top_n when left out."] = None,
    ) -> Annotated[list[RankedDocument], "The kept documents, best first, with their scores."]:
        texts = check_documents(documents)
        return await self._rank(query, texts, [{} for _ in texts], top_n)

    @kernel_function(
        name="rerank_records",
        description="Reorder records (objects with a text field) by relevance to a query, best "
        "first, and keep the best with their other fields.",
    )
    async def rerank_records(
        self,
        query: Annotated[str, "What the records should answer."],
        records: Annotated[list[dict[str, Any]], "The candidates, each with its text field."],
        top_n: Annotated[int | None, "How many to keep; the plugin's top_n when left out."] = None,
    ) -> Annotated[list[RankedDocument], "The kept records, best first, with their scores."]:
        texts, metadata = self._split(records)
        return await self._rank(query, texts, metadata, top_n)

    async def _rank(
        self,
        query: str,
        texts: Sequence[str],
        metadata: Sequence[Mapping[str, Any]],
        top_n: int | None,
    ) -> list[RankedDocument]:
        call = RankCall(
            query=query,
            documents=texts,
            metadata=metadata,
            first_stage_scores=None,
            top_n=self.top_n if top_n is None else top_n,
            threshold=self.threshold,
            explain=self.explain,
        )
        results = await call.arun(self.reranker)
        return [
            RankedDocument(
                index=r.index,
                text=texts[r.index],
                relevance_score=r.relevance_score,
                score=r.score,
                metadata=copy_metadata(metadata[r.index], r),
            )
            for r in results
        ]

    def _split(self, records: object) -> tuple[list[str], list[dict[str, Any]]]:
        """Each record's text and its other fields; a record that is not a dict, or has no
        text under ``text_key``, is an error naming it."""
        if not isinstance(records, Sequence) or isinstance(records, (str, bytes)):
            raise TypeError(
                f"records must be a list of dicts, got {type(records).__name__}. Wrap a single "
                "record in a list."
            )
        texts: list[str] = []
        others: list[dict[str, Any]] = []
        for position, record in enumerate(records):
            if not isinstance(record, Mapping):
                raise TypeError(
                    f"records[{position}] is {type(record).__name__}, not a dict; pass "
                    f'{{"{self.text_key}": text, ...}}, or plain texts to rerank.'
                )
            if self.text_key not in record:
                raise ValueError(
                    f"records[{position}] has no {self.text_key!r} key (it has "
                    f"{', '.join(map(repr, record)) or 'none'}); put the text there or set "
                    f"text_key to the key that holds it."
                )
            text = record[self.text_key]
            if not isinstance(text, str):
                raise TypeError(
                    f"records[{position}][{self.text_key!r}] is {type(text).__name__}, not str; "
                    "use '' for a record without text."
                )
            texts.append(text)
            others.append({k: v for k, v in record.items() if k != self.text_key})
        return texts, others
