"""Prompt templates as text files, loaded by name (never inline in code)."""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def load_prompt(name: str) -> str:
    """The text of prompts/<name>.txt."""
    return resources.files(__package__).joinpath(f"{name}.txt").read_text(encoding="utf-8")
