"""Expected errors: the CLI prints their message as one line, never a traceback."""


class CikbError(Exception):
    """Base of every error a user can cause or fix (bad input, missing model, busy lock...)."""

    exit_code = 2


class BadInputError(CikbError):
    """The user's input cannot be used as given."""


class GatherFailedError(CikbError):
    """A gather produced nothing; the previous knowledge base is untouched."""

    exit_code = 1


class LockedError(CikbError):
    """Another process holds the company's lock."""

    exit_code = 3


class ModelMismatchError(CikbError):
    """The collection was filled by another embedding model than the one in use."""


class UnknownCompanyError(CikbError):
    """The knowledge base holds nothing for that company."""
