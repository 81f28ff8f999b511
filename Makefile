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

# Two passes: the tests that bound wall-clock time or space requests by a server's clock (marked `timing`,
# tests/conftest.py) in a pytest process of their own, the rest on two pytest-xdist workers first. Both passes
# run; either failing fails `make test`. (All on two workers was faster, but its load failed a timing-bound
# test in one of three fresh-clone runs.) --dist loadgroup hands out one test at a time, a group (the wheel's tests)
# to one worker whole.
test: setup
	$(VENV)/bin/python -m pytest -q -n 2 --dist loadgroup -m "not timing"; rest=$$?; \
	$(VENV)/bin/python -m pytest -q -m timing; timing=$$?; \
	exit $$(( rest || timing ))
