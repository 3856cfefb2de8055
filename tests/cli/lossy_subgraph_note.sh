#!/usr/bin/env bash
# Issue #25: a lossy precision pass named in --passes that changes nothing
# because the nodes it would convert are inside If/Loop/Scan bodies it does
# not enter says so on its "changed nothing" error line: the step's note with
# the count of nodes left inside subgraphs (before, the line said "no node of
# the model is one it converts", which is wrong for such a model). Exit 4 and
# nothing written, as for any named lossy pass that changes nothing. And
# `passes` lists what each level runs: the fused level ends with the
# channels-last int8 passes, fused_gpu leaves them out.
# Usage: lossy_subgraph_note.sh CLI TEXT_TO_ONNX
set -u
cli=$1
text_to_onnx=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Both If branches hold a MatMul whose weight is a main-graph constant; the
# main graph itself has no MatMul.
cat > "$dir/if.txt" <<'TXT'
<ir_version: 8, opset_import: ["" : 13]>
main (bool[1] c, float[2,4] x) => (float[2,3] y)
    <float[4,3] w = {0.5, -1.0, 2.0, 0.25, 1.5, -0.75, 1.0, 0.5, -2.0, 0.125, 3.0, -1.25}> {
  y = If <then_branch = g1 () => (float[2,3] a) { a = MatMul(x, w) },
          else_branch = g2 () => (float[2,3] b) { b2 = MatMul(x, w)
                                                  b = Neg(b2) }> (c)
}
TXT
"$text_to_onnx" "$dir/if.txt" "$dir/if.onnx" || fail "cannot write the If model"

# expect PASS [--set ...]: exit 4, nothing written, the error line carries the
# subgraph count.
expect() {
  local pass=$1
  shift
  "$cli" optimize "$dir/if.onnx" -o "$dir/out.onnx" --passes "$pass" "$@" \
    > "$dir/$pass.out" 2> "$dir/$pass.err"
  local rc=$?
  [ $rc -eq 4 ] || { cat "$dir/$pass.out" "$dir/$pass.err"; fail "$pass: exit $rc, not 4"; }
  [ ! -e "$dir/out.onnx" ] || fail "$pass: a model was written though it changed nothing"
  local line
  line=$(grep "^error: $pass, named in --passes, changed nothing: " "$dir/$pass.err") ||
    { cat "$dir/$pass.err"; fail "$pass: no 'changed nothing' line"; }
  echo "$line" | grep -q "no node of the main graph converted" ||
    { echo "$line"; fail "$pass: the line does not say the main graph has nothing"; }
  echo "$line" | grep -q "2 .*inside subgraphs" ||
    { echo "$line"; fail "$pass: the line does not count the 2 MatMuls inside subgraphs"; }
  echo "$line" | grep -q "no node of the model is one it converts" &&
    { echo "$line"; fail "$pass: the line still says the model has no node it converts"; }
  return 0
}
expect quantize_static --set quantize_static.subgraphs=false
expect prune_magnitude
expect factorize_low_rank
expect quantize_dynamic --set quantize_dynamic.subgraphs=false
expect convert_to_float16 --set convert_to_float16.subgraphs=false

# A model without subgraphs and nothing to convert keeps the old reason.
cat > "$dir/relu.txt" <<'TXT'
<ir_version: 8, opset_import: ["" : 13]>
main (float[2,4] x) => (float[2,4] y) {
  y = Relu(x)
}
TXT
"$text_to_onnx" "$dir/relu.txt" "$dir/relu.onnx" || fail "cannot write the Relu model"
"$cli" optimize "$dir/relu.onnx" -o "$dir/out.onnx" --passes quantize_static \
  > "$dir/relu.out" 2> "$dir/relu.err"
rc=$?
[ $rc -eq 4 ] || { cat "$dir/relu.out" "$dir/relu.err"; fail "Relu model: exit $rc, not 4"; }
grep -q "changed nothing: no node of the model is one it converts" "$dir/relu.err" ||
  { cat "$dir/relu.err"; fail "Relu model: not the plain reason"; }

# `passes` lists each level's passes in order.
"$cli" passes > "$dir/passes.out" || fail "passes exited non-zero"
fused=$(grep "^  fused (" "$dir/passes.out") || { cat "$dir/passes.out"; fail "no fused level line"; }
gpu=$(grep "^  fused_gpu (" "$dir/passes.out") || { cat "$dir/passes.out"; fail "no fused_gpu level line"; }
basic=$(grep "^  basic (" "$dir/passes.out") || { cat "$dir/passes.out"; fail "no basic level line"; }
echo "$fused" | grep -q "convert_to_blocked_layout, .*convert_int8_to_channels_last, fuse_qdq_squeeze_excite_exact, eliminate_identity_ops" ||
  { echo "$fused"; fail "the fused level does not run convert_int8_to_channels_last after the blocked layout, then the exact squeeze-excitation unit (its channels-last form)"; }
echo "$gpu" | grep -q "convert_int8_to_channels_last" && { echo "$gpu"; fail "fused_gpu runs the channels-last int8 pass"; }
echo "$basic" | grep -q "convert_int8_to_channels_last" && { echo "$basic"; fail "basic runs it"; }
echo "ok"
