#!/usr/bin/env bash
# Installs every Debian 12 package PassLab needs to build, test and run.
# One list, used by the README, CI (.ci/run) and developers alike.
# Usage (as root): scripts/install-deps.sh
set -euo pipefail

PACKAGES=(
  # toolchain
  build-essential cmake ninja-build pkg-config git clang-format ccache
  # ONNX + protobuf
  libonnx-dev libonnx-testdata libprotobuf-dev protobuf-compiler
  # logging, json, CLI parsing
  libspdlog-dev libfmt-dev nlohmann-json3-dev libcli11-dev
  # the programs' allocator (many small graph objects; see CMakeLists.txt)
  libjemalloc-dev
  # flat hash tables for the graph's indexes (Abseil)
  libabsl-dev
  # math back-ends
  libdnnl-dev libopenblas-dev libeigen3-dev
  # oneDNN's CMake package looks for OpenCL (its GPU runtime)
  ocl-icd-opencl-dev
  # graph layout
  graphviz libgraphviz-dev
  # Qt 6.4
  qt6-base-dev libqt6opengl6-dev qt6-svg-dev qt6-charts-dev qt6-tools-dev
  qt6-tools-dev-tools qt6-l10n-tools qt6-qpa-plugins libgl-dev
  # Qt's own dialogs and buttons in Chinese (qtbase_zh_CN.qm)
  qt6-translations-l10n
  # tests (python3: the core message catalog check, scripts/dev/gen_core_messages.py;
  # python3-venv: the onnxruntime load checks, ctest cli_ort_load_*_on_corpus, which
  # pip-install onnxruntime into the build's own venv and skip without network)
  libgtest-dev libgmock-dev googletest libbenchmark-dev python3 python3-venv
  # GUI tests and screenshots
  xvfb xauth imagemagick fonts-dejavu-core fonts-noto-cjk libgl1-mesa-dri
  # memory checks of the GUI (ctest ui_close_window_memcheck)
  valgrind
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${#missing[@]} packages: ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
