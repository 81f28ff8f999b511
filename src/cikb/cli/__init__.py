"""The `cikb` command: a thin shell over the Python API.

Every command lives in a module of this package and only parses flags, calls
the library and prints. Expected errors (`cikb.core.errors.CikbError`) print one
line and exit non-zero; they never show a traceback.
"""

from __future__ import annotations

import sys

import typer
from pydantic import ValidationError
from rich.markup import escape

from cikb.cli import (
    ask_cmd,  # noqa: F401
    config_cmd,  # noqa: F401
    demo_cmd,  # noqa: F401
    enrich_cmd,  # noqa: F401
    gather_cmd,  # noqa: F401  (registers commands, in --help order)
)
from cikb.cli._app import app, console
from cikb.core.errors import CikbError

__all__ = ["app", "main"]


def main() -> None:
    try:
        app(standalone_mode=False)
    except CikbError as err:
        console.print(f"[red]error:[/red] {escape(str(err))}", highlight=False, soft_wrap=True)
        sys.exit(err.exit_code)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        console.print(f"[red]error:[/red] invalid configuration {where}: {first['msg']}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except FileNotFoundError as err:
        console.print(f"[red]error:[/red] {escape(str(err))}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except KeyboardInterrupt:
        console.print("interrupted")
        sys.exit(130)
    except SystemExit:
        raise
    except Exception as err:  # click's usage errors arrive here in non-standalone mode
        # typer >= 0.2x vendors click (typer._click), older ones use click itself: a ClickException
        # of either is recognised by its show() and exit_code, Abort by typer's public name.
        if callable(getattr(err, "show", None)) and isinstance(getattr(err, "exit_code", None), int):
            err.show()  # type: ignore[attr-defined]
            sys.exit(err.exit_code)  # type: ignore[attr-defined]
        if isinstance(err, typer.Abort):
            console.print("aborted")
            sys.exit(1)
        raise
