"""The list builder's pipeline (seed 7.2-7.8): generate, schema, filter, approve, search, retry."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cikb.core.config import ListSettings
from cikb.core.errors import CikbError
from cikb.lists import parsing, schemas
from cikb.lists.models import (
    Approval,
    BuildRequest,
    BuildResult,
    SearchPlan,
    SearchReport,
    SearchTask,
)
from cikb.lists.search import JsonModel, SearchFailed, SearchProvider
from cikb.lists.table import ItemTable
from cikb.prompts import load_prompt

ApproveFn = Callable[[SearchPlan, int], Approval]
"""Shown the plan of a round (0: the first), returns the approved plan and feedback. May raise BuildCancelled."""


class BuildCancelled(CikbError):
    """The user stopped the build before any search ran."""

    exit_code = 130


class BuildFailed(CikbError):
    """The build cannot go on: the model planned no usable search."""

    exit_code = 1


class StepFailed(ValueError):
    """A model step whose answer was not the asked JSON, twice; the message is one line saying so."""


@dataclass(frozen=True)
class StepModels:
    """The model of each step (None: the client's default)."""

    generate: str | None = None
    filter: str | None = None
    schema: str | None = None

    @classmethod
    def from_settings(cls, settings: ListSettings) -> StepModels:
        return cls(settings.generate_model, settings.filter_model, settings.schema_model)


def approve_all(plan: SearchPlan, round: int) -> Approval:
    """``--yes``: every search as planned."""
    return Approval(plan=plan)


class ListBuilder:
    """One build: ``ListBuilder(model, search, settings, approve).build(request)``.

    ``on_event`` receives one line per step ("searching 2/5 acme rivals: 3 new (9 in all)"), for a progress display.
    """

    def __init__(self, model: JsonModel, search: SearchProvider, settings: ListSettings,
                 approve: ApproveFn = approve_all, on_event: Callable[[str], None] | None = None,
                 models: StepModels | None = None) -> None:
        self.model = model
        self.search = search
        self.settings = settings
        self.approve = approve
        self.say = on_event or (lambda message: None)
        self.models = models or StepModels.from_settings(settings)
        self._taken: set[str] = set()  # ids of this build's searches
        self._planned: dict[str, str] = {}  # queries shown for approval (normalised: as written): never planned again
        self._result: BuildResult | None = None  # the build under way

    def build(self, request: BuildRequest) -> BuildResult:
        """Run every round. Ctrl-C (or end of input) before the first search raises :class:`BuildCancelled`;
        after it, the result holds the rows found so far with ``interrupted`` set. :class:`BuildFailed` when
        the model planned no search at all."""
        result = self._result = BuildResult(request=request, columns=request.columns or [])
        table = ItemTable(result.columns)
        self._searching = False
        self._taken, self._planned = set(), {}
        try:
            self._rounds(request, result, table)
        except (KeyboardInterrupt, EOFError):
            if not self._searching:
                raise BuildCancelled("build cancelled before any search ran: nothing written") from None
            result.interrupted = True
            self.say("interrupted: keeping the rows found so far" if len(table) else "interrupted before any row was found")
        result.rows = table.rows
        return result

    def _rounds(self, request: BuildRequest, result: BuildResult, table: ItemTable) -> None:
        if not request.columns:
            result.columns = table.columns = self.derive_schema(request.description)
        candidates = self.generate(request.description)
        if not candidates:
            raise BuildFailed(f"the model planned no searches ({result.notes[-1] if result.notes else 'its answers held none'}): nothing written")
        if unavailable := self.search.unavailable():  # known once the planning calls ran: say so before any approval
            raise BuildFailed(f"{unavailable}: nothing written")
        feedback = ""
        for round in range(self.settings.max_retry_rounds + 1):
            if round:
                result.retries_used = round
                plan = self._retry_plan(request.description, result, table, feedback)
                if plan is None:
                    break
            else:
                plan = self.filter(request.description, candidates)
            approval = self.approve(plan, round)
            self._planned.update((_normal(task.query), task.query) for task in [*plan.tasks, *approval.plan.tasks])
            feedback = approval.feedback or feedback
            result.unused_feedback = approval.feedback or result.unused_feedback
            self._searching = True
            for n, task in enumerate(approval.plan.tasks, start=1):
                result.searches.append(self._run(task, request.description, table, f"{n}/{len(approval.plan.tasks)}"))
            if len(table) >= request.min_items:
                return

    def _retry_plan(self, description: str, result: BuildResult, table: ItemTable, feedback: str) -> SearchPlan | None:
        """A retry round's filtered plan; None (said in one line, and kept as ``ended_early``) when a step failed or
        planned nothing new. An endpoint error ends the rounds too: the rows found so far are still exported."""
        n = result.retries_used
        try:
            candidates = self.regenerate(description, result, table, feedback, batch=self.settings.initial_batches + n)
            result.unused_feedback = ""  # the round was planned with it
            if not candidates:
                return self._end_rounds(result, f"retry round {n}: the model planned no new searches; no more rounds")
            return self.filter(description, candidates)
        except (StepFailed, CikbError) as err:
            return self._end_rounds(result, f"retry round {n} failed: {err}; no more rounds")

    def _end_rounds(self, result: BuildResult, line: str) -> None:
        result.ended_early = line
        self._note(line)

    def _note(self, line: str) -> None:
        """A step that failed or ended the rounds: said now, and kept for the final status."""
        if self._result is not None:
            self._result.notes.append(line)
        self.say(line)

    # --- steps ------------------------------------------------------------------

    def generate(self, description: str) -> list[SearchTask]:
        """``initial_batches`` batches of ``per_batch`` candidate searches; a batch whose answer is not JSON is left out."""
        tasks: list[SearchTask] = []
        for batch in range(1, self.settings.initial_batches + 1):
            self.say(f"generating searches: batch {batch}/{self.settings.initial_batches}")
            payload = {"list": description, "count": self.settings.per_batch, "batch": batch,
                       "already_planned": [task.query for task in tasks]}
            try:
                tasks += self._searches("build:generate", "build_generate_searches", payload, batch)
            except StepFailed as err:
                self._note(f"generating searches: batch {batch}/{self.settings.initial_batches} failed: {err}")
        return tasks

    def regenerate(self, description: str, result: BuildResult, table: ItemTable, feedback: str, batch: int) -> list[SearchTask]:
        """New searches from the performance report of the rounds so far, without those planned before. StepFailed if not JSON."""
        report = result.report(len(table), feedback)
        self.say(f"retry round {result.retries_used}: {len(table)} of {result.request.min_items} items, asking for new searches")
        payload = {"list": description, "count": self.settings.per_batch, "performance_report": report.model_dump(),
                   "user_feedback": feedback, "already_planned": list(self._planned.values())}
        return self._searches("build:retry", "build_retry_searches", payload, batch)

    def derive_schema(self, description: str) -> list[str]:
        self.say("choosing the columns")
        try:
            columns = self._ask("build:schema", "build_schema", {"list": description}, schemas.COLUMNS,
                                self.models.schema, parsing.parse_columns)
        except StepFailed as err:
            columns = list(self.settings.default_columns)
            self._note(f"choosing the columns failed: {err}; using {', '.join(columns)} (lists.default_columns)")
        # The list feeds `cikb gather --from-csv`, which reads the column named Company (no other name).
        if not _has_company(columns):
            columns = ["Company" if column.lower() == "company name" else column for column in columns]
        if not _has_company(columns):
            columns.insert(0, "Company")
        return columns

    def filter(self, description: str, candidates: list[SearchTask]) -> SearchPlan:
        """``filtered_count`` of the candidates, in the model's order; a pick that names none of them or a failed
        step keeps the first ``filtered_count``: every search is paid for, a failed pick never runs them all."""
        if len(candidates) <= self.settings.filtered_count:
            return SearchPlan(tasks=candidates)
        self.say(f"choosing {self.settings.filtered_count} of {len(candidates)} searches")
        payload = {"list": description, "count": self.settings.filtered_count,
                   "candidates": [task.model_dump(exclude_none=True) for task in candidates]}
        try:
            ids = self._ask("build:filter", "build_filter_searches", payload, schemas.IDS, self.models.filter, parsing.parse_ids)
        except StepFailed as err:
            self._note(f"choosing searches failed: {err}; keeping the first {self.settings.filtered_count} of {len(candidates)}")
            return SearchPlan(tasks=candidates[: self.settings.filtered_count])
        by_id = {task.id: task for task in candidates}
        kept = list(dict.fromkeys(i for i in ids if i in by_id))[: self.settings.filtered_count]
        if not kept:
            self._note(f"choosing searches: the model picked none of the {len(candidates)} candidates' ids; "
                       f"keeping the first {self.settings.filtered_count}")
            return SearchPlan(tasks=candidates[: self.settings.filtered_count])
        return SearchPlan(tasks=[by_id[i] for i in kept])

    def _run(self, task: SearchTask, description: str, table: ItemTable, progress: str) -> SearchReport:
        strategy = self.settings.strategies.get(task.strategy) or self.settings.strategies.get("web")
        report = SearchReport(id=task.id, query=task.query, strategy=task.strategy, items_found=0)
        try:
            items = self.search.search(task, table.columns, strategy, description) if strategy else []
        except SearchFailed as err:
            report.note = f"failed: {err}"
            self.say(f"searching {progress} {task.query}: failed ({err})")
            return report
        report.items_found = sum(table.add(item, task) for item in items)
        duplicates = len(items) - report.items_found
        report.note = f"{len(items)} results, {duplicates} duplicates or empty" if items else "no results"
        self.say(f"searching {progress} {task.query}: {report.items_found} new ({len(table)} in all)")
        return report

    # --- model calls --------------------------------------------------------------

    def _searches(self, step: str, prompt: str, payload: dict, batch: int) -> list[SearchTask]:
        """The answer's searches, without queries planned before (in this build, this batch included)."""
        strategies = set(self.settings.strategies) | {"web"}
        parsed = self._ask(step, prompt, payload, schemas.SEARCHES, self.models.generate,
                           lambda answer: parsing.parse_searches(answer, batch, set(self._taken), strategies))
        tasks, repeated = [], 0
        seen = set(self._planned) | {_normal(query) for query in payload.get("already_planned", [])}
        for task in parsed:
            if _normal(task.query) in seen:
                repeated += 1
                continue
            seen.add(_normal(task.query))
            tasks.append(task)
        if repeated:
            self.say(f"left out {repeated} of {len(parsed)} searches: planned before")
        if len(tasks) > self.settings.per_batch:  # a model that answers more than asked must not raise the bill
            self.say(f"left out {len(tasks) - self.settings.per_batch} of {len(tasks)} new searches: over lists.per_batch")
            tasks = tasks[: self.settings.per_batch]
        self._taken.update(task.id for task in tasks)
        return tasks

    def _ask(self, step: str, prompt: str, payload: dict, schema: dict, model: str | None, parse: Callable[[str], Any]) -> Any:
        """The parsed answer, asking twice at most (seed 10). :class:`StepFailed` when neither answer is the asked JSON.

        An endpoint error on both attempts is raised: without a model there is nothing to go on with.
        """
        instructions = load_prompt(prompt).replace("{count}", str(payload.get("count", "")))
        text: str | None = None
        error: CikbError | None = None
        for _attempt in range(2):
            try:
                text = self.model.respond(step, json.dumps(payload, ensure_ascii=False), instructions=instructions,
                                          model=model, schema=schema, max_output_tokens=self.settings.max_output_tokens).text
            except CikbError as err:
                error = err
                continue
            try:
                return parse(text)
            except ValueError:
                continue
        if text is None and error is not None:
            raise error
        raise StepFailed(f"the model answered {_snippet(text or '')}, not the asked JSON (asked twice)")


def _has_company(columns: list[str]) -> bool:
    return any(column.lower() == "company" for column in columns)


def _normal(query: str) -> str:
    """A query as compared for repeats: case and spacing ignored."""
    return " ".join(query.casefold().split())


def _snippet(text: str, width: int = 60) -> str:
    line = " ".join(text.split())
    return repr(line if len(line) <= width else line[: width - 3] + "...") if line else "nothing"
