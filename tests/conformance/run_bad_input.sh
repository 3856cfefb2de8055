#!/usr/bin/env bash
# `passlab-cli run` on bad input: each case must exit non-zero (not crash) and
# print an error naming the problem. Models and .npy files: inputs/bad (make.py).
# Usage: run_bad_input.sh CLI DATA_DIR
set -u
cli=$1 d=$2
fail=0 n=0 out=$(mktemp)
trap 'rm -f "$out"' EXIT
# expect WANT ARGS...: the run fails (exit 1) and stderr holds WANT.
expect() {
  local want=$1
  shift
  n=$((n + 1))
  (cd "$d" && "$cli" run "$@" --repeat 1 --warmup 0) > "$out" 2>&1
  local rc=$?
  if [ $rc -ne 1 ]; then
    echo "FAIL: run $*: exit $rc (expected 1): $(tail -1 "$out")"; fail=1
  elif ! grep -qF -- "$want" "$out"; then
    echo "FAIL: run $*: expected '$want', got: $(tail -1 "$out")"; fail=1
  else
    echo "ok   run $*: $(tail -1 "$out")"
  fi
}
# The good case first: the files fit.
if ! (cd "$d" && "$cli" run add.onnx --input x=x_2x3.npy --input y=x_2x3.npy --repeat 1) \
    > "$out" 2>&1; then
  echo "FAIL: the good case does not run: $(tail -1 "$out")"; fail=1
fi
expect "the model has no input 'w'" add.onnx --input w=x_2x3.npy
expect "input 'x' has element type double, the model expects float" \
  add.onnx --input x=x_2x3_double.npy
expect "input 'x' has shape [3,2], the model expects [2,3]" add.onnx --input x=x_3x2.npy
expect "unsupported operator ImageDecoder (domain ai.onnx, opset 20) at node ImageDecoder 'decode'" \
  image_decoder.onnx
expect "unsupported operator Frobnicate (domain com.example, opset 3) at node com.example.Frobnicate 'frob'" \
  frobnicate.onnx
expect "input 'x' has no declared shape; give it a file" no_shape.onnx
expect "'not_npy.npy' is not a .npy file I can read" add.onnx --input x=not_npy.npy
expect "cannot open 'missing.npy'" add.onnx --input x=missing.npy
expect "--dim 'n=x': the value must be a non-negative integer" add.onnx --dim n=x
expect "--dim batch=...: no input has a dim named 'batch' (the inputs have no symbolic dims)" \
  add.onnx --dim batch=2
expect "--input 'bogus': expected NAME=FILE.npy, NAME=VALUE[,VALUE...], random, zeros or arange" add.onnx --input bogus
expect "cannot open" nonexistent.onnx
echo "$n bad-input cases"
exit $fail
