"""Usage errors, as the installed command shows them: one `error:` line on stderr, exit code 2, no traceback.

Whichever click the installed typer uses (click itself, or the copy typer >= 0.24 vendors as
typer._click), an unknown option or command, a missing or invalid argument is one line.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CIKB = Path(sys.executable).with_name("cikb")


def cikb(*args: str) -> subprocess.CompletedProcess[str]:
    assert CIKB.exists(), f"the installed command is missing: {CIKB}"
    return subprocess.run([str(CIKB), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bogus"], "No such option: --bogus"),
        (["gather", "Acme", "--bogus", "x"], "No such option: --bogus"),
        (["config", "--bogus"], "No such option: --bogus"),
        (["nosuch"], "No such command 'nosuch'"),
        (["ask"], "Missing argument"),
        (["gather"], "Missing argument"),
        (["enrich", "table.csv"], "Missing option '--column'"),
        (["ask", "Who?", "--company"], "requires an argument"),
        (["gather", "X", "--max-pages", "0"], "Invalid value for '--max-pages'"),
        (["gather", "X", "--delay", "soon"], "Invalid value for '--delay'"),
        (["logs", "-n", "abc"], "Invalid value for '-n'"),
        (["logs", "-n", "100000000000000000000"], "Invalid value for '-n'"),  # beyond SQLite's integers: no traceback
        (["companies", "extra"], "unexpected extra argument"),
    ],
)
def test_a_usage_error_is_one_error_line_and_exit_code_2(args: list[str], message: str) -> None:
    result = cikb(*args)
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and message in lines[0], lines[0]
    assert "--help" in lines[0]  # where to look next, on the same line
    assert result.stdout == ""


def test_config_takes_json_like_every_printing_command() -> None:
    result = cikb("config", "--json")
    assert result.returncode == 0, result.stderr
    assert set(json.loads(result.stdout)) >= {"data_dir", "llm", "store"}


def test_the_handler_recognises_click_and_typers_vendored_click_by_shape(monkeypatch, capsys) -> None:
    """Both exception families, whichever the installed typer raises: one line, exit 2."""
    import cikb.cli as cli

    families = []
    click = pytest.importorskip("click")
    families.append(click.exceptions)
    try:
        from typer._click import exceptions as vendored  # typer >= 0.24
        families.append(vendored)
    except ImportError:
        pass
    for exceptions in families:
        for err in (exceptions.NoSuchOption("--nope"), exceptions.UsageError("No such command 'x'."),
                    exceptions.BadParameter("must be positive", param_hint="'--max-pages'")):

            def raise_it(*_args, err=err, **_kwargs):
                raise err

            monkeypatch.setattr(cli, "app", raise_it)
            with pytest.raises(SystemExit) as exit_info:
                cli.main()
            assert exit_info.value.code == 2, exceptions.__name__
            stderr = capsys.readouterr().err
            [line] = [line for line in stderr.splitlines() if line.strip()]
            assert line.startswith(f"error: {err.format_message()}")


def test_an_unexpected_error_is_not_swallowed(monkeypatch) -> None:
    import cikb.cli as cli

    def boom(*_args, **_kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(cli, "app", boom)
    with pytest.raises(RuntimeError):
        cli.main()


def test_a_crash_in_native_code_prints_where_it_happened() -> None:
    # A store or model library dying by a signal (SIGSEGV, SIGBUS) would otherwise end the command without a word.
    crash = "import faulthandler, cikb.cli as cli\ncli.app = lambda **options: faulthandler._sigsegv()\ncli.main()"
    crashed = subprocess.run([sys.executable, "-c", crash], capture_output=True, text=True, timeout=120)
    assert crashed.returncode < 0
    assert "Fatal Python error: Segmentation fault" in crashed.stderr and "in main" in crashed.stderr


def test_an_infinite_delay_is_refused_before_the_crawl(tmp_path: Path) -> None:
    # Typer's min=0 let "inf" through; the crawler's process then failed on it with pydantic's URL for a float.
    result = subprocess.run([str(CIKB), "--data-dir", str(tmp_path / "data"), "gather", "X", "--website", "http://127.0.0.1:9/",
                             "--delay", "inf"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and result.stderr.strip() == "error: --delay must be a number of seconds, not inf"
