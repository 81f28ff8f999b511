"""The Typer app and what every command shares: settings, console, errors."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path
from collections.abc import Iterable
from typing import Any

import typer
from pydantic import BaseModel
from rich.console import Console
from typer.core import TyperCommand

from cikb.core.config import Settings, load_settings

app = typer.Typer(
    name="cikb",
    help=(
        "cikb: a company-intelligence knowledge base.\n\n"
        "Gather what the public web says about a company, ask grounded questions with "
        "citations, and fill table columns from the local knowledge base.\n\n"
        "Configuration: cikb.toml (or --config / CIKB_CONFIG), then CIKB_<SECTION>__<FIELD> "
        "environment variables, then flags. `cikb config` prints the effective values."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

console = Console(stderr=True)
out = Console(soft_wrap=True)

OPTION_ORDER = "cikb.option_order"


class OrderedOptionsCommand(TyperCommand):
    """A command that also keeps the order its options came in (``ctx.meta[OPTION_ORDER]``, names).

    Click gives a repeated option's values as one list, which loses which ``--column`` a
    following ``--type`` was written after; `cikb enrich` needs that to pair them.
    """

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        _, _, order = self.make_parser(ctx).parse_args(args=list(args))  # parsing has no side effects
        ctx.meta[OPTION_ORDER] = [param.name for param in order]
        return super().parse_args(ctx, args)


def unwrapped(doc: str) -> str:
    """A command's docstring with each paragraph on one line. Rich keeps a help text's single line breaks, so a
    paragraph wrapped at the source's width would come out wrapped twice, ragged, in a narrower terminal. A
    paragraph of lists or indented examples keeps its lines."""
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(p if _keeps_lines(p) else " ".join(p.split()) for p in paragraphs)


def _keeps_lines(paragraph: str) -> bool:
    lines = paragraph.split("\n")
    return paragraph.startswith("\b") or any(re.match(r"\s|[-*•] |\d+[.)] ", line) for line in lines[1:])


def unwrap_help(typer_app: typer.Typer) -> None:
    """Give every command of ``typer_app`` (and of its sub-apps) its docstring, unwrapped, as its help."""
    for info in typer_app.registered_commands:
        if info.help is None and info.callback is not None and info.callback.__doc__:
            info.help = unwrapped(info.callback.__doc__)
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            unwrap_help(group.typer_instance)


class _State:
    config_file: Path | None = None
    data_dir: Path | None = None
    settings: Settings | None = None


state = _State()


@app.callback()
def _global_options(
    config: Path | None = typer.Option(None, "--config", help="TOML config file (default: ./cikb.toml if present).", envvar="CIKB_CONFIG"),
    data_dir: Path | None = typer.Option(None, "--data-dir", help="Where raw documents, the embedded store and logs live (default: ./data)."),
) -> None:
    state.config_file = config
    state.data_dir = data_dir
    state.settings = None


def settings() -> Settings:
    """The effective settings for this invocation, built once."""
    if state.settings is None:
        overrides: dict[str, Any] = {}
        if state.data_dir is not None:
            overrides["data_dir"] = state.data_dir
        state.settings = load_settings(state.config_file, **overrides)
    return state.settings


def print_json(payload: BaseModel | dict | list) -> None:
    """Machine-readable output on stdout (every printing command has --json)."""
    if isinstance(payload, BaseModel):
        text = payload.model_dump_json(indent=2)
    else:
        text = json.dumps(payload, indent=2, default=str, ensure_ascii=False)
    # JSON escapes C0 controls itself; C1 controls (a raw CSI) and bidi overrides only appear
    # inside strings, where \uXXXX means the same character without a terminal acting on it.
    text = _RAW_CONTROLS.sub(_escape, text)
    out.print(text, markup=False, highlight=False)


def print_json_stream(head: dict, key: str, items: Iterable[Any]) -> None:
    """``head`` plus ``key``: a list of ``items`` printed one at a time, as one JSON object (for long lists)."""
    text = json.dumps(head, indent=2, default=str, ensure_ascii=False)
    out.print(_RAW_CONTROLS.sub(_escape, text[: -len("\n}")] + f",\n  {json.dumps(key)}: ["), markup=False, highlight=False)
    first = True
    for item in items:
        line = json.dumps(item, default=str, ensure_ascii=False)
        out.print(("    " if first else "  , ") + _RAW_CONTROLS.sub(_escape, line), markup=False, highlight=False)
        first = False
    out.print("  ]\n}", markup=False, highlight=False)


def _escape(match: re.Match) -> str:
    return f"\\u{ord(match.group()):04x}"


_RAW_CONTROLS = re.compile("[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
