"""A full disk is one line (issue 24, item 3): the data directory on a small tmpfs, filled to several levels.

Every command that meets the full disk says `error: no space left on <path> (need about N MB)` and
exits 5, never a traceback or a signal (SIGBUS); the previous generation stays current and readable;
once space is freed the next gather works with no repair. Mounting a tmpfs needs root (CAP_SYS_ADMIN).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sites import Behaviour, SiteServer, page, paragraphs

CIKB = str(Path(sys.executable).with_name("cikb"))
TMPFS_MB = 200
MB = 1_000_000


def _can_mount() -> bool:
    return sys.platform == "linux" and os.geteuid() == 0


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    if not _can_mount():
        pytest.skip("mounting a tmpfs needs root on Linux")
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={TMPFS_MB}m", "tmpfs", str(mount)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path, leave: int) -> Path:
    """A filler file that leaves about ``leave`` bytes free on ``disk``."""
    filler = disk / "filler"
    filler.unlink(missing_ok=True)
    free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
    with open(filler, "wb", buffering=0) as handle:  # to the last block when ``leave`` is 0: where SIGBUS lurks
        remaining = max(0, free - leave)
        for block in (b"\0" * MB, b"\0" * 4096):
            while remaining >= len(block) or (not leave and remaining > 0):
                try:
                    remaining -= handle.write(block)
                except OSError:
                    break
    return filler


def cikb(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CIKB, *args], env={**os.environ, "CIKB_DATA_DIR": str(data)}, capture_output=True, text=True, timeout=300)


def site_routes(revision: list[int]) -> dict[str, Behaviour]:
    def home(_hit: int):
        return page("Initech", paragraphs(f"Initech revision {revision[0]} makes staplers in Springfield.",
                                          *(f"Initech revision {revision[0]} note {j} on staplers and paper." for j in range(30))),
                    links=["/about"])

    def about(_hit: int):
        return page("About Initech", paragraphs(*(f"Initech revision {revision[0]} history {j}: founded in 1990." for j in range(30))))

    return {"/": home, "/about": about}


def searched_revisions(data: Path) -> set[str]:
    found = cikb(data, "search", "staplers", "--company", "initech", "--json")
    assert found.returncode == 0, found.stderr
    return {number for hit in json.loads(found.stdout)["chunks"] for number in re.findall(r"revision (\d+)", hit["chunk"]["text"])}


def assert_one_no_space_line(done: subprocess.CompletedProcess[str], need: bool | None = True) -> None:
    """Exit 5 and one line; ``need``: whether the line says how much space the command needs (a write it checked
    first), None when either may happen."""
    assert done.returncode == 5, (done.returncode, done.stderr[-800:])  # an exit code, not a signal (SIGBUS is -7)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: no space left on "), done.stderr[-800:]
    assert need is None or ("need about" in lines[0]) == need
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("leave_mb", [0, 2, 30])
def test_a_gather_on_a_full_disk_is_one_line_and_the_previous_generation_stays(small_disk: Path, leave_mb: int) -> None:
    data = small_disk / "data"
    revision = [1]
    with SiteServer(site_routes(revision)) as site:
        first = cikb(data, "gather", "Initech", "--website", site.url + "/", "--delay", "0", "--json")
        assert first.returncode == 0, first.stderr
        indexed = (data / "initech" / "indexed").read_text()  # and no read yet: the first load after a commit writes most

        revision[0] = 2
        filler = fill(small_disk, leave_mb * MB)
        again = cikb(data, "gather", "Initech", "--website", site.url + "/", "--delay", "0", "--full")
        assert_one_no_space_line(again)
        assert (data / "initech" / "indexed").read_text() == indexed  # the previous generation is current
        changes = cikb(data, "changes", "initech")  # the change history: SQLite's "disk I/O error" was a traceback
        if changes.returncode != 0:
            assert_one_no_space_line(changes, need=False)
        for read in (cikb(data, "search", "staplers", "--company", "initech", "--json"), cikb(data, "companies")):
            # Loading the store writes into memory-mapped files: with too little free that is one line, never SIGBUS.
            if read.returncode != 0:
                assert_one_no_space_line(read)
        table = small_disk.parent / "companies.csv"
        table.write_text("Company\nInitech\n")
        enriched = cikb(data, "enrich", str(table), "--column", "Founded:What year was {Company} founded?")
        if enriched.returncode != 0:  # the jobs database, then the store: each a write path of its own
            assert_one_no_space_line(enriched, need=None)
        assert_one_no_space_line(cikb(data, "rebuild", "initech"))

        filler.unlink()  # space freed: the previous generation reads as before, and the next gather works, no repair
        assert searched_revisions(data) == {"1"}
        freed = cikb(data, "gather", "Initech", "--website", site.url + "/", "--delay", "0", "--full")
        assert freed.returncode == 0, freed.stderr
        assert searched_revisions(data) == {"2"}
