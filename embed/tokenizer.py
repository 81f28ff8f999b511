"""The dense model's own tokenizer, as the chunker's token counter (spec K2).

Implements ``chunk.Tokenizer`` structurally (embed does not import chunk): counts
include the special tokens the model adds ([CLS] ... [SEP] for BERT models) and
are never truncated, so the chunker sees a text's true length.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

from tokenizers import Tokenizer


class ModelTokenizer:
    """A ``tokenizer.json`` loaded with the ``tokenizers`` library (Rust; no torch)."""

    def __init__(self, tokenizer_file: Path) -> None:
        self.path = Path(tokenizer_file)
        self._tokenizer = Tokenizer.from_file(str(self.path))
        # tokenizer.json files often carry the training-time truncation/padding (128 for MiniLM):
        # counting must see the whole text, unpadded.
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()

    def __repr__(self) -> str:
        return f"ModelTokenizer({str(self.path)!r})"

    @cached_property
    def special_tokens(self) -> int:
        """How many tokens the model adds around any text."""
        return self._tokenizer.num_special_tokens_to_add(is_pair=False)

    def count_tokens(self, text: str) -> int:
        """Tokens the model sees for ``text``, special tokens included."""
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids) + self.special_tokens

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text`` without special tokens."""
        return self._tokenizer.encode(text, add_special_tokens=False).ids

    def offsets(self, text: str) -> list[tuple[int, int]]:
        """Character span in ``text`` of each token of :meth:`encode`."""
        return [tuple(span) for span in self._tokenizer.encode(text, add_special_tokens=False).offsets]

    def decode(self, ids: list[int]) -> str:
        """Text of token ids (normalized: an uncased model's decode is lowercase)."""
        return self._tokenizer.decode(ids)
