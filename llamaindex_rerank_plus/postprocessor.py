"""LlamaIndex node postprocessors backed by rerank-plus: translation only, logic in the core."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, ClassVar

from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.bridge.pydantic import ConfigDict, Field, PrivateAttr, field_validator
from llama_index.core.callbacks import CBEventType, EventPayload
from llama_index.core.callbacks.base import EventContext
from llama_index.core.instrumentation import get_dispatcher
from llama_index.core.instrumentation.events.rerank import ReRankEndEvent, ReRankStartEvent
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle
from rerank_plus import RankedResult, Reranker
from rerank_plus.adapters_support import (
    RankCall,
    copy_metadata,
    first_stage_scores,
    ready_reranker,
    result_metadata,
)
from rerank_plus.validation import check_threshold, check_top_n

dispatcher = get_dispatcher(__name__)


class LlamaIndexEmbedder:
    """A LlamaIndex embedding model behind the core's ``TextEmbedder`` protocol, so its calls
    go through LlamaIndex's own batching, callbacks and embedding events."""

    def __init__(self, model: BaseEmbedding) -> None:
        self.model = model
        self.model_name = model.model_name

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.model.get_text_embedding_batch(list(texts))

    def embed_query(self, text: str) -> list[float]:
        return self.model.get_query_embedding(text)


class RerankPlusPostprocessor(BaseNodePostprocessor):
    """Reranks retrieved nodes with any rerank-plus reranker.

    ``NodeWithScore.score`` becomes the reranker's ``relevance_score`` (in [0, 1]) and the
    reranker's own score is kept in ``metadata["rerank_raw_score"]``; the kept nodes are copies,
    the caller's nodes are never changed. The keys the postprocessor adds to metadata are left
    out of the node's embed and LLM text, so they never reach a prompt. The text scored is
    ``get_content(metadata_mode)``: ``MetadataMode.EMBED`` by default, as LlamaIndex's own
    rerankers score it (the metadata the index embedded, then the text). The nodes' first-stage
    scores (when every node has one) and metadata are passed to the reranker: fusion rerankers
    and boosts read them, plain rerankers ignore them. Unknown arguments are errors, and
    ``top_n`` and ``threshold`` are checked when set, at construction and on assignment.

    >>> from rerank_plus import BM25Reranker
    >>> postprocessor = RerankPlusPostprocessor(reranker=BM25Reranker(), top_n=3)
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    top_n: int | None = Field(default=5, description="Nodes to keep; None keeps all.")
    threshold: float | None = Field(default=None, description="Minimum relevance_score.")
    metadata_mode: MetadataMode = Field(
        default=MetadataMode.EMBED, description="Node metadata included in the scored text."
    )
    keep_retrieval_score: bool = Field(
        default=False, description="Keep the first-stage score in metadata['retrieval_score']."
    )
    explain: bool = Field(
        default=False, description="Put the explanation in metadata['rerank_explanation']."
    )
    # Ready classes (rerank_plus.adapters_support.ready_class) name the kind they build.
    reranker_kind: ClassVar[str | None] = None
    # A BiEncoderRerank takes a LlamaIndex embedding model as its model.
    model_objects: ClassVar[dict[str, type]] = {"bi-encoder": BaseEmbedding}
    _reranker: Reranker | None = PrivateAttr(default=None)

    def __init__(self, reranker: Reranker | None = None, **data: Any) -> None:
        super().__init__(**data)
        self._reranker = reranker

    @field_validator("top_n")
    @classmethod
    def _top_n_in_range(cls, value: int | None) -> int | None:
        return check_top_n(value)

    @field_validator("threshold")
    @classmethod
    def _threshold_in_range(cls, value: float | None) -> float | None:
        return check_threshold(value)

    @classmethod
    def class_name(cls) -> str:
        """What ``to_dict`` records: ``RerankPlusBM25Rerank`` for the ready class BM25Rerank."""
        return (
            "RerankPlusPostprocessor" if cls.reranker_kind is None else f"RerankPlus{cls.__name__}"
        )

    @property
    def reranker(self) -> Reranker:
        """The core reranker: the one given, or the one the ready classes build from fields."""
        if self._reranker is None:
            self._reranker = ready_reranker(
                self.reranker_kind, self, rebuilt_by="from_dict", scoring_model=LlamaIndexEmbedder
            )
        return self._reranker

    @property
    def model_name(self) -> str:
        return getattr(self.reranker, "model", None) or type(self.reranker).__name__

    def _call(self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None) -> RankCall:
        """Emit the start event first, as LlamaIndex's own rerankers do, then translate."""
        dispatcher.event(
            ReRankStartEvent(
                query=query_bundle,
                nodes=nodes,
                top_n=self.top_n or len(nodes),
                model_name=self.model_name,
            )
        )
        if query_bundle is None:
            raise ValueError(
                "No query to rerank against: call postprocess_nodes(nodes, query_str=...) or "
                "pass a QueryBundle."
            )
        return RankCall(
            query=query_bundle.query_str,
            documents=[n.node.get_content(metadata_mode=self.metadata_mode) for n in nodes],
            metadata=[n.node.metadata for n in nodes],
            first_stage_scores=first_stage_scores([n.score for n in nodes]),
            top_n=self.top_n,
            threshold=self.threshold,
            explain=self.explain,
        )

    def _event(
        self, nodes: list[NodeWithScore], query: str
    ) -> AbstractContextManager[EventContext]:
        payload: dict[str, Any] = {
            EventPayload.NODES: nodes,
            EventPayload.MODEL_NAME: self.model_name,
            EventPayload.QUERY_STR: query,
            EventPayload.TOP_K: self.top_n,
        }
        return self.callback_manager.event(CBEventType.RERANKING, payload=payload)

    def _finish(
        self, nodes: list[NodeWithScore], results: list[RankedResult], event: EventContext
    ) -> list[NodeWithScore]:
        reranked = [self._copy(nodes[r.index], r) for r in results]
        event.on_end(payload={EventPayload.NODES: reranked})
        dispatcher.event(ReRankEndEvent(nodes=reranked))
        return reranked

    def _copy(self, original: NodeWithScore, result: RankedResult) -> NodeWithScore:
        added = result_metadata(result)
        if self.keep_retrieval_score:
            added["retrieval_score"] = original.score
        metadata = copy_metadata(original.node.metadata, result, **added)
        source = original.node
        new_keys = [key for key in metadata if key not in source.metadata]
        node = source.model_copy(
            update={
                "metadata": metadata,
                "excluded_embed_metadata_keys": [*source.excluded_embed_metadata_keys, *new_keys],
                "excluded_llm_metadata_keys": [*source.excluded_llm_metadata_keys, *new_keys],
            }
        )
        return NodeWithScore(node=node, score=result.relevance_score)

    def _postprocess_nodes(
        self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None
    ) -> list[NodeWithScore]:
        call = self._call(nodes, query_bundle)
        with self._event(nodes, call.query) as event:
            return self._finish(nodes, call.run(self.reranker), event)

    @dispatcher.span
    async def _apostprocess_nodes(
        self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None
    ) -> list[NodeWithScore]:
        call = self._call(nodes, query_bundle)
        with self._event(nodes, call.query) as event:
            return self._finish(nodes, await call.arun(self.reranker), event)
