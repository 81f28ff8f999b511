"""The environment of the processes a test starts: PyTorch hidden, as in the default install (tests/without_torch).

The autouse ``isolated_env`` fixture (tests/conftest.py) puts it on PYTHONPATH for each test; an environment built
outside a test (a module fixture) or one that sets PYTHONPATH itself (a test's plugin modules) takes it from here.

A command a test interrupts starts as a terminal's foreground command does, with Ctrl-C's SIGINT at its default
(:func:`sigint_as_in_a_terminal`, a ``preexec_fn``): pytest started as a shell's background job (``make test &``)
ignores SIGINT, and a process started ignoring it keeps ignoring it, so the interrupt would never arrive.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

WITHOUT_TORCH = Path(__file__).resolve().parent / "without_torch"


def python_path(*folders: str | Path) -> str:
    """PYTHONPATH for a process a test starts: ``folders`` first, then tests/without_torch and the caller's
    PYTHONPATH, each once."""
    parts = [*map(str, folders), str(WITHOUT_TORCH), *os.environ.get("PYTHONPATH", "").split(os.pathsep)]
    return os.pathsep.join(dict.fromkeys(part for part in parts if part))


def sigint_as_in_a_terminal() -> None:
    """In a started process, before it runs: SIGINT at its default, as a terminal's foreground command has it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
