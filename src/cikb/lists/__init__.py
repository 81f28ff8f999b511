"""Build a list (spec L1, L2): from a description to a table of companies (or any items).

The pipeline (:class:`ListBuilder`) generates candidate searches in batches, derives a schema
unless columns are given, filters the candidates to a plan, asks an approval callback, runs each
search, normalises and dedupes the rows, and retries with a performance report while the list is
short. Searches are shown numbered (:class:`NumberedPlan`); a model answer that is not the asked JSON
is asked again once, then that step fails with one line (prose is never run as searches), and a
query planned once is never planned again. It takes the model and the search provider as protocols (:class:`JsonModel`,
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
from cikb.lists.pipeline import ApproveFn, BuildCancelled, BuildFailed, ListBuilder, StepModels
from cikb.lists.plan import NumberedPlan, PlanEditError, edit_plan
from cikb.lists.search import (
    JsonModel,
    MockSearch,
    SearchFailed,
    SearchProvider,
    WebSearch,
)
from cikb.lists.table import ItemTable

__all__ = [
    "Approval", "ApproveFn", "BuildCancelled", "BuildFailed", "BuildRequest", "BuildResult", "ItemTable", "JsonModel", "ListBuilder",
    "MockSearch", "NumberedPlan", "PerformanceReport", "PlanEditError", "SearchFailed", "SearchPlan", "SearchProvider", "SearchReport",
    "SearchTask", "StepModels", "WebSearch", "edit_plan",
]
