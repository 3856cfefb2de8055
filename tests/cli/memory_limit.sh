#!/usr/bin/env bash
# `run --memory-limit` is a promise: a limit the run accepts, every run fits;
# a limit it refuses is refused before the runs asked for, with the bytes a
# run needs, never by a node's allocation failing partway through a run.
#  - shapes known only at run time (a symbolic dim given with --dim): the
#    executor's plan for those input shapes is checked before any run, and the
#    error names the planned peak and the tensor at it, as for static shapes;
#  - kernel scratch (a Conv's reordered source and destination,
#    ReduceLogSumExp's sums): the first untimed run records each step's, the
#    executor plans it with the tensors for the next runs, and a limit below
#    that plan is refused before running on it, naming the step and the
#    scratch; the timed runs' arena holds the planned block alone.
# Usage: memory_limit.sh CLI TEXT_TO_ONNX
set -u
cli=$1
text_to_onnx=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

json_field() {  # FILE KEY...: a number from the JSON, keys nested
  python3 - "$@" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
for k in sys.argv[2:]:
    j = j[k]
print(j)
PY
}

# A refusal: exit 1, the message given, no run finished (no latency line), and
# never a node's allocation failing partway ("would pass the memory limit").
refused() {  # OUT MESSAGE WHAT
  grep -q "$2" "$1" || { cat "$1"; fail "$3: the error does not say '$2'"; }
  grep -q "latency" "$1" && { cat "$1"; fail "$3: the model ran before the limit was refused"; }
  grep -q "would pass the memory limit" "$1" &&
    { cat "$1"; fail "$3: a node failed partway through a run instead of a refusal before"; }
  return 0
}

# --- shapes known only at run time -----------------------------------------
# (Q, a sequence, has no size: the plan leaves it to the arena, as ZipMap's
# output in winml_squeezenet; it must not keep the tensors from being checked.)
cat > "$dir/a.txt" <<'MODEL'
main (float[N,64] X) => (float[N,64] Y, seq(float[N,64]) Q) {
  A = Add(X, X)
  B = Mul(A, A)
  C = Add(A, B)
  D = Mul(B, C)
  Y = Add(C, D)
  Q = SequenceConstruct(D)
}
MODEL
"$text_to_onnx" "$dir/a.txt" "$dir/a.onnx" || fail "cannot write the model with a symbolic dim"
"$cli" run "$dir/a.onnx" --dim N=64 --repeat 1 --memory-limit 1KiB > "$dir/a1.out" 2>&1 &&
  fail "a symbolic-dim model ran under a 1 KiB limit"
refused "$dir/a1.out" "planned peak" "--dim N=64, 1KiB"
grep -qE "the largest of them '[A-Z]'" "$dir/a1.out" || { cat "$dir/a1.out"; fail "no tensor named"; }
grep -q "sizes inferred from the input shapes" "$dir/a1.out" ||
  { cat "$dir/a1.out"; fail "the error does not say the sizes come from the input shapes"; }
# What a run needs (the arena's peak of a run under a limit that is no bound):
# at exactly that it runs, one byte below it is refused before running.
"$cli" run "$dir/a.onnx" --dim N=64 --repeat 1 --memory-limit 1GiB --json > "$dir/a.json" 2> "$dir/a.err" ||
  { cat "$dir/a.err"; fail "a.onnx under 1GiB"; }
need=$(json_field "$dir/a.json" peak_arena_bytes) || fail "no peak_arena_bytes"
[ "$need" -gt 0 ] || fail "a.onnx: peak arena $need"
"$cli" run "$dir/a.onnx" --dim N=64 --repeat 3 --memory-limit "$need" > "$dir/a2.out" 2>&1 ||
  { cat "$dir/a2.out"; fail "a.onnx at the bytes a run needs ($need) failed"; }
"$cli" run "$dir/a.onnx" --dim N=64 --repeat 1 --memory-limit $((need - 1)) > "$dir/a3.out" 2>&1 &&
  fail "a.onnx one byte below what a run needs was accepted"
refused "$dir/a3.out" "memory limit" "a.onnx, $((need - 1)) bytes"
# Another dim plans again: N=128 needs twice as much.
"$cli" run "$dir/a.onnx" --dim N=128 --repeat 1 --memory-limit "$need" > "$dir/a4.out" 2>&1 &&
  fail "N=128 was accepted under what N=64 needs"
refused "$dir/a4.out" "planned peak" "N=128"

# --- kernel scratch outside the plan ----------------------------------------
cat > "$dir/c.txt" <<'MODEL'
main (float[1,16,56,56] X, float[32,16,3,3] W) => (float[1,32,56,56] Y) {
  Y = Conv<kernel_shape=[3,3], pads=[1,1,1,1]>(X, W)
}
MODEL
"$text_to_onnx" "$dir/c.txt" "$dir/c.onnx" || fail "cannot write the Conv model"
"$cli" run "$dir/c.onnx" --repeat 1 --memory-limit 1GiB --json > "$dir/c.json" 2> "$dir/c.err" ||
  { cat "$dir/c.err"; fail "c.onnx under 1GiB"; }
