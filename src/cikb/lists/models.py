"""The list builder's data: the request, search tasks and plans, the performance report, the result."""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator


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
    interrupted: bool = Field(False, description="Ctrl-C stopped the searches; rows are what was found so far.")
    notes: list[str] = Field(default_factory=list, description="Steps that failed or ended the rounds early, one line each.")
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
