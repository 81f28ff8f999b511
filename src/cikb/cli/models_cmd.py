"""`cikb models` and `cikb models pull`: the dense model configured, on this machine, and in the knowledge base."""

from __future__ import annotations

from time import monotonic
from typing import TYPE_CHECKING

import typer

from cikb.cli._app import app, out, print_json, settings
from cikb.cli._text import plain

if TYPE_CHECKING:
    from cikb.app.models_info import ModelsReport
    from cikb.core.models import ModelInfo

models_app = typer.Typer(help="The embedding model: what is configured, installed and in the knowledge base; download it.", no_args_is_help=False)
app.add_typer(models_app, name="models")


@models_app.callback(invoke_without_command=True)
def models_command(
    ctx: typer.Context,
    as_json: bool = typer.Option(False, "--json", help="Print as JSON (configured, installed, missing, packaged, in_use, knowledge_base, advice)."),
) -> None:
    """Show the embedding model configured (embed.model), whether its files are on this machine, the
    model a gather would load now (the packaged all-MiniLM-L6-v2 while the configured one is
    missing) and the one the knowledge base was embedded with; then what to run: `cikb models pull`
    to download the configured model, `cikb rebuild --all` when the knowledge base holds another
    model's vectors. Nothing is downloaded and no model is loaded."""
    if ctx.invoked_subcommand is not None:
        return
    from cikb.app.models_info import models_report

    report = models_report(settings())
    if as_json:
        print_json(report)
    else:
        print_report(report)


@models_app.command("pull", short_help="Download the configured embedding model through fastembed from the hub.")
def pull_command() -> None:
    """Download the configured embedding model (embed.model) through fastembed from the Hugging Face
    hub (HF_ENDPOINT names a mirror) into the model cache (embed.cache_dir, else Hugging Face's),
    where every later command finds it without embed.allow_download; when the hub cannot be reached
    or lacks the model, one `error:` line says so within 10 seconds."""
    from cikb.app.models_info import models_report
    from cikb.embed import pull_model

    cfg = settings()
    started = monotonic()
    files = pull_model(cfg.embed)
    _say(f"{files.spec.name} is installed ({files.variant}, {files.directory}), in {monotonic() - started:.1f} s")
    for advice in models_report(cfg).advice:  # a knowledge base of another model names `cikb rebuild --all`
        _say(advice)


def print_report(report: ModelsReport) -> None:
    _say(f"configured:     {report.configured} ({report.backend})")
    _say(f"installed:      {report.installed.line() if report.installed else 'no: ' + (report.missing or '')}")
    if report.packaged and (report.installed is None or report.packaged.name != report.installed.name):
        _say(f"packaged:       {report.packaged.line()}")
    in_use = _model(report.in_use) + (f", instead of {report.configured}" if report.fallback else "") if report.in_use else "nothing can be loaded"
    _say(f"in use:         {in_use}")
    companies = f"{report.companies} compan{'y' if report.companies == 1 else 'ies'}"
    kb = f"{_model(report.knowledge_base)}, {companies}" if report.knowledge_base else f"no vectors, {companies} gathered" if report.companies else "empty"
    _say(f"knowledge base: {kb}")
    for advice in report.advice:
        _say(advice)


def _model(info: ModelInfo) -> str:
    return f"{info.name} ({info.backend}, {info.variant}, {info.dim}-d)"


def _say(line: str) -> None:
    out.print(plain(line), highlight=False, markup=False)
