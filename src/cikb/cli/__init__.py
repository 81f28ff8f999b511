"""The `cikb` command: a thin shell over the Python API.

Every command lives in a module of this package and only parses flags, calls
the library and prints. Expected errors (`cikb.core.errors.CikbError`) print one
`error:` line and exit non-zero; usage errors (an unknown option or command, a
missing or invalid argument) print one `error:` line and exit 2. Neither shows a
traceback, and neither shows a secret (see `cikb.core.secrets`).

A command module imports the stages and libraries it works with (the LLM client, the
crawler, the embedder, the web server) inside its command functions, so that `--help` and
every other command start without loading them (tests/test_startup.py).
"""

from __future__ import annotations

import faulthandler
import logging
import sys
from typing import NoReturn

from pydantic import ValidationError
from rich.markup import escape

from cikb.cli import (
    ask_cmd,  # noqa: F401
    build_cmd,  # noqa: F401
    changes_cmd,  # noqa: F401
    config_cmd,  # noqa: F401
    demo_cmd,  # noqa: F401
    enrich_cmd,  # noqa: F401
    gather_cmd,  # noqa: F401  (registers commands, in --help order)
    jobs_cmd,  # noqa: F401
    kb_cmd,  # noqa: F401
    mcp_cmd,  # noqa: F401
    models_cmd,  # noqa: F401
    serve_cmd,  # noqa: F401
    worker_cmd,  # noqa: F401
)
from cikb.cli._app import app, console, state, unwrap_help
from cikb.cli._text import plain
from cikb.core.errors import CikbError, NoSpaceError, is_no_space, no_space
from cikb.core.secrets import mask_secrets

__all__ = ["app", "main"]

unwrap_help(app)  # every command registered above: one paragraph, one line, wrapped by the terminal


def _report_crashes() -> None:
    """A crash in native code (the store, onnxruntime, SQLite) kills the process by a signal with no word;
    faulthandler prints the Python stack of every thread to stderr first, so the crash says where it was."""
    try:
        faulthandler.enable()
    except (AttributeError, ValueError, OSError):
        pass  # stderr is no file (a test runner's or an embedding application's stream): nowhere to write to


def main() -> None:
    _report_crashes()
    # Each command prints its own one-line `embedding model:` notice (the fallback included),
    # so the library's logged copy of that notice would say it twice.
    logging.getLogger("cikb.embed").addHandler(logging.NullHandler())
    # A damaged cache or call log that healed itself (cikb.core.damage), a wait for a busy store
    # (cikb.store.edge) and a change history that could not be written after a committed gather
    # (cikb.app.pipeline) are one warning line each, then the command goes on.
    for name in ("cikb.cache", "cikb.store", "cikb.changes"):
        said = logging.getLogger(name)
        said.addHandler(_WarningLine())
        said.propagate = False
    try:
        code = app(standalone_mode=False)
    except CikbError as err:
        _fail(str(err), err.exit_code)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        _fail(f"invalid configuration {where}: {first['msg']}", 2)
    except FileNotFoundError as err:
        _fail(str(err), 2)
    except OSError as err:  # a path given that the system refuses: a folder for a file, a read-only folder...
        if is_no_space(err):
            _fail(str(no_space(err.filename or "the disk")), NoSpaceError.exit_code)
        if err.filename is None:
            raise
        _fail(f"cannot use {err.filename}: {err.strerror or err}", 2)
    except KeyboardInterrupt:
        _interrupted()
    except SystemExit:
        raise
    except Exception as err:  # click's usage errors arrive here in non-standalone mode
        if is_no_space(err):  # a write path no command wrapped: still one line, never a traceback
            _fail(str(no_space(getattr(err, "filename", None) or "the disk")), NoSpaceError.exit_code)
        code = _usage_error(err)
        if code is None:
            raise
        sys.exit(code)
    if code == 130:  # typer turns Ctrl-C into Exit(130), which outside standalone mode it returns instead of raising
        _interrupted()


class _WarningLine(logging.Handler):
    """A library warning as the CLI's own ``warning:`` line on stderr (secrets masked, shown as text)."""

    def emit(self, record: logging.LogRecord) -> None:
        secrets = state.settings.secrets() if state.settings is not None else ()
        text = plain(mask_secrets(record.getMessage(), secrets))
        console.print(f"[yellow]warning:[/yellow] {escape(text)}", highlight=False, soft_wrap=True)


def _interrupted() -> NoReturn:
    console.print("interrupted")
    sys.exit(130)


def _fail(message: str, code: int) -> NoReturn:
    _print_error(message)
    sys.exit(code)


def _print_error(message: str) -> None:
    """One ``error:`` line on stderr: secrets masked, the message shown as text (no markup, no control characters)."""
    secrets = state.settings.secrets() if state.settings is not None else ()
    text = plain(mask_secrets(message, secrets))
    console.print(f"[red]error:[/red] {escape(text)}", highlight=False, soft_wrap=True)


def _from_click(err: BaseException) -> bool:
    """Raised by click, or by the copy of click that typer vendors (``typer._click``, typer >= 0.24)."""
    return any(cls.__module__.split(".")[0] in ("click", "typer") for cls in type(err).__mro__)


def _usage_error(err: Exception) -> int | None:
    """The exit code for click's (or typer's vendored click's) own exceptions, after one line; None for any other.

    Matched by shape, not by class, so that it holds whichever click the installed typer uses:
    a ClickException has ``format_message()`` and an integer ``exit_code``.
    """
    if not _from_click(err):
        return None
    name = type(err).__name__
    if name == "Abort":
        console.print("aborted")
        return 1
    if name == "NoArgsIsHelpError":  # bare `cikb`: the help, not an error line
        console.print(err.format_message(), markup=False, highlight=False)
        return 2
    if callable(getattr(err, "format_message", None)) and isinstance(getattr(err, "exit_code", None), int):
        message = " ".join(str(err.format_message()).split()) or name
        command = getattr(getattr(err, "ctx", None), "command_path", None) or "cikb"
        message += f" (see `{command} --help`)"
        _print_error(message)
        return err.exit_code
    return None
