#!/usr/bin/env bash
# `passlab-cli info` (text and --json) exits 0 on every corpus model.
# Usage: info_on_corpus.sh CLI CORPUS_DIR   (exit 77 = skipped: no corpus)
set -u
cli=$1
corpus=${PASSLAB_CORPUS_DIR:-$2}
if [ ! -d "$corpus/models" ]; then
  echo "corpus not found at $corpus: skipped (set PASSLAB_CORPUS_DIR)"
  exit 77
fi
fail=0 n=0
for m in "$corpus"/models/*.onnx; do
  n=$((n + 1))
  if ! "$cli" info "$m" > /dev/null 2> /tmp/info.err.$$; then
    echo "FAIL: info $m: $(cat /tmp/info.err.$$)"; fail=1
  fi
  if ! "$cli" info --json "$m" | python3 -c 'import json,sys; json.load(sys.stdin)' 2> /tmp/info.err.$$; then
    echo "FAIL: info --json $m does not print valid JSON: $(tail -1 /tmp/info.err.$$)"; fail=1
  fi
done
rm -f /tmp/info.err.$$
echo "info ran on $n corpus models"
exit $fail
