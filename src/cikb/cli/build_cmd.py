"""`cikb build`: from a description to a CSV list of companies, approved in the terminal."""

from __future__ import annotations

import csv
import sys

import typer

from cikb.cli._app import app, console, print_json, settings
from cikb.cli._text import plain, safe
from cikb.core.errors import BadInputError


@app.command("build")
def build_command(
    description: str = typer.Argument(..., help='What the list holds, e.g. "Series A cloud-monitoring startups in the US".'),
    min_items: int = typer.Option(10, "--min-items", "-n", min=1, help="Rows wanted at least: retry rounds run while the list is shorter."),
    columns: str | None = typer.Option(None, "--columns", "-c", help="The CSV's columns, comma-separated (default: the model proposes them; Company first)."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Approve the planned searches without asking (for scripts)."),
    mock_search: bool = typer.Option(False, "--mock-search", help="Answer searches from cikb's fixed local results, not the web (the planning steps still use the LLM endpoint)."),
    as_json: bool = typer.Option(False, "--json", help="Print the result (rows, searches, CSV path) as JSON."),
) -> None:
    """Build a list: plan web searches, approve them, run them, export output_YYYYMMDD_HHMMSS.csv.

    The approval step lists the searches numbered 1..N as N. \\[strategy] query (the model's ids are in --json).
    Enter approves; `d N [N...]` drops searches by number; `+ QUERY` adds one; `f TEXT` gives feedback for the next round.
    The prompt has line editing and history (arrow keys, Ctrl-R).
    Ctrl-C there cancels; Ctrl-C during the searches exports the rows found so far.
    A build that finds no row writes nothing and exits 1.
    The CSV feeds `cikb gather --from-csv` and `cikb enrich`.
    """
    from cikb.app.lists import ListNotSaved, build_list
    from cikb.lists import BuildFailed, BuildRequest
    from cikb.lists.pipeline import approve_all

    if not description.strip():
        raise BadInputError("the description is empty: say what the list holds, e.g. \"cloud-monitoring startups in the US\"")
    request = BuildRequest(description=description, min_items=min_items, columns=_columns(columns))
    try:
        result, path = build_list(settings(), request,
                                  approve=approve_all if yes else terminal_approval, mock_search=mock_search or None,
                                  on_event=lambda line: console.print(safe(line), highlight=False, soft_wrap=True))
    except ListNotSaved as err:  # printed rather than lost: on a full disk there is nowhere else to put them
        _print_unsaved(err.result, as_json)
        raise err.error from None
    if as_json:
        print_json({"csv": str(path) if path else None, **result.model_dump()})
    _status(result, path, settings().lists.max_retry_rounds)
    if result.interrupted:
        sys.exit(130)
    if path is None:
        raise BuildFailed(f"the list is empty: {result.empty_reason()}; nothing written")


def _print_unsaved(result, as_json: bool) -> None:
    """The rows of a list whose CSV could not be written, on stdout (the CSV itself, or the --json result)."""
    from cikb.enrich.table import spreadsheet_safe

    if as_json:
        print_json({"csv": None, **result.model_dump()})
        return
    writer = csv.writer(sys.stdout)
    writer.writerow([spreadsheet_safe(column) for column in result.columns])
    writer.writerows([spreadsheet_safe(str(row.get(column) or "")) for column in result.columns] for row in result.rows)
    sys.stdout.flush()
    _say(f"the list above ({len(result.rows)} rows) could not be written to a file:")


def _columns(text: str | None) -> list[str] | None:
    from cikb.lists.models import check_columns

    if text is None:
        return None
    try:
        return check_columns([name for name in text.split(",") if name.strip()])  # "A,,B" and a trailing comma are fine
    except ValueError as err:
        raise BadInputError(f"--columns {err}") from None


def terminal_approval(plan, round: int):
    """The approval step at the terminal: show the numbered plan, read commands until the user approves."""
    from cikb.lists import Approval, NumberedPlan, PlanEditError, edit_plan
    from cikb.lists.plan import HELP

    _line_editing()
    title = "Planned searches" if round == 0 else f"Retry round {round}: planned searches"
    console.print(f"{title} ({len(plan.tasks)}):", highlight=False)
    shown = NumberedPlan.of(plan)
    _show(shown.lines())
    console.print(HELP, highlight=False, markup=False, soft_wrap=True)
    while True:
        command = _read_command()
        try:
            edit = edit_plan(shown, command)
        except PlanEditError as err:
            console.print(f"[red]error:[/red] {safe(err)}", highlight=False)
            continue
        if edit.action == "approve" and not edit.plan.tasks:
            console.print("no searches left: add one with + QUERY", highlight=False)
            continue
        console.print(safe(edit.message), highlight=False)
        if edit.action == "approve":
            return Approval(plan=edit.plan, feedback=edit.feedback)
        shown = edit.shown
        if edit.action in ("drop", "add"):
            _show(shown.lines())


def _read_command() -> str:
    """One line at the prompt. With stdout not a terminal (``--json > list.json``) the prompt goes to stderr,
    not into the JSON, and input() reads without readline (it edits only when stdin and stdout are terminals)."""
    if sys.stdout.isatty():
        return input("approve> ")
    console.print("approve> ", end="", highlight=False, markup=False)
    return input()


def _line_editing() -> None:
    """Arrow keys, Ctrl-R and the history of this build's commands at the prompt: ``input()`` uses readline once imported."""
    try:
        import readline  # noqa: F401  (imported for its effect on input())
    except ImportError:  # Windows: no GNU readline; the console's own line editing remains
        pass


def _show(lines: list[str]) -> None:
    for line in lines:
        console.print(plain(line), highlight=False, markup=False, soft_wrap=True)


def _status(result, path, max_retry_rounds: int) -> None:
    failed = result.zero_result
    console.print(f"requested items: {result.request.min_items}", highlight=False)
    console.print(f"actual items: {len(result.rows)}", highlight=False)
    console.print(f"retries used: {result.retries_used}", highlight=False)
    console.print(f"failed or zero-result queries: {len(failed)}", highlight=False)
    for search in failed:
        _say(f"  [{search.strategy}] {search.query}: {search.note}")
    if result.rows and len(result.rows) < result.request.min_items and not result.interrupted:
        why = f": {result.ended_early}" if result.ended_early else f" after {result.retries_used} retry rounds (lists.max_retry_rounds)"
        _say(f"the list is short of --min-items{why}; performance report:")
        for search in result.searches:
            _say(f"  [{search.strategy}] {search.query}: {search.items_found} new; {search.note}")
    if result.unused_feedback:
        _say(f"feedback not used: no retry round was planned after it ({_why_no_round(result, max_retry_rounds)}): {result.unused_feedback}")
    if result.interrupted:
        console.print("interrupted: " + ("the rows found so far are exported" if path else "no row found yet: nothing written"), highlight=False)
    if path is None:
        return
    fictional = "; fictional companies from --mock-search, not the web" if result.fictional else ""
    console.print(f"list written to {safe(path)} ({len(result.rows)} rows: {safe(', '.join(result.columns))}{fictional})", highlight=False, soft_wrap=True)
    if any(column.lower() == "company" for column in result.columns):
        console.print(f"next: cikb gather --from-csv {safe(path)}, then cikb enrich {safe(path)} --column ...", highlight=False, soft_wrap=True)
    else:  # `cikb gather --from-csv` reads the Company column and no other
        _say("no Company column: cikb gather --from-csv cannot read this list (name a column Company in --columns)")


def _why_no_round(result, max_retry_rounds: int) -> str:
    if result.interrupted:
        return "interrupted"
    if len(result.rows) >= result.request.min_items:
        return "the list reached --min-items"
    if result.ended_early:
        return "the retry round ended the build, see above"
    return f"lists.max_retry_rounds = {max_retry_rounds} reached"


def _say(line: str) -> None:
    console.print(plain(line), highlight=False, markup=False, soft_wrap=True)
