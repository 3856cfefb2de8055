#!/usr/bin/env bash
# Issue #25, what a quantization user expects of the CLI:
# - quantize_dynamic takes weights held in Constant nodes (paddle2onnx writes
#   every weight so) as it takes initializers: a small MLP and the corpus's
#   PaddleOCR classifier are quantized, not "no change";
# - a lossy precision pass named in --passes that changes nothing (nothing it
#   converts, or skipped) is an error on stderr, exit 4, nothing written; a
#   structural pass that changes nothing is not;
# - `precision --exclude-node NAME / --exclude-op OP` keeps those nodes float32
#   (not trialled, not converted, excluded in the recipe); a name the model
#   lacks is refused with a clear message and nothing written; `--set` gives
#   the pass's options as optimize's does; optimize takes --exclude-op too.
# Usage: precision_options.sh CLI TEXT_TO_ONNX CORPUS_DIR
set -u
cli=$1
text_to_onnx=$2
corpus=${PASSLAB_CORPUS_DIR:-${3:-}}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# ops FILE: "MatMul=1 MatMulInteger=0 ..." counts from `info`.
count() { sed -n "s/^  $2  *\([0-9]*\) .*/\1/p" "$1"; }

cat > "$dir/mlp.txt" <<'TXT'
<ir_version: 8, opset_import: ["" : 13]>
main (float[2,8] x) => (float[2,3] y)
    <float[4,3] w2 = {0.2, -0.1, 0.3, 0.1, -0.2, 0.4, -0.3, 0.2, 0.1, 0.4, 0.1, -0.1},
     float[3] c = {0.1, -0.2, 0.3}> {
    w1 = Constant <value = float[8,4] {0.3, -0.2, 0.1, 0.5, -0.4, 0.2, 0.3, -0.1,
                                       0.2, 0.1, -0.3, 0.4, 0.1, 0.5, -0.2, 0.3,
                                       -0.1, 0.3, 0.2, -0.5, 0.4, -0.3, 0.1, 0.2,
                                       0.2, 0.1, 0.4, -0.2, -0.3, 0.2, -0.1, 0.1}> ()
    [mm1] h = MatMul(x, w1)
    [act] r = Relu(h)
    [fc] y = Gemm(r, w2, c) }
TXT
"$text_to_onnx" "$dir/mlp.txt" "$dir/mlp.onnx" || fail "cannot write the MLP"

# 1. The Constant-node weight is quantized with the initializer one.
"$cli" optimize "$dir/mlp.onnx" -o "$dir/q.onnx" --passes quantize_dynamic > "$dir/q.log" 2>&1 ||
  { cat "$dir/q.log"; fail "quantize_dynamic on the MLP"; }
grep -q "2 MatMul/Gemm and 0 Conv weights in int8" "$dir/q.log" ||
  { cat "$dir/q.log"; fail "not both weights quantized"; }
"$cli" info "$dir/q.onnx" > "$dir/q.info" 2>&1 || { cat "$dir/q.info"; fail "info on the result"; }
[ "$(count "$dir/q.info" MatMulInteger)" = 2 ] || { cat "$dir/q.info"; fail "not 2 MatMulInteger"; }
[ -z "$(count "$dir/q.info" MatMul)" ] || { cat "$dir/q.info"; fail "a float MatMul is left"; }
[ -z "$(count "$dir/q.info" Constant)" ] || { cat "$dir/q.info"; fail "the float Constant is left"; }

# 2. A lossy pass named in --passes that changes nothing: exit 4, said on
# stderr, nothing written.
"$cli" optimize "$dir/mlp.onnx" -o "$dir/none.onnx" --passes quantize_dynamic \
  --set quantize_dynamic.op_types=Conv > "$dir/none.out" 2> "$dir/none.err"
rc=$?
[ $rc -eq 4 ] || { cat "$dir/none.out" "$dir/none.err"; fail "exit $rc for a lossy pass that changed nothing"; }
grep -q "error: quantize_dynamic, named in --passes, changed nothing: no node of the model is one it converts" \
  "$dir/none.err" || { cat "$dir/none.err"; fail "no message on stderr"; }
grep -q "the model was not saved" "$dir/none.err" || { cat "$dir/none.err"; fail "no 'not saved'"; }
[ ! -e "$dir/none.onnx" ] || fail "a model was written though the named pass changed nothing"
# With --report and --save-recipe: the report of the refused run is written and
# the message says where; no recipe (it would replay a run that failed).
"$cli" optimize "$dir/mlp.onnx" -o "$dir/none.onnx" --passes quantize_dynamic \
  --set quantize_dynamic.op_types=Conv --report "$dir/none.report.json" \
  --save-recipe "$dir/none.recipe.json" > "$dir/none.out" 2> "$dir/none.err"
