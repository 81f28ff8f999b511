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
$PIP install -q -e ".[torch,dev]"
touch "$VENV/.installed"
echo "cikb set up in $VENV"
