"""The approval step's edits: approve, drop ids, add a query, give feedback (seed 7.5).

A terminal, a web form or a script drives the same edits through :func:`edit_plan`:

    edit_plan(plan, "drop 3 5")        # removes tasks 3 and 5
    edit_plan(plan, "add acme rivals") # appends a `web` task with a new id
    edit_plan(plan, "feedback more EU companies")
    edit_plan(plan, "")                # approve
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from cikb.lists.models import SearchPlan, SearchTask

HELP = "Enter approves; d ID [ID...] drops; + QUERY adds a web search; f TEXT gives feedback for the next round"
_VERBS = {"": "approve", "a": "approve", "approve": "approve", "y": "approve", "yes": "approve",
          "d": "drop", "drop": "drop", "+": "add", "add": "add", "f": "feedback", "feedback": "feedback"}


class PlanEditError(ValueError):
    """An approval command that cannot be applied (unknown verb, unknown id, nothing to add)."""


@dataclass(frozen=True)
class PlanEdit:
    action: Literal["approve", "drop", "add", "feedback"]
    plan: SearchPlan
    feedback: str = ""
    message: str = ""


def edit_plan(plan: SearchPlan, command: str) -> PlanEdit:
    """Apply one approval command to ``plan`` (which stays unchanged); see :data:`HELP`."""
    command = command.strip()
    if command.startswith("+"):
        verb, rest = "+", command[1:].strip()
    else:
        verb, _, rest = command.partition(" ")
        rest = rest.strip()
    action = _VERBS.get(verb.lower())
    if action is None:
        raise PlanEditError(f"unknown command {verb!r}: {HELP}")
    if action == "approve":
        return PlanEdit("approve", plan, message=f"approved {len(plan.tasks)} searches")
    if action == "drop":
        return _drop(plan, rest)
    if not rest:
        raise PlanEditError(f"{action} needs text: {HELP}")
    if action == "add":
        task = SearchTask(id=new_task_id(plan), query=rest, strategy="web", rationale="added by the user")
        return PlanEdit("add", SearchPlan(tasks=[*plan.tasks, task]), message=f"added [{task.id}] [web] {rest}")
    return PlanEdit("feedback", plan, feedback=rest, message="feedback kept for the next round")


def _drop(plan: SearchPlan, rest: str) -> PlanEdit:
    ids = [part for part in re.split(r"[\s,]+", rest) if part]
    if not ids:
        raise PlanEditError(f"drop needs one or more ids: {HELP}")
    unknown = [i for i in ids if i not in plan.ids()]
    if unknown:
        raise PlanEditError(f"no search with id {', '.join(unknown)}: nothing dropped")
    kept = [task for task in plan.tasks if task.id not in ids]
    return PlanEdit("drop", SearchPlan(tasks=kept), message=f"dropped {', '.join(ids)}; {len(kept)} searches left")


def new_task_id(plan: SearchPlan) -> str:
    """``u1``, ``u2``...: the first user id the plan does not hold."""
    taken = set(plan.ids())
    n = 1
    while f"u{n}" in taken:
        n += 1
    return f"u{n}"


def plan_lines(plan: SearchPlan) -> list[str]:
    """``[id] [strategy] query``, one line per task."""
    return [f"[{task.id}] [{task.strategy}] {task.query}" for task in plan.tasks]
