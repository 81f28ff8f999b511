"""Let `import chunk` find our chunk stage, not the standard library's `chunk` module.

Python 3.11 and 3.12 ship a deprecated module named `chunk` (IFF audio chunks; removed in
3.13). The standard library comes before site-packages on sys.path, so an installed
`cikb` command would import that module instead of the design card's `chunk/` stage.
A finder placed ahead of the path finders resolves `chunk` to the package beside `cikb`.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from importlib.machinery import ModuleSpec
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parents[1] / "chunk"


class _ChunkStageFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if fullname != "chunk":
            return None
        init = _PACKAGE_DIR / "__init__.py"
        return importlib.util.spec_from_file_location("chunk", init, submodule_search_locations=[str(_PACKAGE_DIR)])


def install() -> None:
    if sys.version_info >= (3, 13) or not (_PACKAGE_DIR / "__init__.py").is_file():
        return
    if not any(isinstance(finder, _ChunkStageFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _ChunkStageFinder())
    loaded = sys.modules.get("chunk")
    if loaded is not None and not _is_stage(loaded):
        del sys.modules["chunk"]  # the standard library's module got in first


def _is_stage(module: object) -> bool:
    # Judged by location, not content: our package may be half-imported right now.
    location = getattr(module, "__file__", None)
    return location is not None and Path(location).resolve().parent == _PACKAGE_DIR
