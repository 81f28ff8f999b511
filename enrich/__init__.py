"""enrich stage: fill a table's column from the knowledge base first, as a proposal to review (spec N1-N8).

Public interface:

- :func:`enrich_table` (and :func:`enrich_table_async`) — CSV + column + strategy -> :class:`~cikb.core.models.DataProposal`;
  :func:`save_proposal`, :func:`load_proposal`, :func:`review_rows`, :func:`apply_proposal` (:func:`apply_proposals` for several columns).
- Strategies: :class:`RowStrategy`, :func:`register_strategy`, :func:`get_strategy`, :func:`get_all_strategies`,
  :func:`get_strategies_by_kind`; built-ins ``lookup``, ``research``, ``computation``;
  :class:`KnowledgeFirstStrategy` for new strategies that need outside facts (KB first, then ``search_web``).
- :func:`interpolate_template` (``{Column}``), :func:`coerce_value`, :func:`safe_eval`.
- Providers: :class:`WebProvider`, :class:`HttpJsonSearch`, :class:`OpenAIWebSearch`, :class:`PageFetcher`.
- Run control: :class:`CancellationToken`, :class:`ProgressEvent`.
"""

from cikb.enrich import strategies  # noqa: F401  (registers the built-in strategies)
from cikb.enrich.api import enrich_table, enrich_table_async
from cikb.enrich.base import (
    ColumnSpec,
    Completer,
    EnrichContext,
    KnowledgeBase,
    RowInput,
    RowStrategy,
    answer_step,
    get_all_strategies,
    get_strategies_by_kind,
    get_strategy,
    register_strategy,
    unregister_strategy,
)
from cikb.enrich.coerce import coerce_value
from cikb.enrich.evidence import KnowledgeFirstStrategy
from cikb.enrich.orchestrator import CancellationToken, ProgressEvent, run_rows
from cikb.enrich.proposal import (
    apply_proposal,
    apply_proposals,
    load_proposal,
    review_rows,
    save_proposal,
)
from cikb.enrich.providers import (
    HttpJsonSearch,
    OpenAIWebSearch,
    PageFetcher,
    SearchHit,
    WebPage,
    WebProvider,
)
from cikb.enrich.safe_eval import safe_eval
from cikb.enrich.template import interpolate_template

__all__ = [
    "CancellationToken", "ColumnSpec", "Completer", "EnrichContext", "HttpJsonSearch", "KnowledgeBase", "KnowledgeFirstStrategy",
    "OpenAIWebSearch", "PageFetcher", "ProgressEvent", "RowInput", "RowStrategy", "SearchHit", "WebPage",
    "WebProvider", "answer_step", "apply_proposal", "apply_proposals", "coerce_value", "enrich_table", "enrich_table_async",
    "get_all_strategies", "get_strategies_by_kind", "get_strategy", "interpolate_template", "load_proposal",
    "register_strategy", "review_rows", "run_rows", "safe_eval", "save_proposal", "unregister_strategy",
]
