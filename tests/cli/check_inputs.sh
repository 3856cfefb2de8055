#!/usr/bin/env bash
# The numeric check of `optimize` with the ONNX test data as inputs (--input
# NAME=FILE.pb, serialized TensorProtos), so a model whose axes are an input
# is checked on real axes, not random ones. And a model whose output comes from
# a random op without a seed: the check says it does not compare it, instead
# of failing because two runs differ.
# Usage: check_inputs.sh CLI CORPUS_DIR   (exit 77 = skipped: no corpus)
set -u
cli=$1
corpus=${PASSLAB_CORPUS_DIR:-$2}
tests="$corpus/onnx-node-tests"
unsqueeze="$tests/test_unsqueeze_unsorted_axes"
bernoulli="$tests/test_bernoulli_expanded"
if [ ! -f "$unsqueeze/model.onnx" ] || [ ! -f "$bernoulli/model.onnx" ]; then
  echo "corpus node tests not found under $tests: skipped (set PASSLAB_CORPUS_DIR)"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$cli" optimize "$unsqueeze/model.onnx" -o "$dir/u.onnx" --check 1 \
  --input "x=$unsqueeze/test_data_set_0/input_0.pb" \
  --input "axes=$unsqueeze/test_data_set_0/input_1.pb" > "$dir/pb.log" 2>&1 ||
  { cat "$dir/pb.log"; fail "--input NAME=FILE.pb"; }
grep -q "outputs equal on 1 input sets" "$dir/pb.log" || { cat "$dir/pb.log"; fail "not checked"; }
# A .pb of the wrong element type is refused by name.
if "$cli" optimize "$unsqueeze/model.onnx" -o "$dir/u2.onnx" --check 1 \
  --input "x=$unsqueeze/test_data_set_0/input_1.pb" > "$dir/wrong.log" 2>&1; then
  fail "an int64 file accepted for a float input"
fi
grep -q "input 'x' is" "$dir/wrong.log" || { cat "$dir/wrong.log"; fail "no reason for the wrong type"; }

"$cli" optimize "$bernoulli/model.onnx" -o "$dir/b.onnx" --check 2 > "$dir/b.log" 2>&1 ||
  { cat "$dir/b.log"; fail "a model with an unseeded random op fails its check"; }
grep -q "does not compare the values of output 'y'" "$dir/b.log" || { cat "$dir/b.log"; fail "no note"; }
grep -q "no output values compared" "$dir/b.log" || { cat "$dir/b.log"; fail "reload line"; }
# --input-dir: the test data set's files, in the order of the graph inputs.
"$cli" optimize "$unsqueeze/model.onnx" -o "$dir/d.onnx" --check 1 \
  --input-dir "$unsqueeze/test_data_set_0" > "$dir/d.log" 2>&1 ||
  { cat "$dir/d.log"; fail "--input-dir"; }
grep -q "outputs equal on 1 input sets" "$dir/d.log" || { cat "$dir/d.log"; fail "not checked"; }
if "$cli" optimize "$unsqueeze/model.onnx" -o "$dir/d2.onnx" --check 1 --input-dir "$dir" \
  > "$dir/d2.log" 2>&1; then
  fail "--input-dir without input_0.pb accepted"
fi
grep -q "no .*input_0.pb for input 'x'" "$dir/d2.log" || { cat "$dir/d2.log"; fail "no reason"; }
echo "check inputs: ok"
