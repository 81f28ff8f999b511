"""`cikb ask`, `cikb search`, `cikb logs`: questions against the knowledge base, and the LLM call log."""

from __future__ import annotations

import typer
from rich.table import Table

from cikb.cli._app import app, out, print_json, settings
from cikb.llm import LOG_DB_NAME, CallLog


@app.command("logs")
def show_logs(
    count: int = typer.Option(10, "-n", "--count", min=1, help="How many of the newest calls."),
    step: str | None = typer.Option(None, "--step", help="Only calls of this step (e.g. answer, enrich:lookup)."),
    as_json: bool = typer.Option(False, "--json", help="Full calls (messages, response, params) as JSON."),
) -> None:
    """Show the most recent LLM calls (newest first) from data/logs.db."""
    calls = CallLog(settings().data_dir / LOG_DB_NAME).recent(count, step=step)
    if as_json:
        print_json([call.model_dump(mode="json") for call in calls])
        return
    table = Table("id", "when (UTC)", "step", "model", "tokens in/out", "latency", "response or error")
    for call in calls:
        outcome = f"[red]{call.error}[/red]" if call.error else (call.response or "").replace("\n", " ")
        table.add_row(
            str(call.id), call.created_at.strftime("%Y-%m-%d %H:%M:%S"), call.step, call.model,
            f"{call.prompt_tokens or '-'}/{call.completion_tokens or '-'}",
            f"{call.latency_s:.2f}s" if call.latency_s is not None else "-", _clip(outcome, 80),
        )
    out.print(table if calls else "no LLM calls logged yet")


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
