"""The list builder's data: the request, search tasks and plans, the performance report, the result."""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator


SOURCE_FIELDS = ("source_query_id", "source_strategy")  # each row's own fields, beside the columns


def check_columns(names: list[str]) -> list[str]:
    """``names`` with runs of whitespace as one space. ValueError (a clause, e.g. "names A more than once") for
    no name, a blank one, one given twice (names compare without case) or one of each row's own fields."""
    names = [" ".join(name.split()) for name in names]
    lowered = [name.lower() for name in names]
    repeated = next((name for n, name in enumerate(names) if name.lower() in lowered[:n]), None)
    internal = next((name for name in names if name.lower() in SOURCE_FIELDS), None)
    if not names:
        raise ValueError("is empty: give names separated by commas, e.g. Company,Website,City")
    if not all(names):
        raise ValueError("has a blank name")
    if repeated:
        raise ValueError(f"names {repeated} more than once (names compare without case)")
    if internal:
        raise ValueError(f"names {internal}, a field every row has already ({', '.join(SOURCE_FIELDS)})")
    return names


class BuildRequest(BaseModel):
    """What the user asked for."""

    description: str = Field(min_length=1)
    min_items: int = Field(ge=1)
    columns: list[str] | None = Field(None, description="The CSV's columns; None: derive a schema.")

    @field_validator("description")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the description is empty")
        return value.strip()

    @field_validator("columns")
    @classmethod
    def _usable_columns(cls, value: list[str] | None) -> list[str] | None:
        try:
            return None if value is None else check_columns(value)
        except ValueError as err:
            raise ValueError(f"columns {err}") from None


class SearchTask(BaseModel):
    """One search to run."""

    id: str
    query: str
    strategy: str = "web"
    rationale: str | None = None


class SearchPlan(BaseModel):
    tasks: list[SearchTask] = Field(default_factory=list)

    def ids(self) -> list[str]:
        return [task.id for task in self.tasks]


class Approval(BaseModel):
    """The approved plan and the user's feedback for the next regeneration."""

    plan: SearchPlan
    feedback: str = ""


class SearchReport(BaseModel):
    """How one search did (a line of the performance report)."""

    id: str
    query: str
    strategy: str
    items_found: int = Field(description="New rows it added (duplicates not counted).")
    note: str = ""


class PerformanceReport(BaseModel):
    """The fixed-shape report a retry round is generated from (seed 7.8)."""

    total_items: int
    searches: list[SearchReport] = Field(default_factory=list)
    user_feedback: str = ""


class BuildResult(BaseModel):
    """What a build produced, for the export and the final status."""

    request: BuildRequest
    columns: list[str]
    rows: list[dict[str, str]] = Field(default_factory=list, description="Normalised rows: the columns plus source_query_id and source_strategy.")
    retries_used: int = 0
    searches: list[SearchReport] = Field(default_factory=list)
    fictional: bool = Field(False, description="The rows are cikb's fixed fictional results (--mock-search), not found on the web.")
    interrupted: bool = Field(False, description="Ctrl-C stopped the searches; rows are what was found so far.")
    notes: list[str] = Field(default_factory=list, description="Steps that failed or ended the rounds early, one line each.")
    ended_early: str = Field("", description="Why the retry rounds ended before lists.max_retry_rounds (a step failed or planned nothing new).")
    unused_feedback: str = Field("", description="Feedback given at the last approval that no retry round was planned with.")

    @property
    def zero_result(self) -> list[SearchReport]:
        """Searches that failed or added nothing."""
        return [search for search in self.searches if search.items_found == 0]

    def empty_reason(self) -> str:
        """Why the build found no rows, in one clause (for a result without rows)."""
        if not self.searches:
            return "no search ran"
        failed = [search for search in self.searches if search.note.startswith("failed")]
        reason = f"none of the {len(self.searches)} searches found an item"
        if failed:
            reason += f" ({len(failed)} failed, e.g. {failed[0].note.removeprefix('failed: ')})"
        return reason + (f"; {self.notes[-1]}" if self.notes else "")

    def report(self, total_items: int, feedback: str = "") -> PerformanceReport:
        """The performance report of the searches so far, with ``total_items`` rows kept."""
        return PerformanceReport(total_items=total_items, searches=self.searches, user_feedback=feedback)