rc=$?
[ $rc -eq 4 ] || { cat "$dir/none.out" "$dir/none.err"; fail "exit $rc with --report, --save-recipe"; }
[ ! -e "$dir/none.recipe.json" ] || fail "exit 4 wrote a recipe"
[ ! -e "$dir/none.onnx" ] || fail "exit 4 wrote a model"
grep -q '"steps"' "$dir/none.report.json" || fail "exit 4 wrote no report"
grep -q "the model was not saved, nor the recipe (it would replay a failed run); the report of the run is in $dir/none.report.json" \
  "$dir/none.err" || { cat "$dir/none.err"; fail "exit 4: the message does not say what was written"; }
# Exit 2 (over the budget) the same.
"$cli" optimize "$dir/mlp.onnx" -o "$dir/over.onnx" --passes quantize_dynamic --budget-snr 200 \
  --report "$dir/over.report.json" --save-recipe "$dir/over.recipe.json" > "$dir/over.out" 2> "$dir/over.err"
rc=$?
[ $rc -eq 2 ] || { cat "$dir/over.out" "$dir/over.err"; fail "exit $rc over the budget"; }
[ ! -e "$dir/over.recipe.json" ] || fail "exit 2 wrote a recipe"
[ ! -e "$dir/over.onnx" ] || fail "exit 2 wrote a model"
grep -q '"steps"' "$dir/over.report.json" || fail "exit 2 wrote no report"
grep -q "the model was not saved, nor the recipe (it would replay a failed run); the report of the run is in $dir/over.report.json" \
  "$dir/over.err" || { cat "$dir/over.err"; fail "exit 2: the message does not say what was written"; }
# A run that saves the model saves its recipe.
"$cli" optimize "$dir/mlp.onnx" -o "$dir/ok.onnx" --passes quantize_dynamic \
  --save-recipe "$dir/ok.recipe.json" > "$dir/ok.out" 2>&1 || { cat "$dir/ok.out"; fail "quantize_dynamic with --save-recipe"; }
[ -e "$dir/ok.recipe.json" ] || fail "a saved run wrote no recipe"
# Skipped (quantize_dynamic needs opset 11): the same, with the reason.
sed 's/"" : 13/"" : 10/' "$dir/mlp.txt" > "$dir/old.txt"
"$text_to_onnx" "$dir/old.txt" "$dir/old.onnx" || fail "cannot write the opset-10 MLP"
"$cli" optimize "$dir/old.onnx" -o "$dir/old.out.onnx" --passes quantize_dynamic \
  > "$dir/old.out" 2> "$dir/old.err"
rc=$?
[ $rc -eq 4 ] || { cat "$dir/old.out" "$dir/old.err"; fail "exit $rc for a skipped lossy pass"; }
grep -q "error: quantize_dynamic, named in --passes, changed nothing: skipped: written for opsets 11-" "$dir/old.err" ||
  { cat "$dir/old.err"; fail "no reason for the skip"; }
[ ! -e "$dir/old.out.onnx" ] || fail "a model was written though the named pass was skipped"
# optimize --exclude-op: the Gemm stays float32, the MatMul is quantized; an op
# type the model lacks is refused, nothing written.
"$cli" optimize "$dir/mlp.onnx" -o "$dir/xg.onnx" --passes quantize_dynamic --exclude-op Gemm \
  > "$dir/xg.log" 2>&1 || { cat "$dir/xg.log"; fail "optimize --exclude-op Gemm"; }
"$cli" info "$dir/xg.onnx" > "$dir/xg.info" 2>&1
[ "$(count "$dir/xg.info" Gemm)" = 1 ] && [ "$(count "$dir/xg.info" MatMulInteger)" = 1 ] ||
  { cat "$dir/xg.info"; fail "--exclude-op Gemm: not the MatMul alone quantized"; }
"$cli" optimize "$dir/mlp.onnx" -o "$dir/xc.onnx" --passes quantize_dynamic --exclude-op Conv \
  > "$dir/xc.log" 2>&1
rc=$?
[ $rc -eq 1 ] || { cat "$dir/xc.log"; fail "exit $rc for --exclude-op of an op the model lacks"; }
grep -q "error: --exclude-op: the model has no Conv node" "$dir/xc.log" || { cat "$dir/xc.log"; fail "no message"; }
[ ! -e "$dir/xc.onnx" ] || fail "a model was written with a bad --exclude-op"
# A structural pass that finds nothing still saves (exit 0).
"$cli" optimize "$dir/mlp.onnx" -o "$dir/s.onnx" --passes fuse_conv_batchnorm > "$dir/s.log" 2>&1 ||
  { cat "$dir/s.log"; fail "a structural pass without a match failed"; }

# 3. precision --exclude-node / --exclude-op.
"$cli" precision "$dir/mlp.onnx" --pass quantize_dynamic --exclude-node mm1 -o "$dir/ex.onnx" \
  --save-recipe "$dir/ex.json" > "$dir/ex.log" 2>&1 || { cat "$dir/ex.log"; fail "--exclude-node mm1"; }
