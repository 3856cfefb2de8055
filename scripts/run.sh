#!/usr/bin/env bash
# Installs what is missing, builds PassLab and starts it on its bundled demo
# model (or on the model given). Usage: scripts/run.sh [MODEL.onnx]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)" --target passlab passlab-cli
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  echo "run.sh: no display found; starting under xvfb-run (set DISPLAY to use your screen)" >&2
  exec xvfb-run -a build/app/gui/passlab "$@"
fi
exec build/app/gui/passlab "$@"
