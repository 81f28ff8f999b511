"""Declared dependencies == imported ones, checked by deptry ([tool.deptry] in pyproject.toml).

- The package (src/, the stage folders, bench/): every import is a declared dependency
  (not merely a transitive one), and every declared runtime dependency is imported.
- The tests: every package they import is declared (test-only ones in the `dev` extra).
- The check itself: a pyproject with a dependency taken out, or a test-only one moved into
  the runtime list, fails it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def deptry(*args: str, config: Path = REPO / "pyproject.toml", tmp_path: Path) -> list[dict]:
    """deptry's issues on the repository (its JSON report), under the given pyproject."""
    report = tmp_path / f"deptry-{len(list(tmp_path.glob('deptry-*')))}.json"
    command = [sys.executable, "-m", "deptry", ".", "--no-ansi", "--config", str(config), "--json-output", str(report), *args]
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120)
    if not report.is_file():
        pytest.fail(f"deptry did not run (is the dev extra installed?):\n{result.stdout}\n{result.stderr}")
    issues = json.loads(report.read_text())
    assert (result.returncode == 0) == (not issues), result.stdout + result.stderr
    return issues


def describe(issues: list[dict]) -> list[str]:
    return [f"{i['location']['file']}:{i['location']['line']}: {i['error']['code']} {i['error']['message']}" for i in issues]


def test_the_package_imports_exactly_what_it_declares(tmp_path: Path) -> None:
    issues = deptry(tmp_path=tmp_path)
    assert not issues, "\n".join(describe(issues))


def test_every_package_the_tests_import_is_declared(tmp_path: Path) -> None:
    # The tests' own helper modules (sites, fake_openai...) are first party; DEP002 (declared but
    # not imported) and DEP004 (a dev dependency imported) do not apply to test code.
    helpers = sorted(p.stem for p in (REPO / "tests").glob("*.py"))
    issues = deptry(
        "--exclude", r"\.venv|\.git|build|dist|data|cikb\.egg-info",
        *(arg for name in ["cikb", *helpers] for arg in ("--known-first-party", name)),
        "--ignore", "DEP002,DEP004",
        tmp_path=tmp_path,
    )
    assert not issues, "\n".join(describe(issues))


@pytest.mark.parametrize(
    "edit, expected",
    [
        (lambda text: text.replace('    "numpy>=1.24",\n', ""), ("DEP003", "numpy")),  # imported, only transitive
        (lambda text: text.replace('    "tldextract>=5",\n', ""), ("DEP003", "tldextract")),
        (lambda text: text.replace('    "filelock>=3.12",\n', '    "filelock>=3.12",\n    "rank-bm25>=0.2.2",\n'), ("DEP002", "rank-bm25")),  # test-only, declared at run time
    ],
)
def test_the_check_fails_on_a_wrong_declaration(tmp_path: Path, edit, expected: tuple[str, str]) -> None:
    original = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    edited = edit(original)
    assert edited != original, "the pyproject no longer has the line this test edits"
    config = tmp_path / "pyproject.toml"
    config.write_text(edited, encoding="utf-8")
    found = {(i["error"]["code"], re.search(r"'([^']+)'", i["error"]["message"]).group(1)) for i in deptry(config=config, tmp_path=tmp_path)}
    assert expected in found, found
