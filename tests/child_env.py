"""The environment of the processes a test starts: PyTorch hidden, as in the default install (tests/without_torch).

The autouse ``isolated_env`` fixture (tests/conftest.py) puts it on PYTHONPATH for each test; an environment built
outside a test (a module fixture) or one that sets PYTHONPATH itself (a test's plugin modules) takes it from here.
"""

from __future__ import annotations

import os
from pathlib import Path

WITHOUT_TORCH = Path(__file__).resolve().parent / "without_torch"


def python_path(*folders: str | Path) -> str:
    """PYTHONPATH for a process a test starts: ``folders`` first, then tests/without_torch and the caller's
    PYTHONPATH, each once."""
    parts = [*map(str, folders), str(WITHOUT_TORCH), *os.environ.get("PYTHONPATH", "").split(os.pathsep)]
    return os.pathsep.join(dict.fromkeys(part for part in parts if part))
