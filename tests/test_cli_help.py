"""`--help` texts read as paragraphs in any terminal width: the source's line breaks are not kept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cikb.cli._app import unwrapped

CIKB = Path(sys.executable).parent / "cikb"


def description(command: str, columns: int) -> list[str]:
    """The lines of a command's help between its usage line and its first box, stripped."""
    env = {**os.environ, "COLUMNS": str(columns), "TERM": "dumb"}
    shown = subprocess.run([str(CIKB), command, "--help"], capture_output=True, text=True, timeout=120, env=env).stdout
    lines = [line.strip() for line in shown.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("Usage:"))
    end = next(i for i, line in enumerate(lines) if line.startswith("╭"))
    return lines[start + 1:end]


def test_a_docstring_paragraph_becomes_one_line_and_lists_keep_theirs() -> None:
    doc = """First line.

    A paragraph wrapped
    at the source's width.

    - one item
    - another item
    """
    assert unwrapped(doc) == "First line.\n\nA paragraph wrapped at the source's width.\n\n- one item\n- another item"


@pytest.mark.parametrize("command", ["gather", "enrich", "worker"])
def test_each_paragraph_of_a_commands_help_is_one_line_when_the_terminal_is_wide_enough(command: str) -> None:
    # No paragraph of these helps is 3,000 characters long: two text lines in a row would be the source's line break,
    # which a narrower terminal would wrap a second time (ragged lines).
    lines = description(command, 3000)
    assert sum(1 for line in lines if line) >= 2, lines
    assert not any(a and b for a, b in zip(lines, lines[1:])), lines


def _options_with_brackets() -> list[tuple[str, str, str]]:
    import typer

    import cikb.cli  # noqa: F401  (registers the commands)
    from cikb.cli._app import app

    group = typer.main.get_command(app)
    return [(name, param.opts[0], param.help) for name, command in group.commands.items()  # type: ignore[attr-defined]
            for param in command.params if getattr(param, "help", None) and "[" in param.help]


@pytest.mark.parametrize(("command", "option", "text"), _options_with_brackets(), ids=lambda v: str(v)[:30])
def test_an_options_help_shows_its_brackets(command: str, option: str, text: str) -> None:
    # Rich reads "[names]" as a style tag and drops it: `--job-file` showed "one [] table per column" for
    # "[[column]]", `jobs --json` '"workers_alive": }'. Written "\[", a bracket is shown.
    env = {**os.environ, "COLUMNS": "3000", "TERM": "dumb"}
    shown = subprocess.run([str(CIKB), command, "--help"], capture_output=True, text=True, timeout=120, env=env).stdout
    line = next(line for line in shown.splitlines() if line.startswith("│") and f" {option} " in line)
    assert text.replace("\\[", "[") in " ".join(line.split()), line
