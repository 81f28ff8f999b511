"""The approval step's edits: approve, drop searches by number, add a query, give feedback (seed 7.5).

The plan is shown numbered 1..N; the model's ids stay internal (they may hold spaces or commas).
A number stays with its search for the whole approval step, so a number read from a list shown
earlier never names another search; an added search gets a number never shown before.
A terminal, a web form or a script drives the same edits through :func:`edit_plan`:

    shown = NumberedPlan.of(plan)
    edit_plan(shown, "d 1 3")          # removes searches 1 and 3
    edit_plan(shown, "+ acme rivals")  # appends a `web` search numbered N+1
    edit_plan(shown, "f more EU companies")
    edit_plan(shown, "")               # approve
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from cikb.lists.models import SearchPlan, SearchTask

HELP = "Enter approves; d N [N...] drops searches by number; + QUERY adds a web search; f TEXT gives feedback for the next round"
_VERBS = {"": "approve", "a": "approve", "approve": "approve", "y": "approve", "yes": "approve",
          "d": "drop", "drop": "drop", "+": "add", "add": "add", "f": "feedback", "feedback": "feedback"}


class PlanEditError(ValueError):
    """An approval command that cannot be applied (unknown verb, unknown number, nothing to add)."""


@dataclass(frozen=True)
class NumberedPlan:
    """The plan as the user sees it: each search with its number, and the feedback given so far."""

    entries: tuple[tuple[int, SearchTask], ...]
    feedback: tuple[str, ...] = field(default=())
    last_number: int = 0  # the highest number given so far, dropped searches included: never given again

    @classmethod
    def of(cls, plan: SearchPlan) -> NumberedPlan:
        return cls(tuple(enumerate(plan.tasks, start=1)), last_number=len(plan.tasks))

    @property
    def plan(self) -> SearchPlan:
        return SearchPlan(tasks=[task for _, task in self.entries])

    @property
    def numbers(self) -> list[int]:
        return [number for number, _ in self.entries]

    def lines(self) -> list[str]:
        """``N. [strategy] query``, one line per search."""
        return [f"{number}. [{task.strategy}] {task.query}" for number, task in self.entries]


@dataclass(frozen=True)
class PlanEdit:
    action: Literal["approve", "drop", "add", "feedback"]
    shown: NumberedPlan
    message: str = ""

    @property
    def plan(self) -> SearchPlan:
        return self.shown.plan

    @property
    def feedback(self) -> str:
        """Every feedback note given at this step, in order."""
        return "; ".join(self.shown.feedback)


def edit_plan(shown: NumberedPlan | SearchPlan, command: str) -> PlanEdit:
    """Apply one approval command to ``shown`` (which stays unchanged); see :data:`HELP`."""
    if isinstance(shown, SearchPlan):
        shown = NumberedPlan.of(shown)
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
        return PlanEdit("approve", shown, message=f"approved {len(shown.entries)} searches")
    if action == "drop":
        return _drop(shown, rest)
    if not rest:
        raise PlanEditError(f"{action} needs text: {HELP}")
    if action == "add":
        return _add(shown, " ".join(rest.split()))
    kept = replace(shown, feedback=(*shown.feedback, rest))
    return PlanEdit("feedback", kept, message="feedback kept for the next round" + (f" ({len(kept.feedback)} notes)" if len(kept.feedback) > 1 else ""))


def _drop(shown: NumberedPlan, rest: str) -> PlanEdit:
    words = [part for part in re.split(r"[\s,]+", rest) if part]
    if not words:
        raise PlanEditError(f"drop needs one or more numbers, e.g. d 1 3: {HELP}")
    not_numbers = [word for word in words if not word.isdecimal()]
    if not_numbers:
        raise PlanEditError(f"drop takes the searches' numbers, e.g. d 1 3, not {', '.join(not_numbers)}: nothing dropped")
    numbers = list(dict.fromkeys(_number(word) for word in words))
    unknown = [_clip(word) for word in dict.fromkeys(words) if _number(word) not in shown.numbers]
    if unknown:
        raise PlanEditError(f"no search numbered {', '.join(unknown)} (the plan holds {_span(shown.numbers)}): nothing dropped")
    kept = tuple(entry for entry in shown.entries if entry[0] not in numbers)
    return PlanEdit("drop", replace(shown, entries=kept),
                    message=f"dropped {', '.join(map(str, numbers))}; {len(kept)} searches left")


def _number(word: str) -> int | None:
    """``word``'s number; None when it has more digits than int() reads (no plan holds such a number)."""
    try:
        return int(word)
    except ValueError:
        return None


def _clip(word: str, width: int = 12) -> str:
    return word if len(word) <= width else f"{word[:width]}... ({len(word)} digits)"


def _add(shown: NumberedPlan, query: str) -> PlanEdit:
    same = next((number for number, task in shown.entries if task.query.lower() == query.lower()), None)
    if same is not None:
        raise PlanEditError(f"search {same} already runs that query: nothing added")
    number = shown.last_number + 1
    task = SearchTask(id=new_task_id(shown.plan), query=query, strategy="web", rationale="added by the user")
    return PlanEdit("add", replace(shown, entries=(*shown.entries, (number, task)), last_number=number),
                    message=f"added {number}. [web] {query}")


def _span(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers)) if numbers else "no searches"


def new_task_id(plan: SearchPlan) -> str:
    """``u1``, ``u2``...: the first user id the plan does not hold (internal, like the model's ids)."""
    taken = set(plan.ids())
    n = 1
    while f"u{n}" in taken:
        n += 1
    return f"u{n}"
