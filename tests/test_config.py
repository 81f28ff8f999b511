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
    with pytest.raises(FileNotFoundError):
        load_settings(tmp_path / "nope.toml")
