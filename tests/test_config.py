import json
import re
from pathlib import Path

import pytest

from cikb.core.config import config_reference, load_settings
from cikb.core.errors import ConfigError


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
    # README promises ConfigError for every configuration that cannot be used; this was a FileNotFoundError.
    with pytest.raises(ConfigError, match="config file not found"):
        load_settings(tmp_path / "nope.toml")
    with pytest.raises(ConfigError, match="config file is a folder"):  # it said "not found" of a folder
        load_settings(tmp_path)


def test_cikb_config_naming_a_missing_file_is_refused_by_the_library_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The CLI refused CIKB_CONFIG=/missing.toml while load_settings() silently used the defaults.
    monkeypatch.setenv("CIKB_CONFIG", str(tmp_path / "missing.toml"))
    with pytest.raises(ConfigError, match=f"config file not found: {re.escape(str(tmp_path / 'missing.toml'))}$"):
        load_settings()


def test_the_config_file_may_be_a_str_or_any_path_like(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # load_settings("cikb.toml") raised AttributeError: 'str' object has no attribute 'is_file'.
    (tmp_path / "cikb.toml").write_text("[gather]\ndownload_delay = 7\n")
    monkeypatch.chdir(tmp_path)

    class PathLike:
        def __fspath__(self) -> str:
            return str(tmp_path / "cikb.toml")

    assert load_settings("cikb.toml").gather.download_delay == 7
    assert load_settings(PathLike()).gather.download_delay == 7
    with pytest.raises(ConfigError, match="config file not found: nope.toml"):
        load_settings("nope.toml")


def test_an_empty_cikb_config_is_unset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "CIKB_CONFIG=" was taken as the file "" (the working directory), so ./cikb.toml went unread.
    (tmp_path / "cikb.toml").write_text("[gather]\ndownload_delay = 7\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CIKB_CONFIG", "")
    assert load_settings().gather.download_delay == 7
    result = _config(tmp_path, None, CIKB_CONFIG="")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["gather"]["download_delay"] == 7


def _config(tmp_path: Path, toml: bytes | None = None, *args: str, **env: str):
    """`cikb config ARGS` through the installed command, in ``tmp_path`` with ``toml`` as its cikb.toml."""
    import os
    import subprocess
    import sys

    if toml is not None:
        (tmp_path / "cikb.toml").write_bytes(toml)
    environment = {k: v for k, v in os.environ.items() if not k.startswith("CIKB_")} | env
    return subprocess.run([sys.executable, "-m", "cikb", "config", *args], cwd=tmp_path, env=environment,
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
        # A malformed URL passed, then failed deep inside the first request (httpx InvalidURL, urllib3 LocationParseError).
        (None, {"CIKB_LLM__BASE_URL": "http://localhost:80a0/v1", "CIKB_LLM__MODEL": "m"},
         "error: invalid configuration llm.base_url: Input should be a valid URL, invalid port number"),
        (None, {"CIKB_STORE__MODE": "server", "CIKB_STORE__URL": "http://localhost:63a3"},
         "error: invalid configuration store.url: Input should be a valid URL, invalid port number"),
        (b'[gather]\npoliteness_url = "redis://localhost:63a3/0"\n', {},
         "error: invalid configuration gather.politeness_url: Input should be a valid URL, invalid port number"),
        # A misspelt section or top-level name in a variable was silently ignored: the default was used.
        (None, {"CIKB_GATHR__DOWNLOAD_DELAY": "5"},
         "error: unknown variable CIKB_GATHR__DOWNLOAD_DELAY: it names no setting; did you mean CIKB_GATHER__DOWNLOAD_DELAY?"),
        (None, {"CIKB_DATADIR": "/x"}, "error: unknown variable CIKB_DATADIR: it names no setting; did you mean CIKB_DATA_DIR?"),
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


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("CIKB_LLM__BASE_URL", "http://localhost:80a0/v1", "llm.base_url: Input should be a valid URL, invalid port number"),
        ("CIKB_LLM__BASE_URL", "http://[::1", "llm.base_url: Input should be a valid URL, invalid IPv6 address"),
        ("CIKB_LLM__BASE_URL", "localhost:8080/v1", "llm.base_url: URL scheme should be 'http' or 'https'"),
        ("CIKB_LLM__BASE_URL", "http://:8080/v1", "llm.base_url: Input should be a valid URL, empty host"),
        ("CIKB_LLM__BASE_URL", "http://localhost:0/v1", "llm.base_url: Value error, URL port should be from 1 to 65535"),
        ("CIKB_STORE__URL", "http://localhost:65536", "store.url: Input should be a valid URL, invalid port number"),
        ("CIKB_STORE__URL", "grpc://localhost:6334", "store.url: URL scheme should be 'http' or 'https'"),
        ("CIKB_GATHER__POLITENESS_URL", "redis://localhost:63a3/0", "gather.politeness_url: Input should be a valid URL, invalid port number"),
        ("CIKB_GATHER__POLITENESS_URL", "http://localhost:6379/0", "gather.politeness_url: URL scheme should be 'redis' or 'rediss'"),
        ("CIKB_QUEUE__URL", "redis://:pw@[::1/0", "queue.url: Input should be a valid URL, invalid IPv6 address"),
        ("CIKB_ENRICH__SEARCH_URL", "search.example/api", "enrich.search_url: Input should be a valid URL, relative URL without a base"),
        ("CIKB_GATHER__WIKIPEDIA_BASE_URL", "https://en.wikipedia.org:x/wiki/",
         "gather.wikipedia_base_url: Input should be a valid URL, invalid port number"),
        ("CIKB_GATHER__CRUNCHBASE_BASE_URL", "ftp://crunchbase.com/", "gather.crunchbase_base_url: URL scheme should be 'http' or 'https'"),
    ],
)
def test_a_malformed_url_setting_is_refused_when_the_settings_are_made(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, message: str
) -> None:
    # It was accepted, and failed at the first request with httpx's or urllib3's exception, or as a robots.txt failure.
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError) as err:
        load_settings()
    assert str(err.value) == f"invalid configuration {message}"


