from pathlib import Path

import pytest

from cikb.core.config import load_settings


def test_defaults_hold_the_spec_bounds() -> None:
    s = load_settings()
    assert s.gather.max_pages_per_source == 20
    assert s.gather.max_raw_bytes == 100_000
    assert s.gather.request_timeout == 30
    assert s.gather.download_delay == 1.0
    assert s.gather.max_attempts == 3
    assert s.clean.min_chars == 100 and s.clean.max_chars == 50_000
    assert s.store.collection == "company_intel"
    assert s.retrieve.rrf_k == 60 and s.retrieve.score_threshold is None  # unset: the model's own (0.3 for arctic-embed-s)
    assert not s.llm.configured


def test_layers_file_then_environment_then_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "cikb.toml"
    config.write_text('[gather]\ndownload_delay = 0.5\nmax_pages_per_source = 7\n[llm]\nmodel = "m"\n')
    monkeypatch.setenv("CIKB_GATHER__DOWNLOAD_DELAY", "0.25")
    s = load_settings(config, data_dir=tmp_path / "d")
    assert s.gather.download_delay == 0.25  # environment beats file
    assert s.gather.max_pages_per_source == 7  # file beats default
    assert s.llm.model == "m"
    assert s.data_dir == tmp_path / "d"  # flags beat everything


def test_missing_config_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="config file not found"):
        load_settings(tmp_path / "nope.toml")
    with pytest.raises(FileNotFoundError, match="config file is a folder"):  # it said "not found" of a folder
        load_settings(tmp_path)


def _config(tmp_path: Path, toml: bytes | None = None, **env: str):
    """`cikb config` through the installed command, in ``tmp_path`` with ``toml`` as its cikb.toml."""
    import os
    import subprocess
    import sys

    if toml is not None:
        (tmp_path / "cikb.toml").write_bytes(toml)
    environment = {k: v for k, v in os.environ.items() if not k.startswith("CIKB_")} | env
    return subprocess.run([sys.executable, "-m", "cikb", "config"], cwd=tmp_path, env=environment,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    ("toml", "env", "line"),
    [
        (b"[gather\nx = 1\n", {}, "error: cikb.toml: not valid TOML: Expected ']' at the end of a table declaration (at line 1, column 8)"),
        (b"\xff\xfe[gather]\n", {}, "error: cikb.toml: not UTF-8 text (byte 0xff at offset 0)"),
        (b"[gather]\ndownload_dealy = 5\n", {},
         "error: unknown key [gather] download_dealy (in cikb.toml or a CIKB_ variable); did you mean download_delay?"),
        (None, {"CIKB_GATHER__DOWNLOAD_DEALY": "5"},
         "error: unknown key [gather] download_dealy (in cikb.toml or a CIKB_ variable); did you mean download_delay?"),
        (b"[gatherx]\nx = 1\n", {}, "error: unknown key or section gatherx (in cikb.toml or a CIKB_ variable); did you mean gather?"),
        (None, {"CIKB_RETRIEVE__FUSION_WEIGHTS": "[1"},
         "error: CIKB_RETRIEVE__FUSION_WEIGHTS: cannot be parsed (JSON for lists and tables): Expecting ',' delimiter: line 1 column 3 (char 2)"),
        # An infinite delay passed, and failed the crawler's process; `cikb config` printed "Infinity", no JSON.
        (None, {"CIKB_GATHER__DOWNLOAD_DELAY": "inf"}, "error: invalid configuration gather.download_delay: Input should be a finite number"),
        (b'data_dir = ""\n', {}, "error: invalid configuration data_dir: Value error, an empty path (leave it out for the default, data)"),
    ],
)
def test_a_configuration_error_is_one_line_saying_where(tmp_path: Path, toml: bytes | None, env: dict, line: str) -> None:
    # Issue 24, item 5: the file with the line and column, the variable, the nearest known key; never a traceback.
    result = _config(tmp_path, toml, **env)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() == line


def test_a_misspelt_key_is_refused_by_the_library_too(tmp_path: Path) -> None:
    from cikb.core.errors import ConfigError

    config = tmp_path / "cikb.toml"
    config.write_text("[retrieve]\ntop_kk = 5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\[retrieve\] top_kk .*did you mean top_k\?"):
        load_settings(config)


def test_an_empty_cikb_variable_is_unset(tmp_path: Path) -> None:
    # "CIKB_DATA_DIR=" meant the working directory: gathers wrote company folders, the store and the caches there.
    import json

    result = _config(tmp_path, None, CIKB_DATA_DIR="", CIKB_STORE__PATH="")
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["data_dir"] == str(tmp_path / "data") and shown["store"]["path"] is None
