#!/usr/bin/env bash
# Issue #26: the ONNX node tests of the window ops (Conv, ConvTranspose,
# ConvInteger, DeformConv, the pools, LpPool, MaxUnpool, Col2Im) on the
# reference kernels alone (`conformance --reference`: the one general
# sliding-window kernel), not only on the fast paths the other suites run.
# Every test must pass (none is a known failure) and at least MIN must run,
# so a filter that stops matching fails too.
# Usage: window_reference.sh CLI SUITE DEFAULT_DIR LIST_DIR MIN
set -u
cli=$1 suite=$2 default=$3 lists=$4 min=$5
here=$(dirname "$0")
out=$("$here/run_conformance.sh" "$cli" "$suite" "$default" "$lists" --reference \
  conv pool unpool col2im 2>&1)
rc=$?
echo "$out"
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || { echo "FAIL: conformance exited $rc"; exit 1; }
line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
passed=${line%% passed*}
failed=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
[ -n "$line" ] || { echo "FAIL: no summary line"; exit 1; }
[ "$failed" -eq 0 ] || { echo "FAIL: $failed window tests fail on the reference kernels"; exit 1; }
[ "$passed" -ge "$min" ] || { echo "FAIL: only $passed window tests ran (at least $min expected)"; exit 1; }
echo "ok: $passed window tests pass on the reference kernels"
