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

# One pytest process: two pytest-xdist workers took the suite from about 20 minutes to about 13, but under
# their load a politeness gap measured at a test server (0.19 s for 0.3 +- 0.1) and a queue test's redelivery
# (a 300 s timeout) failed in one of three fresh-clone runs; serial runs have not failed them.
test: setup
	$(VENV)/bin/python -m pytest -q
