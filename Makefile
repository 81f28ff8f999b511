# The two commands of the README. Both set everything up on a fresh clone first.
VENV ?= .venv

.PHONY: setup demo test

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml scripts/setup.sh
	bash scripts/setup.sh

demo: setup
	$(VENV)/bin/cikb demo

test: setup
	$(VENV)/bin/python -m pytest -q
