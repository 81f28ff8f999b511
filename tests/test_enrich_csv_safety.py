"""Safe output (OWASP CSV injection): applied values never run as spreadsheet formulas; numbers stay numbers."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from cikb.enrich import apply_proposal, enrich_table
from cikb.enrich.table import spreadsheet_safe


@pytest.mark.parametrize("value", ['=HYPERLINK("http://127.0.0.1/x","click")', "+1+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0",
                                   "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1", "-", "+ 5 employees", "=1"])
def test_a_value_that_starts_like_a_formula_gets_an_apostrophe(value: str) -> None:
    assert spreadsheet_safe(value) == "'" + value


@pytest.mark.parametrize("value", ["-12", "-3.25", "+7", "1e-3", "-1.5E+10", "-.5", "2013", "Berlin", "", "a=b", "AT&T", "'quoted"])
def test_numbers_and_plain_text_stay_as_they_are(value: str) -> None:
    assert spreadsheet_safe(value) == value


def test_apply_writes_formula_like_values_as_text_and_negative_numbers_as_numbers(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text('Company,Note,A\nAcme,"=HYPERLINK(""http://127.0.0.1/"",""x"")",3\nBeta,@SUM(A1),20\nGamma,+SUM(A1),4\n', encoding="utf-8")
    copied = enrich_table(table, "Copy", strategy="computation", formula="{Note}", kb=None, web=None, llm=None)
    delta = enrich_table(table, "Delta", strategy="computation", formula="{A} - 10", column_type="number", kb=None, web=None, llm=None)
    apply_proposal(copied, table, tmp_path / "copy.csv")
    apply_proposal(delta, table, tmp_path / "delta.csv")
    with (tmp_path / "copy.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["Copy"] for r in rows] == ["'=HYPERLINK(\"http://127.0.0.1/\",\"x\")", "'@SUM(A1)", "'+SUM(A1)"]
    assert [r["Note"] for r in rows] == ['=HYPERLINK("http://127.0.0.1/","x")', "@SUM(A1)", "+SUM(A1)"]  # the table's own cells are the user's
    with (tmp_path / "delta.csv").open(encoding="utf-8", newline="") as handle:
        assert [r["Delta"] for r in csv.DictReader(handle)] == ["-7", "10", "-6"]


def test_a_new_file_written_meanwhile_by_another_command_is_never_replaced(tmp_path) -> None:
    """apply without --force (and the review page's Apply) checks the output is free, then writes it: a file another
    command wrote in between must stay, and the write fail, never silently replace it."""
    from cikb.core.errors import BadInputError
    from cikb.enrich.table import atomic_writer

    target = tmp_path / "out.csv"
    with pytest.raises(BadInputError, match="exists \\(written meanwhile by another command\\?\\)"):
        with atomic_writer(target, overwrite=False) as handle:
            handle.write("mine\n")
            target.write_text("theirs\n", encoding="utf-8")  # the other command, between the check and the publish
    assert target.read_text(encoding="utf-8") == "theirs\n"
    assert not list(tmp_path.glob(".out.csv.*"))  # no temporary file left
    with atomic_writer(target) as handle:  # overwrite (--force): replaced as before
        handle.write("mine\n")
    assert target.read_text(encoding="utf-8") == "mine\n"
