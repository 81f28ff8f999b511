"""`cikb build` wired: the configured LLM client and search provider, the approval callback, the CSV export."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from cikb.app.llm import LLMClient
from cikb.core.config import Settings
from cikb.core.errors import BadInputError, CikbError
from cikb.enrich.table import spreadsheet_safe, write_table_atomic
from cikb.lists import (
    BuildRequest,
    BuildResult,
    ListBuilder,
    MockSearch,
    SearchProvider,
    WebSearch,
)
from cikb.lists.pipeline import ApproveFn, approve_all

NO_ENDPOINT = ("cikb build needs an LLM endpoint: set llm.base_url and llm.model "
               "(cikb.toml [llm], or CIKB_LLM__BASE_URL and CIKB_LLM__MODEL); --mock-search still needs it for the planning steps")


def check_export_dir(export_dir: Path) -> None:
    """Fail before any call when the CSV could not be written."""
    try:
        export_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=export_dir):
            pass
    except OSError as err:
        raise BadInputError(f"cannot write to the export directory {export_dir} ({err.strerror or err}): "
                            "set lists.export_dir (CIKB_LISTS__EXPORT_DIR) to a writable folder") from None


def open_builder(settings: Settings, *, approve: ApproveFn = approve_all, mock_search: bool | None = None,
                 on_event: Callable[[str], None] | None = None) -> ListBuilder:
    """A :class:`ListBuilder` on the configured endpoint; searches from the local mock results when asked."""
    client = LLMClient.from_settings(settings)
    if not client.configured:
        raise BadInputError(NO_ENDPOINT)
    use_mock = settings.lists.use_mock_search if mock_search is None else mock_search
    search: SearchProvider = MockSearch() if use_mock else WebSearch(client, settings.lists.search_model, settings.lists.max_output_tokens)
    return ListBuilder(client, search, settings.lists, approve=approve, on_event=on_event)


def build_list(settings: Settings, request: BuildRequest, *, approve: ApproveFn = approve_all, mock_search: bool | None = None,
               on_event: Callable[[str], None] | None = None) -> tuple[BuildResult, Path | None]:
    """Build the list and export it; return the result and the CSV's path (rows found before a Ctrl-C included),
    None when no row was found: an empty CSV would only fail in `cikb gather --from-csv`."""
    builder = open_builder(settings, approve=approve, mock_search=mock_search, on_event=on_event)
    check_export_dir(settings.lists.export_dir)  # after the endpoint check: a build that cannot start makes no folder
    result = builder.build(request)
    result.fictional = isinstance(builder.search, MockSearch)
    try:
        return result, export_list(result, settings.lists.export_dir) if result.rows else None
    except (CikbError, OSError) as err:  # a full disk, the folder gone: the rows were paid for, so they go with the error
        raise ListNotSaved(err, result) from err


class ListNotSaved(CikbError):
    """The list was built but its CSV could not be written: ``error`` says why, ``result`` holds the rows."""

    def __init__(self, error: CikbError | OSError, result: BuildResult) -> None:
        super().__init__(str(error))
        self.error, self.result = error, result
        self.exit_code = getattr(error, "exit_code", 1)


def export_list(result: BuildResult, export_dir: Path, now: datetime | None = None) -> Path:
    """``output_YYYYMMDD_HHMMSS.csv`` (``_2``, ``_3``... within one second) with only the schema's columns.

    Cells and column names come from web results and the model: formula-like ones are written so no spreadsheet runs them.
    """
    header = {column: spreadsheet_safe(column) for column in result.columns}
    rows = [{header[column]: spreadsheet_safe(str(row.get(column) or "")) for column in result.columns} for row in result.rows]
    path = _claim_name(export_dir, (now or datetime.now()).strftime("%Y%m%d_%H%M%S"))
    try:
        write_table_atomic(path, list(header.values()), rows)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return path


def _claim_name(export_dir: Path, stamp: str) -> Path:
    """The first free ``output_<stamp>[_N].csv``, created empty with O_EXCL: of two builds exporting in the same
    second, each gets its own file (checking that a name is free, then renaming over it, let the second overwrite the first)."""
    n = 1
    while True:
        path = export_dir / (f"output_{stamp}.csv" if n == 1 else f"output_{stamp}_{n}.csv")
        try:
            path.open("x").close()
            return path
        except FileExistsError:
            n += 1
