"""The installed package works from anywhere, not only from the repository root."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def run_python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_import_chunk_reaches_the_stage_not_the_standard_library_module(tmp_path: Path) -> None:
    # Outside the repository, the standard library's deprecated `chunk` (Python < 3.13) comes first on sys.path.
    result = run_python("import cikb, chunk; print(chunk.chunk_document.__module__)", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "chunk.chunker"


def test_the_stage_can_be_imported_before_cikb_from_the_repository() -> None:
    result = run_python("import chunk; from chunk import chunk_document; import cikb, chunk as again; assert again.chunk_document", cwd=REPO)
    assert result.returncode == 0, result.stderr


def test_the_cli_runs_from_another_directory(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "cikb", "--help"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    for command in ("gather", "companies", "forget", "ask", "search", "logs", "enrich", "review", "apply", "demo", "config"):
        assert command in result.stdout
