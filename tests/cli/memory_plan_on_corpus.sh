#!/usr/bin/env bash
# Every corpus model runs with and without the memory plan (`run` on its plan's
# block, and `run --no-memory-plan` on the arena alone) and saves the same
# outputs, byte for byte. The warm-up run records sizes the types do not give,
# so the timed run is on the plan for every model that runs; a model's run on
# the plan must say so (executor_memory.on_plan) and place tensors (or write
# its graph outputs in the caller's buffers: a one-node model such as the
# BeamSearch one, output_buffers.h).
# Usage: memory_plan_on_corpus.sh CLI CORPUS_DIR   (exit 77 = skipped: no corpus)
set -u
cli=$1
corpus=${PASSLAB_CORPUS_DIR:-$2}
if [ ! -d "$corpus/models" ]; then
  echo "corpus not found at $corpus: skipped (set PASSLAB_CORPUS_DIR)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0 same=0
for m in "$corpus"/models/*.onnx; do
  name=$(basename "$m" .onnx)
  n=$((n + 1))
  rm -rf "$tmp/on" "$tmp/off"
  "$cli" run "$m" --threads 1 --warmup 1 --repeat 1 --json --save-outputs "$tmp/on" \
    > "$tmp/on.json" 2> "$tmp/on.err"
  on=$?
  "$cli" run "$m" --threads 1 --warmup 1 --repeat 1 --no-memory-plan --save-outputs "$tmp/off" \
    > /dev/null 2> "$tmp/off.err"
  off=$?
  if [ $off -ne 0 ]; then
    # A model the executor cannot run fails the same way on the plan.
    if [ $on -eq 0 ] || ! cmp -s "$tmp/on.err" "$tmp/off.err"; then
      echo "FAIL: $name: without the plan: $(cat "$tmp/off.err"); with it: exit $on $(cat "$tmp/on.err")"
      fail=1
    else
      echo "$name: does not run (either way): $(head -c 160 "$tmp/off.err")"
    fi
    continue
  fi
  if [ $on -ne 0 ]; then
    echo "FAIL: $name: runs without the plan but not on it: $(cat "$tmp/on.err")"; fail=1; continue
  fi
  if ! summary=$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["executor_memory"]
if not m["on_plan"] or m["placed"] + m["outputs_handed_over"] == 0:
    sys.exit("not on the plan: " + json.dumps(m))
print("block %d bytes (%s), %d placed, %d in place, %d fell back, %d copied out" % (
    m["block_bytes"], m["sizes"], m["placed"], m["in_place_steps"], m["fell_back"], m["copied_out"]))
' "$tmp/on.json" 2>&1); then
    echo "FAIL: $name: $summary"; fail=1; continue
  fi
  if ! diff -r "$tmp/on" "$tmp/off" > "$tmp/diff" 2>&1; then
    echo "FAIL: $name: outputs differ with and without the plan: $(head -5 "$tmp/diff")"; fail=1
    continue
  fi
  same=$((same + 1))
  echo "$name: same outputs; $summary"
done
echo "memory plan on $n corpus models: $same with identical outputs on and off the plan"
exit $fail
