"""Build a list (spec L1, L2): from a description to a table of companies (or any items).

The pipeline (:class:`ListBuilder`) generates candidate searches in batches, derives a schema
unless columns are given, filters the candidates to a plan, asks an approval callback, runs each
search, normalises and dedupes the rows, and retries with a performance report while the list is
short. It takes the model and the search provider as protocols (:class:`JsonModel`,
:class:`SearchProvider`); ``cikb.app.lists`` wires the configured ones and exports the CSV.
Like a stage, this package imports only ``cikb.core`` and ``cikb.prompts``.
"""

from cikb.lists.models import (
    Approval,
    BuildRequest,
    BuildResult,
    PerformanceReport,
    SearchPlan,
    SearchReport,
    SearchTask,
)
from cikb.lists.pipeline import ApproveFn, BuildCancelled, ListBuilder, StepModels
from cikb.lists.plan import PlanEditError, edit_plan
from cikb.lists.search import (
    JsonModel,
    MockSearch,
    SearchFailed,
    SearchProvider,
    WebSearch,
)
from cikb.lists.table import ItemTable

__all__ = [
    "Approval", "ApproveFn", "BuildCancelled", "BuildRequest", "BuildResult", "ItemTable", "JsonModel", "ListBuilder",
    "MockSearch", "PerformanceReport", "PlanEditError", "SearchFailed", "SearchPlan", "SearchProvider", "SearchReport",
    "SearchTask", "StepModels", "WebSearch", "edit_plan",
]