grep -q "^excluded: 1 nodes stay float32" "$dir/ex.log" || { cat "$dir/ex.log"; fail "no exclusion line"; }
grep -q "quantize_dynamic: 1 nodes convert alone" "$dir/ex.log" || { cat "$dir/ex.log"; fail "mm1 was trialled"; }
grep -q "MatMul 'mm1'" "$dir/ex.log" && { cat "$dir/ex.log"; fail "mm1 is in the ranking"; }
"$cli" info "$dir/ex.onnx" > "$dir/ex.info" 2>&1 || { cat "$dir/ex.info"; fail "info on the result"; }
[ "$(count "$dir/ex.info" MatMul)" = 1 ] || { cat "$dir/ex.info"; fail "mm1 was converted"; }
[ "$(count "$dir/ex.info" MatMulInteger)" = 1 ] || { cat "$dir/ex.info"; fail "fc was not converted"; }
grep -q '"excluded_nodes"' "$dir/ex.json" || { cat "$dir/ex.json"; fail "the recipe does not exclude mm1"; }
"$cli" optimize "$dir/mlp.onnx" -o "$dir/ex2.onnx" --recipe "$dir/ex.json" > "$dir/ex2.log" 2>&1 ||
  { cat "$dir/ex2.log"; fail "replaying the recipe"; }
"$cli" info "$dir/ex2.onnx" > "$dir/ex2.info" 2>&1
[ "$(count "$dir/ex2.info" MatMul)" = 1 ] || { cat "$dir/ex2.info"; fail "the replay converted mm1"; }
# By op type.
"$cli" precision "$dir/mlp.onnx" --pass quantize_dynamic --exclude-op Gemm > "$dir/op.log" 2>&1 ||
  { cat "$dir/op.log"; fail "--exclude-op Gemm"; }
grep -q "quantize_dynamic: 1 nodes convert alone" "$dir/op.log" || { cat "$dir/op.log"; fail "Gemm trialled"; }
grep -q "Gemm 'fc'" "$dir/op.log" && { cat "$dir/op.log"; fail "fc is in the ranking"; }
# Everything excluded: nothing converts, exit 4, nothing written.
"$cli" precision "$dir/mlp.onnx" --pass quantize_dynamic --exclude-op Gemm --exclude-node mm1 \
  -o "$dir/all.onnx" > "$dir/all.out" 2> "$dir/all.err"
rc=$?
[ $rc -eq 4 ] || { cat "$dir/all.out" "$dir/all.err"; fail "exit $rc with every node excluded"; }
grep -q "converts no node of this model outside the exclusions" "$dir/all.err" ||
  { cat "$dir/all.err"; fail "no message with every node excluded"; }
[ ! -e "$dir/all.onnx" ] || fail "a model was written with every node excluded"
# A name the model lacks: refused, nothing written.
for bad in "--exclude-node nope" "--exclude-op Conv" "--set quantize_dynamic.per_channel=maybe" \
  "--set convert_to_float16.keep_io_types=true" "--set quantize_dynamic.nope=1"; do
  # shellcheck disable=SC2086
  "$cli" precision "$dir/mlp.onnx" --pass quantize_dynamic $bad -o "$dir/bad.onnx" \
    > "$dir/bad.out" 2> "$dir/bad.err"
  rc=$?
  [ $rc -eq 1 ] || { cat "$dir/bad.out" "$dir/bad.err"; fail "exit $rc for $bad"; }
  grep -q "^error: --" "$dir/bad.err" || { cat "$dir/bad.err"; fail "no message naming the option for $bad"; }
  [ ! -e "$dir/bad.onnx" ] || fail "a model was written with $bad"
done
grep -q "no node named 'nope'" <("$cli" precision "$dir/mlp.onnx" --pass quantize_dynamic \
  --exclude-node nope 2>&1) || fail "the missing node is not named"
# --set reaches the trials and the saved model: per tensor, one weight scale.
"$cli" precision "$dir/mlp.onnx" --pass quantize_dynamic --set quantize_dynamic.per_channel=false \
  -o "$dir/pt.onnx" --save-recipe "$dir/pt.json" > "$dir/pt.log" 2>&1 || { cat "$dir/pt.log"; fail "--set"; }
grep -q '"per_channel": *"false"' "$dir/pt.json" || { cat "$dir/pt.json"; fail "the recipe lacks the option"; }

# 4. The corpus's PaddleOCR classifier (weights in Constant nodes).
model="$corpus/models/ppocr_cls_mobile_v2.onnx"
if [ -f "$model" ]; then
  "$cli" optimize "$model" -o "$dir/pp.onnx" --passes quantize_dynamic --budget-snr 0 \
    --budget-cosine 0 > "$dir/pp.log" 2>&1 || { cat "$dir/pp.log"; fail "quantize_dynamic on ppocr"; }
  grep -q "1 MatMul/Gemm and 53 Conv weights in int8" "$dir/pp.log" ||
    { cat "$dir/pp.log"; fail "ppocr's weights were not quantized"; }
else
  echo "corpus model not found at $model: its part skipped"
fi
echo "ok"