def test_a_url_setting_error_never_shows_the_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CIKB_QUEUE__URL", "redis://:planted-password-4821@localhost:63a3/0")  # credentials are secrets
    with pytest.raises(ConfigError) as err:
        load_settings()
    assert "queue.url" in str(err.value) and "planted-password-4821" not in str(err.value)


def test_a_valid_url_is_kept_as_written_and_an_empty_one_is_unset(tmp_path: Path) -> None:
    config = tmp_path / "cikb.toml"
    config.write_text(
        '[llm]\nbase_url = ""\nmodel = "m"\n[store]\nurl = "http://Qdrant.local:6333"\n'
        '[gather]\npoliteness_url = " "\n[queue]\nurl = "rediss://:pw@10.0.0.5:6380/2"\n[enrich]\nsearch_url = ""\n'
    )
    s = load_settings(config)
    assert s.llm.base_url is None and not s.llm.configured  # an empty URL is "not configured", as before
    assert s.gather.politeness_url is None and s.enrich.search_url is None
    assert s.store.url == "http://Qdrant.local:6333"  # not pydantic's "http://qdrant.local:6333/": Qdrant's client reads "/" as a prefix
    assert s.queue.url == "rediss://:pw@10.0.0.5:6380/2"


def test_a_cikb_variable_naming_no_setting_is_refused_by_the_library(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CIKB_GATHR__DOWNLOAD_DELAY", "5")
    with pytest.raises(ConfigError, match=r"^unknown variable CIKB_GATHR__DOWNLOAD_DELAY: .*did you mean CIKB_GATHER__DOWNLOAD_DELAY\?$"):
        load_settings()
    monkeypatch.delenv("CIKB_GATHR__DOWNLOAD_DELAY")
    monkeypatch.setenv("CIKB_NOTHING_LIKE_IT", "1")
    with pytest.raises(ConfigError, match=r"^unknown variable CIKB_NOTHING_LIKE_IT: it names no setting; `cikb config --reference` lists them$"):
        load_settings()


def test_every_documented_cikb_variable_is_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CIKB_SERVE_TOKEN", "t")  # `cikb serve --token`'s variable
    monkeypatch.setenv("CIKB_GATHER", '{"download_delay": 3}')  # a whole section as JSON
    monkeypatch.setenv("CIKB_RETRIEVE__PAGE_KIND_WEIGHTS__LISTING", "0.2")  # a table's entry
    monkeypatch.setenv("CIKB_GATHR__DOWNLOAD_DELAY", "")  # empty: unset, so not refused either
    s = load_settings()
    assert s.gather.download_delay == 3 and s.retrieve.page_kind_weights["listing"] == 0.2
    for env, *_ in config_reference():
        monkeypatch.setenv(env, "")
    load_settings()


def test_the_reference_as_json_is_a_list_of_settings(tmp_path: Path) -> None:
    # `cikb config --reference --json` printed the Markdown table.
    result = _config(tmp_path, None, "--reference", "--json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [row["env"] for row in rows] == [env for env, *_ in config_reference()]
    by_env = {row["env"]: row for row in rows}
    assert by_env["CIKB_GATHER__DOWNLOAD_DELAY"] == {
        "env": "CIKB_GATHER__DOWNLOAD_DELAY", "toml": "[gather] download_delay", "default": 1.0,
        "description": "Seconds between requests to one domain, counted from the previous answer.",
    }
    assert by_env["CIKB_LLM__BASE_URL"]["default"] is None and by_env["CIKB_DATA_DIR"]["default"] == "data"
