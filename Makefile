# The two commands of the README. Both set everything up on a fresh clone first:
# `make demo` the default install only (no PyTorch, no test tools), `make test` all of it.
VENV ?= .venv

.PHONY: setup setup-demo demo test

setup-demo: $(VENV)/.installed-demo

setup: $(VENV)/.installed-test

$(VENV)/.installed-demo: pyproject.toml scripts/setup.sh
	VENV=$(VENV) bash scripts/setup.sh demo

$(VENV)/.installed-test: pyproject.toml scripts/setup.sh
	VENV=$(VENV) bash scripts/setup.sh test

demo: setup-demo
	$(VENV)/bin/cikb demo

test: setup
	$(VENV)/bin/python -m pytest -q
