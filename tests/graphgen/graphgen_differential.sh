#!/usr/bin/env bash
# ctest graphgen_differential (label fuzz): a bounded differential campaign
# (tests/graphgen/run_campaign.py) on COUNT random valid graphs: every level's
# per-pass check, `passlab run` against onnxruntime, optimized files in
# onnxruntime. onnxruntime and onnx are developer tooling from PyPI, installed
# into VENV (shared with cli_ort_load_*; onnx added when missing); exit 77
# (skipped) when they cannot be installed.
# First proves the campaign can fail: with --plant wrong-output (a wrong value
# in `passlab run`'s first output) it must exit 1 and report run-mismatch.
# Usage: graphgen_differential.sh CLI VENV [COUNT] [SEED]
set -u
cli=$1 venv=$2 count=${3:-30} seed=${4:-0}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$(dirname "$venv")"
exec 9> "$venv.lock"
flock 9
if ! "$venv/bin/python" -c 'import onnxruntime, numpy, onnx' 2> /dev/null; then
  if ! "$venv/bin/python" -c 'import sys' 2> /dev/null; then
    rm -rf "$venv"
    if ! python3 -m venv "$venv" > "$venv.log" 2>&1; then
      echo "python3 -m venv failed (Debian: apt-get install python3-venv): skipped"; tail -3 "$venv.log"
      exit 77
    fi
  fi
  if ! timeout 600 "$venv/bin/pip" install -q onnxruntime numpy onnx >> "$venv.log" 2>&1; then
    echo "pip install onnxruntime numpy onnx failed (no network?): skipped"; tail -3 "$venv.log"
    exit 77
  fi
fi
flock -u 9
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$venv/bin/python" "$here/run_campaign.py" --cli "$cli" --count 2 --seed "$seed" --levels basic \
  --plant wrong-output --out "$out/planted" > "$out/planted.log" 2>&1
if [ $? -ne 1 ] || ! grep -q 'run-mismatch' "$out/planted.log"; then
  echo "FAIL: the campaign does not fail on a planted wrong output:"; cat "$out/planted.log"
  exit 1
fi
"$venv/bin/python" "$here/run_campaign.py" --cli "$cli" --count "$count" --seed "$seed" \
  --out "$out/campaign"
rc=$?
cat "$out/campaign/summary.md"
exit $rc
