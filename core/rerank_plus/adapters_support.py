"""What the framework adapters share and no framework needs, so each adapter only translates.

An adapter turns its framework's objects (LlamaIndex nodes, LangChain documents) into a
:class:`RankCall`, runs it, and copies the kept objects with :func:`copy_metadata`. Its ready
classes (``BM25Rerank``, ...) are made by :func:`ready_class` from the registered reranker kinds
(:mod:`rerank_plus.compose.presets`): one typed pydantic field per option, so a kind registered
once appears in every adapter, and :func:`ready_reranker` builds the reranker from the fields.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from rerank_plus.compose.kinds import Option
from rerank_plus.compose.presets import KINDS
from rerank_plus.reranker import Reranker
from rerank_plus.results import RankedResult
from rerank_plus.scoring.llm.prompts import PromptTemplate, check_template, task_of

if TYPE_CHECKING:
    from pydantic import BaseModel

Model = TypeVar("Model", bound="BaseModel")
_READY: dict[tuple[type[Any], str], type[Any]] = {}

#: The kinds whose ``model`` may be a model object instead of a name, the core reranker that
#: scores with it, and the options that still apply (the others belong to the object).
MODEL_OBJECT_RERANKERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "cross-encoder": ("PairScorerReranker", ("batch_size", "cache_size")),
    "bi-encoder": ("EmbeddingsReranker", ("batch_size", "cache_size")),
}


def ready_class_names() -> list[str]:
    """The ready classes every adapter offers, one per registered kind."""
    return [kind.ready_class for kind in KINDS.values()]


def ready_class(base: type[Model], name: str, module: str) -> type[Model]:
    """The ready class ``name`` (``"BM25Rerank"``) of an adapter: ``base`` plus one typed field
    per option of its kind, with the option's default and help as the field's description.

    Made on first use and kept, so each name is one class (pickle and ``isinstance`` work);
    ``module`` is the adapter package that serves it from its ``__getattr__``. An unknown name
    is an ``AttributeError``, as for any missing module attribute. ``base.model_objects``
    (kind -> the framework's model class) widens that kind's ``model`` field to take an object
    of the class too (:data:`MODEL_OBJECT_RERANKERS`). A secret option (an API key) is a
    ``SecretStr`` field and an in-code one (an HTTP client) an object field, both left out of
    the class's serialization: a rebuilt object reads its key from the environment again.
    """
    kind = next((k for k in KINDS.values() if k.ready_class == name), None)
    if kind is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    if (base, name) not in _READY:
        from pydantic import Field, SecretStr, create_model

        object_type = getattr(base, "model_objects", {}).get(kind.name)

        def field_type(option: Option) -> Any:
            if option.secret:
                return SecretStr | None
            if option.name == "model" and object_type is not None:
                return option.type | object_type
            return option.type

        fields: dict[str, Any] = {
            option.name: (
                field_type(option),
                Field(
                    default=option.default,
                    description=option.help,
                    exclude=option.secret or option.in_code,
                ),
            )
            for option in kind.options
        }
        made = create_model(
            name,
            __base__=base,
            __module__=module,
            __doc__=kind.summary,
            reranker_kind=(ClassVar[str], kind.name),
            **fields,
        )
        _READY.setdefault((base, name), made)
    ready: type[Model] = _READY[(base, name)]
    return ready


#: The options of every adapter's ``LLMRerank``, besides its framework-typed ``llm``.
LLM_OPTIONS = (
    Option("mode", str, "listwise", "listwise or pointwise."),
    Option("judgment", str, "grade", "Pointwise: grade or yes-no."),
    Option("window_size", int, 20, "Listwise passages per call."),
    Option("step", int, 10, "Listwise window step."),
    Option("max_calls", int | None, 100, "Calls per rank; None: no limit."),
    Option("max_concurrency", int, 8, "Pointwise calls in flight."),
)


def llm_ready_class(
    base: type[Model],
    module: str,
    llm_type: type[Any],
    chat: Callable[[Any], Any],
    doc: str,
    *,
    prompt_type: Any,
    to_template: Callable[[Any, str], PromptTemplate],
) -> type[Model]:
    """An adapter's ``LLMRerank``: ``base`` plus a typed ``llm`` field (the framework's model
    class), a ``prompt`` field (the framework's prompt template, turned into the core's by
    ``to_template(prompt, task)`` and checked for its placeholders when set) and
    :data:`LLM_OPTIONS`; its reranker is an ``LLMReranker`` on ``chat(llm)``."""
    from pydantic import Field, ValidationInfo, create_model, field_validator

    from rerank_plus.scoring.llm.reranker import LLMReranker

    def checked(prompt: Any, mode: str, judgment: str) -> PromptTemplate | None:
        if prompt is None:
            return None
        task = task_of(mode, judgment)
        return check_template(to_template(prompt, task), task)

    def placeholders_present(cls: Any, prompt: Any, info: ValidationInfo) -> Any:
        # a prompt without its placeholders fails when set, not at the first rank
        checked(prompt, info.data.get("mode", "listwise"), info.data.get("judgment", "grade"))
        return prompt

    fields: dict[str, Any] = {
        option.name: (option.type, Field(default=option.default, description=option.help))
        for option in LLM_OPTIONS
    }
    made = create_model(
        "LLMRerank",
        __base__=base,
        __module__=module,
        __doc__=doc,
        __validators__={"_prompt_placeholders": field_validator("prompt")(placeholders_present)},
        llm=(llm_type, Field(description="The model that ranks.")),
        **fields,
        prompt=(  # after mode and judgment: its check reads them
            prompt_type | None,
            Field(default=None, description="A prompt to send instead of the default."),
        ),
    )

    def reranker(self: Any) -> Reranker:
        if self._reranker is None:
            options = {option.name: getattr(self, option.name) for option in LLM_OPTIONS}
            prompt = checked(self.prompt, self.mode, self.judgment)
            self._reranker = LLMReranker(chat(self.llm), prompt=prompt, **options)
        return self._reranker

    made.reranker = property(reranker, doc="The LLMReranker these fields describe (built once).")  # type: ignore[attr-defined]
    return made


def ready_reranker(
    kind: str | None,
    settings: object,
    *,
    rebuilt_by: str,
    scoring_model: Callable[[Any], Any] = lambda model: model,
) -> Reranker:
    """The core reranker a ready class describes with its fields, read from ``settings``.

    ``kind`` None means the adapter wraps a reranker it was given and has none: the error says
    how to give one and that ``rebuilt_by`` (the framework's deserializer) needs a ready class.
    A ``model`` field holding a model object (not a name) is scored by the kind's
    :data:`MODEL_OBJECT_RERANKERS` reranker, on ``scoring_model(model)`` (the adapter's wrapper
    into :mod:`rerank_plus.scoring.model_objects`' protocols).
    """
    if kind is None:
        owner = type(settings).__name__
        raise ValueError(
            f"{owner} has no reranker: pass one, {owner}(reranker=BM25Reranker()), or use a "
            f"ready class ({', '.join(ready_class_names())}), which {rebuilt_by} can rebuild."
        )
    spec = KINDS[kind]
    values = {name: getattr(settings, name) for name in spec.option_names}
    for option in spec.options:
        if option.secret and hasattr(values[option.name], "get_secret_value"):
            values[option.name] = values[option.name].get_secret_value()
    model = values.get("model")
    if model is None or isinstance(model, str) or kind not in MODEL_OBJECT_RERANKERS:
        return spec.build(values)
    from rerank_plus.scoring import model_objects

    class_name, applying = MODEL_OBJECT_RERANKERS[kind]
    ignored = [
        option.name
        for option in spec.options
        if option.name not in ("model", *applying) and values[option.name] != option.default
    ]
    if ignored:
        raise ValueError(
            f"{', '.join(ignored)} set{'s' if len(ignored) == 1 else ''} how a named model is "
            f"loaded; with a model object ({type(model).__name__}), configure the object itself "
            f"(only {', '.join(applying)} apply)."
        )
    reranker: Reranker = getattr(model_objects, class_name)(
        scoring_model(model), **{name: values[name] for name in applying}
    )
    return reranker


def first_stage_scores(values: Sequence[object]) -> list[float] | None:
    """The retriever's scores when every candidate has a number, else None (no fusion).

    >>> first_stage_scores([0.5, 1]), first_stage_scores([0.5, None])
    ([0.5, 1.0], None)
    """
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return [float(v) for v in numbers] if len(numbers) == len(values) else None


@dataclass(frozen=True)
class RankCall:
    """One rerank an adapter asks for, its framework objects already turned into plain values.

    ``run`` and ``arun`` are the same call, so an adapter's sync and async paths differ only in
    which one they await; ``arun`` uses the reranker's ``arank`` (a worker thread by default).
    """

    query: str
    documents: Sequence[str]
    metadata: Sequence[Mapping[str, Any]]
    first_stage_scores: Sequence[float] | None
    top_n: int | None
    threshold: float | None
    explain: bool

    def run(self, reranker: Reranker) -> list[RankedResult]:
        return reranker.rank(self.query, self.documents, **self._options())

    async def arun(self, reranker: Reranker) -> list[RankedResult]:
        return await reranker.arank(self.query, self.documents, **self._options())

    def _options(self) -> dict[str, Any]:
        return {
            "top_n": self.top_n,
            "threshold": self.threshold,
            "first_stage_scores": self.first_stage_scores,
            "explain": self.explain,
            "metadata": self.metadata,
        }


#: The metadata key of a kept object's raw score (``RankedResult.score``: a BM25 sum, a logit).
RAW_SCORE_KEY = "rerank_raw_score"


def result_metadata(result: RankedResult) -> dict[str, Any]:
    """What every adapter adds to a kept object's metadata besides its framework's own keys:
    the reranker's raw score, beside the relevance in [0, 1] that the framework shows.

    >>> result_metadata(RankedResult(index=0, score=7.5, relevance_score=0.9))
    {'rerank_raw_score': 7.5}
    """
    return {RAW_SCORE_KEY: result.score}


def text_with_fields(content: str, metadata: Mapping[str, Any], fields: Sequence[str]) -> str:
    r"""The text scored for a document whose metadata ``fields`` are scored too: one
    ``key: value`` line per field present (in the order given), a blank line, then the content:
    the layout of LlamaIndex's ``get_content(MetadataMode.EMBED)``, and the ``key: value`` lines
    Cohere's ``rank_fields`` send.

    >>> text_with_fields("Rain all week.", {"city": "Oslo", "id": 7}, ["title", "city"])
    'city: Oslo\n\nRain all week.'
    """
    lines = [f"{key}: {metadata[key]}" for key in fields if key in metadata]
    return "\n".join(lines) + "\n\n" + content if lines else content


def copy_metadata(
    metadata: Mapping[str, Any], result: RankedResult, **added: Any
) -> dict[str, Any]:
    """The metadata of a kept object's copy: the original's (deep-copied, so changing the copy
    never reaches the caller's object, as LangChain's own rerankers do), then ``added``, then
    the explanation under ``rerank_explanation`` when one was asked for.
    """
    copied = {**copy.deepcopy(dict(metadata)), **added}
    if result.explanation is not None:
        copied["rerank_explanation"] = copy.deepcopy(dict(result.explanation))
    return copied
