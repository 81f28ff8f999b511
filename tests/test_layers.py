"""The layering shows in the imports: foundation <- stages <- application (issue 9, item 5)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
STAGES = ["gather", "clean", "chunk", "embed", "store", "retrieve", "answer", "enrich", "prompts"]
# Pipeline order: a stage may import the foundation and the stages before it, never one after it.
ORDER = ["prompts", "gather", "clean", "chunk", "embed", "store", "retrieve", "answer", "enrich"]


def cikb_imports(folder: Path) -> set[str]:
    names: set[str] = set()
    for source in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.update([node.module] + [f"{node.module}.{a.name}" for a in node.names])
            elif isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
    return {n for n in names if n == "cikb" or n.startswith("cikb.")}


def layer_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "cikb"


def test_the_foundation_imports_no_stage_and_no_application() -> None:
    assert {layer_of(m) for m in cikb_imports(REPO / "src" / "cikb" / "core")} <= {"core"}


def test_the_list_builder_imports_only_the_foundation_and_the_prompts() -> None:
    # Like a stage: the model and the search come in through protocols (cikb.lists.JsonModel, SearchProvider).
    used = {layer_of(m) for m in cikb_imports(REPO / "src" / "cikb" / "lists")}
    assert used <= {"core", "prompts", "lists"}, f"cikb.lists imports {sorted(used - {'core', 'prompts', 'lists'})}"


@pytest.mark.parametrize("stage", STAGES)
def test_a_stage_imports_only_the_foundation_and_earlier_stages(stage: str) -> None:
    allowed = {"core", stage, *ORDER[: ORDER.index(stage)]}
    used = {layer_of(m) for m in cikb_imports(REPO / stage)}
    assert used <= allowed, f"{stage} imports {sorted(used - allowed)}"


def test_reading_the_knowledge_base_does_not_load_the_write_path(tmp_path: Path) -> None:
    code = (
        "import sys, cikb.app.reading, cikb.retrieve, cikb.answer, cikb.enrich\n"
        "print(sorted(m for m in sys.modules if m.startswith(('cikb.chunk', 'cikb.gather', 'cikb.clean.', "
        "'cikb.app.indexing', 'cikb.app.pipeline', 'cikb.app.kb', 'scrapy', 'trafilatura'))))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("folder", ["src/cikb/core", "src/cikb/app", *STAGES])
def test_nothing_below_the_shells_imports_the_cli_or_the_web_page(folder: str) -> None:
    """The CLI and the review page (cikb.web) are thin shells over cikb.app: nothing beneath may import them."""
    used = {layer_of(m) for m in cikb_imports(REPO / folder)}
    assert not used & {"cli", "web"}, f"{folder} imports {sorted(used & {'cli', 'web'})}"


def test_the_web_page_does_not_import_the_cli() -> None:
    """Both shells call the same Python API; neither goes through the other."""
    assert "cli" not in {layer_of(m) for m in cikb_imports(REPO / "src" / "cikb" / "web")}
