#!/usr/bin/env bash
# Screenshots of the real GUI under Xvfb, in English and in Chinese: a corpus
# model (grouped, a search hit selected) and the CNN demo (an initializer's
# statistics in the properties panel).
# Usage: scripts/screenshots.sh [BUILD_DIR] [OUT_DIR] [CORPUS_DIR]
set -euo pipefail
build=${1:-build}
out=${2:-docs/screenshots}
corpus=${3:-${PASSLAB_CORPUS_DIR:-../shared/corpus}}
app="$build/app/gui/passlab"
[ -x "$app" ] || { echo "screenshots: $app not built" >&2; exit 1; }
mkdir -p "$out"
settings=$(mktemp -d)
trap 'rm -rf "$settings"' EXIT
shoot() {  # name lang args...
  local name=$1 lang=$2
  shift 2
  XDG_CONFIG_HOME="$settings" xvfb-run -a -s "-screen 0 1600x1000x24" \
    "$app" --lang "$lang" --screenshot "$out/${name}_${lang}.png" "$@"
}
for lang in en zh_CN; do
  shoot demo_cnn_block "$lang" --search bn_var
  model="$corpus/models/ort_gpt2_past.onnx"
  if [ -f "$model" ]; then
    shoot gpt2_past "$lang" --search Softmax "$model"
  else
    echo "screenshots: $model not found, skipped" >&2
  fi
done
ls -l "$out"
