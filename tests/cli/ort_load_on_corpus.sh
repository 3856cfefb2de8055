#!/usr/bin/env bash
# onnxruntime loads and runs every file optimize_on_corpus.sh saved (KEEP_DIR,
# from cli_optimize_LEVEL_on_corpus), with the original model's outputs
# (tests/cli/ort_load_check.py). onnxruntime is developer tooling from PyPI:
# installed here into VENV (python3 -m venv; pip install onnxruntime numpy) once.
# With CLI, TEXT_TO_ONNX and LEVEL, the small models in tests/cli/ort_models/*.txt
# (PassLab's text format: cases onnxruntime's graph loader has rules for, e.g. a
# branch returning an Identity of an outer value, which must stay) are optimized
# at LEVEL and checked too.
# Usage: ort_load_on_corpus.sh KEEP_DIR VENV [CLI TEXT_TO_ONNX LEVEL]
#        (exit 77 = skipped: no optimized files, or onnxruntime cannot be installed)
set -u
keep=$1 venv=$2 cli=${3:-} text_to_onnx=${4:-} level=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -s "$keep/pairs.tsv" ]; then
  echo "no optimized corpus files in $keep (cli_optimize_*_on_corpus did not keep any): skipped"
  exit 77
fi
# Both levels' tests may start together: one installs, the other waits.
mkdir -p "$(dirname "$venv")"
exec 9> "$venv.lock"
flock 9
if ! "$venv/bin/python" -c 'import onnxruntime, numpy' 2> /dev/null; then
  rm -rf "$venv"
  if ! python3 -m venv "$venv" > "$venv.log" 2>&1; then
    echo "python3 -m venv failed (Debian: apt-get install python3-venv): skipped"; tail -3 "$venv.log"
    exit 77
  fi
  if ! timeout 600 "$venv/bin/pip" install -q onnxruntime numpy >> "$venv.log" 2>&1; then
    echo "pip install onnxruntime numpy failed (no network?): skipped"; tail -3 "$venv.log"
    rm -rf "$venv"
    exit 77
  fi
fi
flock -u 9
# The check can fail: a file onnxruntime refuses, paired with an original it loads.
self=$(mktemp -d)
trap 'rm -rf "$self"' EXIT
head -n 1 "$keep/pairs.tsv" | cut -f1,2 > "$self/pairs.tsv"
echo 'not an ONNX model' > "$self/refused.onnx"
sed -i "s|\$|\t$self/refused.onnx\t|" "$self/pairs.tsv"
"$venv/bin/python" "$here/ort_load_check.py" "$self/pairs.tsv" > "$self/log" 2>&1
if [ $? -ne 1 ] || ! grep -q 'FAIL load' "$self/log"; then
  echo "FAIL: ort_load_check.py does not fail on a file onnxruntime refuses:"; cat "$self/log"
  exit 1
fi
cp "$keep/pairs.tsv" "$self/all.tsv"
if [ -n "$cli" ]; then
  for t in "$here"/ort_models/*.txt; do
    name=$(basename "$t" .txt)
    "$text_to_onnx" "$t" "$self/$name.onnx" || { echo "FAIL: cannot write $t"; exit 1; }
    if ! "$cli" optimize "$self/$name.onnx" --level "$level" -o "$self/$name.opt.onnx" > "$self/log" 2>&1; then
      echo "FAIL: optimize --level $level $t:"; tail -5 "$self/log"; exit 1
    fi
    printf '%s\t%s\t%s\t\n' "$name" "$self/$name.onnx" "$self/$name.opt.onnx" >> "$self/all.tsv"
  done
fi
"$venv/bin/python" "$here/ort_load_check.py" "$self/all.tsv" --markdown "$keep/ort-load.md"
