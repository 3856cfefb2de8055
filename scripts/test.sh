#!/usr/bin/env bash
# Builds PassLab and runs every test (the README's test command; CI runs it).
# Usage: scripts/test.sh [BUILD_DIR]    (as root on a fresh Debian 12 machine)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
build=${1:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build" -j"$(nproc)"
cd "$build"
QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j"$(nproc)"
