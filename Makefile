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

# Two pytest-xdist workers: many tests wait on sockets, subprocesses and politeness delays, so two
# workers on two cores take the suite from about 20 minutes to about 13 (measured on a fresh clone).
test: setup
	$(VENV)/bin/python -m pytest -q -n 2
