"""A damaged knowledge base says what to do (issue 9, item 11).

One healthy knowledge base is gathered once (a tests/sites.py site on 127.0.0.1) and
copied for every kind of damage. The damage is done to the copy, then the commands users
run go through the installed `cikb` command: each must print exactly one `error:` line,
no traceback, naming the damaged path and the command that repairs it; and running that
command must make `cikb companies` and `cikb ask` work again. Where nothing needs
repairing (a stale lock file), the commands must simply work.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from child_env import python_path
from sites import SiteServer, page, paragraphs

CIKB = Path(sys.executable).with_name("cikb")
SLUG = "acme-corp"
QUESTION = "Who founded Acme Corp?"
REBUILD = f"cikb rebuild {SLUG}"
REBUILD_ALL = "cikb rebuild --all"
# Lines a failing command may print besides its error (progress of a rebuild, the model in use).
BENIGN = ("embedding model:", "warning:", f"{SLUG}:", "writing ", "company:")


@dataclass
class KB:
    """A copy of the healthy knowledge base, and how to run cikb on it."""

    data: Path
    site: str
    env: dict[str, str]
    csv: Path

    def run(self, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(CIKB), "--data-dir", str(self.data), *args], env=self.env, capture_output=True, text=True, timeout=timeout)

    def gather(self) -> subprocess.CompletedProcess[str]:
        return self.run("gather", "Acme Corp", "--website", self.site + "/", "--delay", "0")

    @property
    def company(self) -> Path:
        return self.data / SLUG

    @property
    def generation(self) -> Path:
        return self.company / "raw" if not self.company.joinpath("raw").is_symlink() else self.company.joinpath("raw").resolve().parent

    @property
    def shard(self) -> Path:
        return self.data / "_qdrant" / "edge" / "company_intel"


def acme_routes() -> dict:
    return {
        "/": page("Acme Corp", paragraphs("Acme Corp builds delivery robots for warehouses and hospitals. " * 6), links=["/about/", "/team/", "/products/"]),
        "/about/": page("About Acme Corp", paragraphs("Acme Corp was founded in 2011 in Portland, Oregon by Jane Doe and John Roe. " * 6)),
        "/team/": page("Leadership", paragraphs("Jane Doe is the chief executive of Acme Corp; John Roe leads engineering. " * 6)),
        "/products/": page("Products", paragraphs("The Roadrunner robot moves parcels; the Anvil software plans every route. " * 6)),
    }


@pytest.fixture(scope="module")
def healthy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, dict[str, str]]]:
    """A knowledge base with one company, gathered once for the module; the site stays up for re-gathers."""
    root = tmp_path_factory.mktemp("healthy")
    config = root / "cikb.toml"
    config.write_text("")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CIKB_")}
    # Built before the autouse isolated_env (tests/conftest.py) runs for a test, so it hides PyTorch itself: the
    # commands run as in the default install, without thinc importing torch into each (~1.5 s a command).
    env.update(CIKB_CONFIG=str(config), HF_HUB_OFFLINE="1", PYTHONPATH=python_path())
    with SiteServer(acme_routes()) as site:
        result = subprocess.run([str(CIKB), "--data-dir", str(root / "data"), "gather", "Acme Corp", "--website", site.url + "/", "--delay", "0"],
                                env=env, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        yield root / "data", site.url, env


@pytest.fixture
def kb(healthy: tuple[Path, str, dict[str, str]], tmp_path: Path) -> KB:
    data, site, env = healthy
    copy = tmp_path / "kb"
    shutil.copytree(data, copy, symlinks=True)
    csv = tmp_path / "companies.csv"
    csv.write_text("Company\nAcme Corp\n", encoding="utf-8")
    return KB(copy, site, env, csv)


def enrich_args(kb: KB) -> list[str]:
    return ["enrich", str(kb.csv), "--column", "Founded", "--question", "What year was {Company} founded?", "--type", "number", "--out", str(kb.csv.with_suffix(".json"))]


# --- what a damaged command must print ------------------------------------------------


def assert_one_error(result: subprocess.CompletedProcess[str], *needles: str) -> str:
    """Exit non-zero with exactly one `error:` line containing every needle; no traceback, no engine panic."""
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "Traceback" not in output and "panicked" not in output, output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error:")]
    assert len(errors) == 1, result.stderr
    assert all(line.startswith(BENIGN) for line in lines if not line.startswith("error:")), result.stderr
    for needle in needles:
        assert needle in errors[0], errors[0]
    return errors[0]


def assert_works(kb: KB, documents: int | None = None) -> None:
    """`cikb companies` lists Acme with its points, `cikb ask` answers from it with a citation."""
    listed = kb.run("companies", "--json")
    assert listed.returncode == 0, listed.stderr
    [status] = json.loads(listed.stdout)
    assert status["slug"] == SLUG and status["chunks"] > 0 and status["indexed"]
    if documents is not None:
        assert status["documents"] == documents
    asked = kb.run("ask", QUESTION, "--json")
    assert asked.returncode == 0, asked.stderr
    answer = json.loads(asked.stdout)
    assert answer["sources"] and "2011" in answer["answer"] + json.dumps(answer["sources"]), answer["answer"]


def documents_of(kb: KB) -> int:
    return len(list((kb.company / "raw").glob("*.md")))


# --- the damage -----------------------------------------------------------------------


def garble(path: Path, seed: int = 1) -> None:
    """Same length, random bytes."""
    path.write_bytes(random.Random(seed).randbytes(path.stat().st_size))


def truncate_store(kb: KB) -> None:
    for path in sorted(kb.shard.rglob("*")):
        if path.is_file() and path.stat().st_size:
            with open(path, "r+b") as handle:
                handle.truncate(path.stat().st_size // 2)


def garble_segments(kb: KB) -> None:
    for path in sorted((kb.shard / "segments").rglob("*.json")):
        garble(path)


def garble_vectors(kb: KB) -> None:
    for path in (kb.shard / "segments").glob("*/vector_storage-dense/vectors/chunk_*.mmap"):
        garble(path)


def garble_record(kb: KB) -> None:
    kb.shard.with_suffix(".json").write_text('{"schema": 1, "model": {"na', encoding="utf-8")


def other_model(kb: KB) -> None:
    record = kb.shard.with_suffix(".json")
    data = json.loads(record.read_text(encoding="utf-8"))
    data["model"]["name"] = "BAAI/bge-small-en-v1.5"
    record.write_text(json.dumps(data), encoding="utf-8")


def relink(kb: KB, target: str) -> None:
    link = kb.company / "raw"
    link.unlink()
    link.symlink_to(target)


def raw_as_directory(kb: KB) -> None:
    generation = kb.generation
    (kb.company / "raw").unlink()
    shutil.copytree(generation / "raw", kb.company / "raw")  # what a copy that follows links leaves


def raw_as_file(kb: KB) -> None:
    (kb.company / "raw").unlink()
    (kb.company / "raw").write_text("not a link\n")


def in_flight(kb: KB) -> None:
    """As if a gather was killed between its raw swap and its store write (recovery rolls it forward)."""
    (kb.company / "indexed").unlink()


def damage_index(name: str, how: Callable[[Path], None]) -> Callable[[KB], None]:
    def apply(kb: KB) -> None:
        in_flight(kb)
        how(kb.generation / "index" / name)

    return apply


def truncate(path: Path) -> None:
    with open(path, "r+b") as handle:
        handle.truncate(path.stat().st_size // 3)


def garbled_front_matter(kb: KB) -> None:
    path = sorted((kb.company / "raw").glob("website-products-*.md"))[0]
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("url: ", "url = ", 1), encoding="utf-8")


@dataclass
class Case:
    """One kind of damage: what it breaks, the path and repair the error names, the repair itself."""

    name: str
    damage: Callable[[KB], None]
    path: Callable[[KB], Path]
    fix: str
    commands: list[str] = field(default_factory=lambda: ["companies", "ask", "search", "enrich"])
    repair: list[list[str]] = field(default_factory=list)
    unaffected: list[str] = field(default_factory=list)


# Every command users run on the first kind of each family of damage (the store, a company's
# files); the others check the two that open everything, to keep the test quick.
STORE = ["companies", "ask", "search", "gather", "forget", "enrich", "rebuild"]
COMPANY = ["companies", "ask", "search", "enrich"]
BASIC = ["companies", "ask"]
CASES = [
    Case("a-store-truncated", truncate_store, lambda kb: kb.shard, REBUILD_ALL, STORE, [["rebuild", "--all"]]),
    Case("b-store-garbled", garble_segments, lambda kb: kb.shard, REBUILD_ALL, BASIC + ["rebuild"], [["rebuild", "--all"]]),
    Case("b-store-vectors-garbled", garble_vectors, lambda kb: kb.shard, REBUILD_ALL, ["ask", "search"], [["rebuild", "--all"]], unaffected=["companies"]),
    Case("b-store-record-garbled", garble_record, lambda kb: kb.shard.with_suffix(".json"), REBUILD_ALL, BASIC + ["gather"], [["rebuild", "--all"]]),
    Case("c-store-deleted", lambda kb: shutil.rmtree(kb.data / "_qdrant"), lambda kb: kb.shard, REBUILD_ALL, BASIC + ["enrich"], [["rebuild", "--all"]]),
    Case("d-generation-deleted", lambda kb: shutil.rmtree(kb.generation), lambda kb: kb.company / "raw", f"cikb forget {SLUG}", COMPANY,
         repair=[["forget", SLUG], ["gather"]]),
    Case("e-raw-link-dangling", lambda kb: relink(kb, "generations/20260101T000000-000000/raw"), lambda kb: kb.company / "raw", REBUILD, BASIC, [["rebuild", SLUG]]),
    Case("f-raw-is-a-directory", raw_as_directory, lambda kb: kb.company / "raw", REBUILD, BASIC, [["rebuild", SLUG]]),
    Case("f-raw-is-a-file", raw_as_file, lambda kb: kb.company / "raw", REBUILD, BASIC, [["rebuild", SLUG]]),
    Case("h-manifest-garbled", lambda kb: (kb.generation / "manifest.json").write_text('{"company": {"na'), lambda kb: kb.generation / "manifest.json", REBUILD,
         COMPANY, [["rebuild", SLUG]]),
    Case("i-manifest-missing", lambda kb: (kb.generation / "manifest.json").unlink(), lambda kb: kb.generation / "manifest.json", REBUILD, BASIC, [["rebuild", SLUG]]),
    Case("j-other-model", other_model, lambda kb: kb.shard, REBUILD_ALL, ["ask", "search", "gather", "rebuild"], [["rebuild", "--all"]], unaffected=["companies"]),
    Case("k-staged-chunks-truncated", damage_index("chunks.jsonl", truncate), lambda kb: kb.generation / "index" / "chunks.jsonl", REBUILD,
         BASIC + ["enrich"], [["rebuild", SLUG]]),
    Case("k-staged-dense-truncated", damage_index("dense.npy", truncate), lambda kb: kb.generation / "index" / "dense.npy", REBUILD, BASIC, [["rebuild", SLUG]]),
    Case("k-staged-sparse-garbled", damage_index("sparse.jsonl", garble), lambda kb: kb.generation / "index" / "sparse.jsonl", REBUILD, BASIC, [["rebuild", SLUG]]),
    Case("l-staged-index-missing", lambda kb: (in_flight(kb), shutil.rmtree(kb.generation / "index")), lambda kb: kb.generation / "index", REBUILD,
         BASIC, [["rebuild", SLUG]]),
    Case("n-front-matter-garbled", garbled_front_matter, lambda kb: sorted((kb.company / "raw").glob("website-products-*.md"))[0].resolve(), REBUILD,
         ["rebuild"], unaffected=["companies", "ask"]),
]


def _command(kb: KB, name: str) -> list[str]:
    return {
        "companies": ["companies"],
        "ask": ["ask", QUESTION],
        "search": ["search", "founders", "--company", SLUG],
        "forget": ["forget", SLUG],
        "enrich": enrich_args(kb),
        "rebuild": ["rebuild", SLUG],
    }[name]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_damage_gets_one_error_line_naming_the_path_and_the_repair(kb: KB, case: Case) -> None:
    before = documents_of(kb)
    path = str(case.path(kb))  # resolved before the damage: a deleted generation's path is still named
    case.damage(kb)
    for name in case.commands:
        result = kb.gather() if name == "gather" else kb.run(*_command(kb, name))
        assert_one_error(result, path, case.fix)
    for name in case.unaffected:
        result = kb.run(*_command(kb, name))
        assert result.returncode == 0, result.stderr
    if case.name == "n-front-matter-garbled":  # the repair the error names: fix or delete the file, then rebuild
        Path(path).unlink()
        before -= 1
        case.repair = [["rebuild", SLUG]]
    for step in case.repair:
        result = kb.gather() if step == ["gather"] else kb.run(*step)
        assert result.returncode == 0, result.stderr
    assert_works(kb, documents=before)


def test_forget_repairs_a_company_whose_documents_are_lost(kb: KB) -> None:
    shutil.rmtree(kb.generation)
    forgotten = kb.run("forget", SLUG, "--json")
    assert forgotten.returncode == 0, forgotten.stderr
    assert json.loads(forgotten.stdout)["points"] > 0  # its points went too, not only the folder
    listed = kb.run("companies", "--json")
    assert listed.returncode == 0 and json.loads(listed.stdout) == []


def test_a_committed_generation_does_not_need_its_staged_index(kb: KB) -> None:
    # (l) outside a commit in flight: the index was only kept to replay a commit; nothing reads it.
    shutil.rmtree(kb.generation / "index")
    assert_works(kb)


def test_a_stale_lock_blocks_nothing(kb: KB) -> None:
    # (g) filelock takes an flock on .lock: the kernel drops it when its holder dies, whatever the file holds.
    lock = kb.company / ".lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", f"import time; from filelock import FileLock; lock = FileLock({str(lock)!r}); lock.acquire(); print('held', flush=True); time.sleep(120)"],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        busy = kb.run("rebuild", SLUG)  # while the holder lives, the lock holds
        assert_one_error(busy, str(lock))
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
    lock.write_text("garbage left by a killed process\n")
    for args in (["rebuild", SLUG], ["companies"], ["ask", QUESTION]):
        result = kb.run(*args)
        assert result.returncode == 0, result.stderr
    regathered = kb.gather()
    assert regathered.returncode == 0, regathered.stderr
    assert_works(kb)


def test_a_denied_store_names_it_and_how_to_give_access(kb: KB) -> None:
    # (m) As root, chmod does not stop reads or writes; an immutable file (chattr +i) stops writes,
    # and the embedded store opens its files for writing. Unprivileged, chmod does it.
    target = kb.shard / "segments"
    if os.geteuid() == 0:
        deny = subprocess.run(["chattr", "-R", "+i", str(target)], capture_output=True, text=True)
        if deny.returncode != 0:
            pytest.skip(f"running as root, and chattr +i is not available here to deny access: {deny.stderr.strip()}")
        allow = ["chattr", "-R", "-i", str(kb.data / "_qdrant")]
    else:
        target.chmod(0)
        allow = ["chmod", "-R", "u+rwX", str(kb.data / "_qdrant")]
    try:
        for args in (["companies"], ["ask", QUESTION], ["search", "founders"]):
            error = assert_one_error(kb.run(*args), str(kb.data / "_qdrant"))
            assert " ".join(allow) in error  # the command that gives access back
    finally:
        subprocess.run(allow, check=True)
    assert_works(kb)


def test_a_read_only_data_folder_names_it_and_how_to_give_access(kb: KB) -> None:
    # The history and the jobs are SQLite files, which SQLite writes even to read them (WAL's side files): on a read-only
    # data folder `cikb changes` printed SQLite's traceback, `cikb jobs` said its database "cannot be read" and to move
    # it aside. Root ignores chmod, so as root the commands run without the capability that lets it (setpriv).
    unprivileged = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-dac_override,-dac_read_search"]
    prefix = unprivileged if os.geteuid() == 0 else []
    files = [kb.data, *kb.data.glob("_*.sqlite*")]
    modes = {path: path.stat().st_mode for path in files}
    for path in files:
        path.chmod(modes[path] & ~0o222)
    try:
        for args in (["changes", SLUG], ["jobs"]):
            result = subprocess.run([*prefix, str(CIKB), "--data-dir", str(kb.data), *args], env=kb.env, capture_output=True, text=True, timeout=180)
            error = assert_one_error(result, str(kb.data), f"chmod -R u+rwX {kb.data}")
            assert "move it aside" not in error
            assert result.returncode == 4
    finally:
        for path, mode in modes.items():
            path.chmod(mode)
    assert kb.run("changes", SLUG).returncode == 0


@pytest.mark.parametrize("damage", [b"not a database" * 100, "schema"], ids=["bytes-overwritten", "schema-out-of-step"])
def test_a_damaged_llm_log_is_moved_aside_with_one_warning_and_started_afresh(kb: KB, damage: bytes | str) -> None:
    # (o) logs.db is only the LLM call log: it heals itself (issue 24, item 4); answers never depend on it.
    from cikb.app.llm import migrate

    log = kb.data / "logs.db"
    with closing(sqlite3.connect(log)) as db:
        migrate(db)  # a call log, as the first logged LLM call leaves it
    if damage == "schema":  # its tables exist but its migrations are forgotten: "table calls already exists"
        with closing(sqlite3.connect(log)) as db, db:
            db.execute("DELETE FROM _migrations")
    else:
        log.write_bytes(damage)
    result = kb.run("logs")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    [moved] = list(kb.data.glob("logs.db.damaged-*"))
    assert len(warnings) == 1 and str(log) in warnings[0] and moved.name in warnings[0], result.stderr
    again = kb.run("logs")
    assert again.returncode == 0 and "warning:" not in again.stderr, again.stderr
    assert_works(kb)


@pytest.mark.parametrize("damage", [raw_as_directory, lambda kb: relink(kb, "generations/20260101T000000-000000/raw"), damage_index("chunks.jsonl", truncate)],
                         ids=["raw-is-a-directory", "raw-link-dangling", "staged-chunks-truncated"])
def test_a_new_gather_replaces_a_damaged_company(kb: KB, damage: Callable[[KB], None]) -> None:
    # Gathering the company again is a repair too: it replaces its raw files, generation and points.
    before = documents_of(kb)
    damage(kb)
    regathered = kb.gather()
    assert regathered.returncode == 0, regathered.stderr
    assert [p.name for p in kb.company.iterdir() if p.name.startswith(".raw")] == []  # nothing left aside
    assert len(list((kb.company / "generations").iterdir())) == 1
    assert_works(kb, documents=before)
