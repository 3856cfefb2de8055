#!/usr/bin/env bash
# `optimize --level default --check 1` on every ONNX operator test model of
# the corpus, checked on the test's own inputs (--input-dir
# test_data_set_0): every pass must keep the outputs, and nothing may be
# rolled back or crash. Models the check cannot run are counted, not failed:
# an operator the executor lacks, or an input that is not a tensor.
# Usage: optimize_node_tests.sh CLI CORPUS_DIR   (exit 77 = skipped: no corpus)
set -u
cli=$1
corpus=${PASSLAB_CORPUS_DIR:-$2}
tests="$corpus/onnx-node-tests"
if [ ! -d "$tests" ]; then
  echo "corpus node tests not found at $tests: skipped (set PASSLAB_CORPUS_DIR)"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ok=0 uncheckable=0 failed=0
for t in "$tests"/*/; do
  [ -f "$t/model.onnx" ] && [ -d "$t/test_data_set_0" ] || continue
  if timeout 120 "$cli" optimize "$t/model.onnx" -o "$dir/out.onnx" --level default --check 1 \
    --input-dir "$t/test_data_set_0" > "$dir/log" 2>&1 && ! grep -q "ROLLED BACK" "$dir/log"; then
    ok=$((ok + 1))
  elif grep -q "cannot check outputs: .*unsupported operator\|--input-dir reads tensors only" \
    "$dir/log"; then
    uncheckable=$((uncheckable + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $(basename "$t"):"
    grep -m3 "error\|ROLLED BACK\|FAILED" "$dir/log" | sed 's/^/    /'
  fi
done
echo "node tests: $ok optimized with equal outputs, $uncheckable the check cannot run, $failed failed"
[ "$failed" -eq 0 ] || exit 1
# The corpus has 1,802 tests, 1,749 checked on 2026-12-06; fewer means the
# check, --input-dir or a kernel stopped working for some.
[ "$ok" -ge 1740 ] || { echo "FAIL: only $ok models checked"; exit 1; }
