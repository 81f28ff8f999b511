"""The strategy base class and the registry built-ins and plugins share (spec N1).

A strategy is one small class: four class attributes, ``validate_params`` and
an async ``execute_one`` that yields :class:`~cikb.core.models.RowStep` items and
ends with an ``answer`` step. The orchestrator finds strategies only through
this registry, so a new one registers without touching it::

    class Shout(RowStrategy):
        name = "shout"
        display_name = "Shout the company"
        max_steps = 1

        def validate_params(self, params, ctx):
            pass

        async def execute_one(self, row, params, ctx):
            yield answer_step(row.label.upper(), "high", answered_by="compute")

    register_strategy(Shout())
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal, Protocol

from cikb.enrich.models import ColumnType, Confidence, EnrichSource, RowStep

from cikb.core.errors import BadInputError
from cikb.core.models import ScoredChunk

if TYPE_CHECKING:
    from cikb.enrich.providers import WebProvider

    from cikb.core.config import Settings

StrategyKind = Literal["enrichment", "action"]


class KnowledgeBase(Protocol):
    """What enrichment needs of the knowledge base: the hybrid retrieval (R1) for one company.

    A knowledge base may also have ``resolve(name, website) -> CompanyIdentity | None``: which of its
    companies a row is, by identity (enrich.kb). Without it, a row's company is its name's slug. And it may have
    ``close_in_meaning(question, sentence) -> bool`` (its model's judgement, as ``cikb ask`` reads with it).
    """

    def search(self, question: str, company: str | None) -> list[ScoredChunk]: ...


class KeyValueCache(Protocol):
    """Where enrichment keeps what an LLM generated for a column (question phrasings), across runs (spec Q3)."""

    def get(self, key: str) -> list[str] | None: ...

    def put(self, key: str, value: list[str]) -> None: ...


Generation = Callable[[str], str | None]  # company slug -> its knowledge-base generation (None: unknown)


class Completer(Protocol):
    """One chat completion, logged by the caller's LLM client: ``(step name, messages) -> text``."""

    def __call__(self, step: str, messages: list[dict[str, str]]) -> str: ...


@dataclass(frozen=True)
class ColumnSpec:
    """The column being filled: its name, type and (for select) its options."""

    name: str
    type: ColumnType = "text"
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class RowInput:
    """One table row as a strategy sees it."""

    row_id: int
    data: Mapping[str, str]
    label: str
    company: str | None = None  # the slug of the row's company name; None when the row names none
    website: str | None = None  # the row's website cell, when the table has one: identifies the company too


@dataclass
class EnrichContext:
    """Everything a strategy may use; ``kb``, ``web`` and ``llm`` are None when not configured."""

    settings: Settings
    column: ColumnSpec
    columns: list[str]
    kb: KnowledgeBase | None = None
    web: WebProvider | None = None
    llm: Completer | None = None
    cache: KeyValueCache | None = None
    generation: Generation | None = None  # the application's view of a company's indexed gather, for answer keys
    memo: dict[str, object] = field(default_factory=dict)  # per run: what was generated or looked up once


class RowStrategy(ABC):
    """How one cell's value is obtained. Subclasses set the class attributes and implement two methods."""

    name: ClassVar[str]
    display_name: ClassVar[str]
    kind: ClassVar[StrategyKind] = "enrichment"
    max_steps: ClassVar[int] = 1
    needs_identity: ClassVar[bool] = True  # rows with an empty company cell are skipped
    retryable: ClassVar[bool] = False  # reads params["feedback"]: weak cells are tried again (enrich.retry)

    @abstractmethod
    def validate_params(self, params: dict, ctx: EnrichContext) -> None:
        """Raise BadInputError (one clear line) when ``params`` cannot work for this table."""

    @abstractmethod
    def execute_one(self, row: RowInput, params: dict, ctx: EnrichContext) -> AsyncIterator[RowStep]:
        """Work one row: yield trace steps, ending with an ``answer`` step (see :func:`answer_step`)."""

    async def answer_key(self, row: RowInput, params: dict, ctx: EnrichContext) -> str | None:
        """What decides this row's answer, besides the run's column and params: rows with equal keys are worked once
        (enrich.memo). None, the default, works every row."""
        return None

    def concurrency_key(self, params: dict) -> str:
        """The key of ``settings.enrich.concurrency`` that bounds this strategy's rows in flight."""
        return self.name

    def describe(self, params: dict) -> str:
        """One line for the proposal's reasoning."""
        return f"{self.display_name}: {params.get('question') or params.get('formula') or ''}".strip()


def answer_step(value: str | None, confidence: Confidence, *, answered_by: str,
                sources: list[EnrichSource] | None = None, evidence: str = "") -> RowStep:
    """The final step of every row: the raw value, the strategy's confidence, which path answered, and sources."""
    return RowStep(
        type="answer",
        detail=value or "",
        data={
            "value": value,
            "confidence": confidence,
            "answered_by": answered_by,
            "sources": [s.model_dump() for s in sources or []],
            "evidence": evidence,
        },
    )


# --- registry ----------------------------------------------------------------

_REGISTRY: dict[str, RowStrategy] = {}


def register_strategy(strategy: RowStrategy) -> RowStrategy:
    """Add (or replace) a strategy under its ``name``; built-ins and plugins both come through here."""
    if not getattr(strategy, "name", None) or not getattr(strategy, "display_name", None):
        raise ValueError(f"{type(strategy).__name__} needs a name and a display_name")
    _REGISTRY[strategy.name] = strategy
    return strategy


def unregister_strategy(name: str) -> None:
    """Remove a strategy (tests and plugins that clean up after themselves)."""
    _REGISTRY.pop(name, None)


def get_strategy(name: str) -> RowStrategy:
    """The strategy registered as ``name``; BadInputError naming the known ones otherwise."""
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise BadInputError(f"unknown strategy {name!r} (known: {known})") from None


def get_all_strategies() -> list[RowStrategy]:
    return list(_REGISTRY.values())


def get_strategies_by_kind(kind: StrategyKind) -> list[RowStrategy]:
    return [s for s in _REGISTRY.values() if s.kind == kind]


def load_plugins(modules: list[str], importer: Callable[[str], object] = importlib.import_module) -> None:
    """Import the modules named in ``settings.enrich.plugins``; each registers its strategies at import."""
    for module in modules:
        try:
            importer(module)
        except ImportError as err:
            raise BadInputError(f"cannot import enrichment plugin {module!r}: {err}") from None
