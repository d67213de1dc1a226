"""A second stage for Semantic Kernel's own searches: fetch candidates, rerank, keep the best.

Semantic Kernel retrieves with a vector store collection (any ``VectorSearch``: the in-memory
one, Azure AI Search, Qdrant, ...) or a ``TextSearch`` (web search connectors). Its agents use
them as kernel functions made by ``create_search_function``. :class:`RerankedSearch` is itself a
``TextSearch`` over one of them, so it takes their place in either role.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any, Literal

from pydantic import ConfigDict, Field
from rerank_plus import RankedResult, Reranker
from rerank_plus.adapters_support import RankCall, first_stage_scores
from rerank_plus.validation import check_query
from semantic_kernel.data.text_search import KernelSearchResults, TextSearch, TextSearchResult
from semantic_kernel.data.vector import VectorSearch, VectorSearchResult
from semantic_kernel.kernel_pydantic import KernelBaseModel
from semantic_kernel.utils.list_handler import desync_list

OutputType = type[str] | type[TextSearchResult] | Literal["Any"]
_OUTPUT_TYPES = "str, TextSearchResult or 'Any'"


class RerankedSearch(KernelBaseModel, TextSearch):
    """A Semantic Kernel search whose results are reranked: ``candidates`` results come from
    ``first_stage``, ``reranker`` reorders them, and ``search`` returns the best ``top`` (after
    ``skip``), best first, ties in the first stage's order.

    ``output_type`` is Semantic Kernel's: ``str`` (the texts), ``TextSearchResult`` (a vector
    record becomes one named by its key), or ``"Any"``: the first stage's own results, the same
    records, never changed; a ``VectorSearchResult`` comes back as a copy whose ``score`` is the
    reranker's ``relevance_score`` in [0, 1]. The first stage's scores go to the reranker (fusion
    reads them) with higher meaning better, read from its best-first order, so distances work.

    >>> from rerank_plus import BM25Reranker
    >>> reranked = RerankedSearch(collection, BM25Reranker(), text_property_name="content")
    ... # doctest: +SKIP
    """

    # A typo such as topn=3 is an error, not a setting silently dropped.
    model_config = ConfigDict(extra="forbid")

    first_stage: VectorSearch | TextSearch = Field(description="The search to rerank.")
    reranker: Reranker = Field(description="Any rerank-plus reranker.")
    text_property_name: str | None = Field(
        default=None,
        description="The record field that holds the text (vector stores; TextSearch results "
        "are read from their value).",
    )
    candidates: int = Field(default=20, gt=0, description="Results fetched to rerank.")
    threshold: float | None = Field(default=None, description="Minimum relevance_score.")

    def __init__(self, first_stage: object, reranker: object, **data: Any) -> None:
        if not isinstance(first_stage, (VectorSearch, TextSearch)):
            raise TypeError(
                "first_stage must be a Semantic Kernel vector store collection (VectorSearch) "
                f"or a TextSearch, got {type(first_stage).__name__}."
            )
        if not isinstance(reranker, Reranker):
            raise TypeError(
                f"reranker must be a rerank_plus Reranker (BM25Reranker(), a Pipeline, ...), "
                f"got {type(reranker).__name__}."
            )
        data.update(first_stage=first_stage, reranker=reranker)
        super().__init__(**data)
        if isinstance(first_stage, VectorSearch):
            fields = first_stage.definition.data_field_names
            if self.text_property_name not in fields:
                raise ValueError(
                    f"text_property_name={self.text_property_name!r} is not a data field of "
                    f"the collection; set it to the one holding the text: "
                    f"{', '.join(map(repr, fields))}."
                )

    async def search(
        self, query: str, output_type: Any = str, **kwargs: Any
    ) -> KernelSearchResults[Any]:
        """The best ``top`` (5) results after ``skip`` (0), and with ``include_total_count``
        the number kept before ``top`` and ``skip``; other keyword arguments (``filter``,
        ``vector_property_name``, ...) go to the first stage."""
        top = kwargs.pop("top", 5)
        skip = kwargs.pop("skip", 0)
        include_total_count = kwargs.pop("include_total_count", False)
        check_query(query)
        if output_type not in (str, TextSearchResult, "Any"):
            raise ValueError(f"output_type must be {_OUTPUT_TYPES}, got {output_type!r}.")
        for name, value, least in (("top", top, 1), ("skip", skip, 0)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be an int >= {least}, got {value!r}.")
        size = max(self.candidates, skip + top)
        found = await self._first_stage(query, output_type, size, kwargs)
        texts = [self._text(item, position) for position, item in enumerate(found)]
        call = RankCall(
            query=query,
            documents=texts,
            metadata=[self._fields(item) for item in found],
            first_stage_scores=_higher_is_better([getattr(item, "score", None) for item in found]),
            top_n=None,
            threshold=self.threshold,
            explain=False,
        )
        ranked = await call.arun(self.reranker)
        kept = [
            self._output(found[r.index], texts[r.index], r, output_type)
            for r in ranked[skip : skip + top]
        ]
        return KernelSearchResults(
            results=desync_list(kept), total_count=len(ranked) if include_total_count else None
        )

    async def _first_stage(
        self, query: str, output_type: OutputType, size: int, options: dict[str, Any]
    ) -> list[Any]:
        found: KernelSearchResults[Any]
        if isinstance(self.first_stage, VectorSearch):
            found = await self.first_stage.search(query, top=size, **options)
        else:  # TextSearchResult carries the name and link that str would drop
            wanted: type[TextSearchResult] | Literal["Any"] = (
                "Any" if output_type == "Any" else TextSearchResult
            )
            found = await self.first_stage.search(query, output_type=wanted, top=size, **options)
        return [item async for item in found.results]

    def _text(self, item: Any, position: int) -> str:
        if isinstance(item, str):
            return item
        if isinstance(item, TextSearchResult):
            return item.value or ""  # a result without a snippet scores as an empty text
        record = item.record if isinstance(item, VectorSearchResult) else item
        if self.text_property_name is None:
            raise ValueError(
                f"The first stage returned {type(record).__name__} results; set "
                "text_property_name to the field that holds their text."
            )
        text = _field(record, self.text_property_name)
        if not isinstance(text, str):
            raise TypeError(
                f"Result {position}'s {self.text_property_name!r} is {type(text).__name__}, "
                "not str; set text_property_name to the field that holds the text."
            )
        return text

    def _fields(self, item: Any) -> dict[str, Any]:
        """What metadata boosts read: a record's data fields, a text result's name and link."""
        if isinstance(item, TextSearchResult):
            return {"name": item.name, "link": item.link}
        record = item.record if isinstance(item, VectorSearchResult) else item
        if isinstance(self.first_stage, VectorSearch) and isinstance(item, VectorSearchResult):
            names = self.first_stage.definition.get_names(include_vector_fields=False)
            return {name: _field(record, name, None) for name in names}
        return dict(record) if isinstance(record, Mapping) else {}

    def _output(self, item: Any, text: str, result: RankedResult, output_type: OutputType) -> Any:
        if output_type is str:
            return text
        if output_type is TextSearchResult and isinstance(item, VectorSearchResult):
            assert isinstance(self.first_stage, VectorSearch)  # only vector stores return these
            key = _field(item.record, self.first_stage.definition.key_name, None)
            return TextSearchResult(name=None if key is None else str(key), value=text)
        if isinstance(item, VectorSearchResult):
            return item.model_copy(update={"score": result.relevance_score})
        return item


_MISSING = object()


def _field(record: Any, name: str, default: Any = _MISSING) -> Any:
    """A record's field, whether the record is a dict or an object (dataclass, pydantic)."""
    if isinstance(record, Mapping):
        value = record.get(name, default)
    else:
        value = getattr(record, name, default)
    if value is _MISSING:
        raise ValueError(
            f"A {type(record).__name__} result has no field {name!r}; set text_property_name "
            "to the field that holds the text."
        )
    return value


def _higher_is_better(scores: Sequence[object]) -> list[float] | None:
    """The first stage's scores turned so that higher is better, read from its order: results
    come best first, so falling scores are similarities and rising ones distances (negated).
    Scores in neither order, or missing, give None (no fusion with them).

    >>> _higher_is_better([0.9, 0.5]), _higher_is_better([0.1, 0.4]), _higher_is_better([1, 3, 2])
    ([0.9, 0.5], [-0.1, -0.4], None)
    """
    values = first_stage_scores(scores)
    if values is None:
        return None
    if all(a >= b for a, b in pairwise(values)):
        return values
    if all(a <= b for a, b in pairwise(values)):
        return [-v for v in values]
    return None
