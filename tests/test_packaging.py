"""One import name: cikb installs no top-level stage packages and shadows nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run_python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-W", "ignore", "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_the_standard_library_chunk_and_aifc_still_import_after_cikb(tmp_path: Path) -> None:
    # Python 3.11/3.12 ship a `chunk` module; our chunk stage is cikb.chunk and must not take its place.
    code = "import cikb, cikb.chunk, cikb.cli; import chunk, aifc; print(chunk.Chunk.__module__, cikb.chunk.chunk_document.__module__)"
    result = run_python(code, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["chunk", "cikb.chunk.chunker"]


def test_no_stage_is_importable_under_its_bare_name(tmp_path: Path) -> None:
    stages = ["gather", "clean", "embed", "store", "retrieve", "answer", "enrich", "prompts"]
    code = "import importlib.util, cikb; print([s for s in %r if importlib.util.find_spec(s)])" % stages
    result = run_python(code, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_cli_runs_from_another_directory(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "cikb", "--help"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    for command in ("gather", "companies", "forget", "ask", "search", "logs", "enrich", "review", "apply", "demo", "config"):
        assert command in result.stdout
