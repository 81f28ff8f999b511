"""The built-in strategies; each module registers itself at import, the same way plugins do."""

from cikb.enrich.strategies import computation, lookup, research  # noqa: F401

__all__ = ["computation", "lookup", "research"]
