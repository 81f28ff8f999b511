"""The token counter the chunker needs; the embed stage implements it with the model's own tokenizer."""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Tokenizer(Protocol):
    """Counts, encodes and locates tokens exactly as the embedding model does (spec K2).

    ``count_tokens`` includes the special tokens the model adds; ``encode`` and
    ``offsets`` cover the text's own tokens only, ``offsets[i]`` being the
    (start, end) character span of ``encode(text)[i]`` in ``text``.
    """

    def count_tokens(self, text: str) -> int: ...

    def encode(self, text: str) -> list[int]: ...

    def offsets(self, text: str) -> list[tuple[int, int]]: ...

    def decode(self, ids: list[int]) -> str: ...
