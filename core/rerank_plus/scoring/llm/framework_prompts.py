"""Framework prompt templates read back as the core's :class:`PromptTemplate`.

A LangChain or LlamaIndex template is formatted with a marker in place of each of its
variables, whatever its syntax (f-string, mustache, jinja2); the text that comes out is escaped
for ``str.format`` and each marker becomes the ``{placeholder}`` it stands for. The adapters
hand over the messages' roles and texts; nothing here imports a framework.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rerank_plus.scoring.llm.prompts import DEFAULT_TEMPLATES, PromptTemplate

_MARK = "\x00"
_MARKED = re.compile(f"{_MARK}([A-Za-z_][A-Za-z0-9_]*){_MARK}")


def markers(names: Iterable[str]) -> dict[str, str]:
    """The value to format each variable with, so it can be found again in the output."""
    return {name: f"{_MARK}{name}{_MARK}" for name in names}


def _placeholders_back(text: str) -> str:
    escaped = text.replace("{", "{{").replace("}", "}}")
    return _MARKED.sub(r"{\1}", escaped)


def template_from_text(text: str, task: str) -> PromptTemplate:
    """A ``str.format`` string as the user message, with the task's default system message."""
    return PromptTemplate(DEFAULT_TEMPLATES[task].system, text)


def template_from_messages(messages: Sequence[tuple[str, str]], task: str) -> PromptTemplate:
    """The core template of formatted ``(role, text)`` messages, role ``"system"`` or
    ``"user"``; a prompt with no system message keeps the task's default one."""
    other = sorted({role for role, _ in messages} - {"system", "user"})
    if other:
        raise ValueError(
            f"A rerank prompt is a system message and a user message; this one also has "
            f"{', '.join(other)} messages. Put examples in the user message."
        )
    system = "\n\n".join(text for role, text in messages if role == "system")
    user = "\n\n".join(text for role, text in messages if role == "user")
    if not user:
        raise ValueError("A rerank prompt needs a user message (with {query} in it).")
    return PromptTemplate(
        _placeholders_back(system) if system else DEFAULT_TEMPLATES[task].system,
        _placeholders_back(user),
    )