need=$(json_field "$dir/c.json" peak_arena_bytes) || fail "no peak_arena_bytes"
block=$(json_field "$dir/c.json" executor_memory block_bytes) || fail "no block_bytes"
scratch=$(json_field "$dir/c.json" executor_memory planned_scratch_bytes) || fail "no planned_scratch_bytes"
echo "Conv: block $block bytes ($scratch of them kernel scratch), a run needs $need"
[ $((block - scratch)) -eq $((32 * 56 * 56 * 4)) ] || fail "the block less its scratch is not Y ($block - $scratch bytes)"
# The scratch the measuring run asked for is planned: the timed runs' arena
# holds the block alone.
[ "$need" -eq "$block" ] || fail "c.onnx: a run needs $need bytes, not its planned block ($block)"
if [ "$scratch" -gt 0 ]; then
  # The plan without the scratch fits, the one with it does not: refused
  # after the measuring run, before running on it, naming the step.
  "$cli" run "$dir/c.onnx" --repeat 1 --memory-limit $((block - scratch)) > "$dir/c1.out" 2>&1 &&
    fail "c.onnx: a limit at the block without its scratch was accepted"
  refused "$dir/c1.out" "needs .* ($need bytes)" "c.onnx at the block without its scratch"
  grep -q "kernel scratch" "$dir/c1.out" || { cat "$dir/c1.out"; fail "the error does not name the scratch"; }
  grep -q "at step 0 (" "$dir/c1.out" || { cat "$dir/c1.out"; fail "the error does not name the step"; }
  grep -q -- "--memory-limit $need or more" "$dir/c1.out" ||
    { cat "$dir/c1.out"; fail "the error does not give the limit that runs"; }
else
  echo "note: the Conv asks for no scratch here (no reorder on this ISA)"
fi
"$cli" run "$dir/c.onnx" --repeat 3 --memory-limit "$need" > "$dir/c2.out" 2>&1 ||
  { cat "$dir/c2.out"; fail "c.onnx at the bytes a run needs ($need) failed"; }
"$cli" run "$dir/c.onnx" --repeat 1 --memory-limit $((need - 1)) > "$dir/c3.out" 2>&1 &&
  fail "c.onnx one byte below what a run needs was accepted"
refused "$dir/c3.out" "memory limit" "c.onnx, $((need - 1)) bytes"
# With --warmup 0 the measured run still happens (untimed).
"$cli" run "$dir/c.onnx" --repeat 1 --warmup 0 --memory-limit $((need - 1)) > "$dir/c4.out" 2>&1 &&
  fail "c.onnx --warmup 0 one byte below what a run needs was accepted"
refused "$dir/c4.out" "memory limit" "c.onnx --warmup 0"
# --- kernel scratch planned (ReduceLogSumExp's 1 KiB at step 1, no gap) ----
cat > "$dir/x.txt" <<'MODEL'
main (float[64,256] X) => (float[64,1] Y) {
  [neg] A = Neg(X)
  [lse] B = ReduceLogSumExp<axes = [1]>(A)
  [out] Y = Neg(B)
}
MODEL
"$text_to_onnx" "$dir/x.txt" "$dir/x.onnx" || fail "cannot write the scratch model"
"$cli" run "$dir/x.onnx" --repeat 1 --memory-limit 1GiB --json > "$dir/x.json" 2> "$dir/x.err" ||
  { cat "$dir/x.err"; fail "x.onnx under 1GiB"; }
need=$(json_field "$dir/x.json" peak_arena_bytes) || fail "no peak_arena_bytes"
block=$(json_field "$dir/x.json" executor_memory block_bytes) || fail "no block_bytes"
scratch=$(json_field "$dir/x.json" executor_memory planned_scratch_bytes) || fail "no planned_scratch_bytes"
[ "$scratch" -eq 1024 ] || fail "x.onnx: $scratch bytes of scratch planned, not 1024"
[ "$need" -eq "$block" ] || fail "x.onnx: a run needs $need bytes, not its planned block ($block)"
"$cli" run "$dir/x.onnx" --repeat 3 --memory-limit "$need" > "$dir/x2.out" 2>&1 ||
  { cat "$dir/x2.out"; fail "x.onnx at its planned block with the scratch ($need) failed"; }
"$cli" run "$dir/x.onnx" --repeat 1 --memory-limit $((need - 1)) > "$dir/x3.out" 2>&1 &&
  fail "x.onnx one byte below its plan with the scratch was accepted"
refused "$dir/x3.out" "needs .* ($need bytes)" "x.onnx, $((need - 1)) bytes"
grep -q "at step 1 (lse)" "$dir/x3.out" && grep -q "with the kernel scratch of 1 steps (1.0 KiB)" "$dir/x3.out" ||
  { cat "$dir/x3.out"; fail "x.onnx: the error does not name the step and its scratch"; }
echo "ok"
