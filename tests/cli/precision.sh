#!/usr/bin/env bash
# A lossy pass from the command line, as a user runs it: convert_to_float16 on
# the MNIST classifier is checked against the accuracy budget without --check
# (lossy plans always are), reports its figures, and the saved file is checked
# again; its weights are float16. An impossible budget rolls the step back,
# names the output, the figure and the layer, exits 2 and writes nothing; a
# budget that means nothing is refused before any pass runs; the recipe keeps
# the budget and replays it; `precision` ranks the layers and keeps the most
# sensitive in float32 until a tighter budget holds.
# Usage: precision.sh CLI CORPUS_DIR   (exit 77 = skipped: no corpus)
set -u
cli=$1
. "$(dirname "${BASH_SOURCE[0]}")/corpus_model.sh"
use_corpus_model "$2" mnist8_cntk.onnx
use_scratch_dir

"$cli" optimize "$model" -o "$dir/fp16.onnx" --passes convert_to_float16 \
  --save-recipe "$dir/r.json" > "$dir/ok.log" 2>&1 || { cat "$dir/ok.log"; fail "convert_to_float16"; }
grep -q "the plan has a lossy pass" "$dir/ok.log" || { cat "$dir/ok.log"; fail "no note on the check"; }
grep -q "within budget ('Plus214_Output_0': cosine" "$dir/ok.log" || { cat "$dir/ok.log"; fail "no figures"; }
grep -q "outputs within the accuracy budget on 2 input sets" "$dir/ok.log" ||
  { cat "$dir/ok.log"; fail "the saved file was not checked against the budget"; }
# The weights are stored in half: the same parameters in half the bytes.
"$cli" info "$model" > "$dir/info32.log" 2>&1 || fail "info on the model"
"$cli" info "$dir/fp16.onnx" > "$dir/info16.log" 2>&1 || { cat "$dir/info16.log"; fail "info on the result"; }
p32=$(sed -n 's/^parameters: *\([0-9,]*\) (\([0-9.]*\) KiB.*/\1 \2/p' "$dir/info32.log")
p16=$(sed -n 's/^parameters: *\([0-9,]*\) (\([0-9.]*\) KiB.*/\1 \2/p' "$dir/info16.log")
[ -n "$p32" ] && [ -n "$p16" ] || { cat "$dir/info16.log"; fail "no parameter line"; }
[ "${p32% *}" = "${p16% *}" ] || fail "parameter counts differ: $p32 vs $p16"
python3 -c "import sys; a, b = float('${p32#* }'), float('${p16#* }'); sys.exit(0 if abs(b - a / 2) < 0.2 else 1)" ||
  fail "the weights are not stored in half: $p32 vs $p16 KiB"
python3 - "$dir/r.json" <<'PY' || exit 1
import json, sys
b = json.load(open(sys.argv[1])).get("accuracy_budget")
if not b or b.get("min_snr_db") != 20 or b.get("min_cosine") != 0.99:
    sys.exit("FAIL: the recipe does not keep the budget: %s" % b)
PY

# Over budget: rolled back, named, nothing written.
if "$cli" optimize "$model" -o "$dir/over.onnx" --passes convert_to_float16 --budget-snr 200 \
  > "$dir/over.log" 2>&1; then
  cat "$dir/over.log"; fail "an impossible budget was accepted"
fi
for want in "ROLLED BACK" "over the accuracy budget: output 'Plus214_Output_0': SNR" \
  "the layer that lost the most:" "the model was not saved"; do
  grep -qF -- "$want" "$dir/over.log" || { cat "$dir/over.log"; fail "no '$want'"; }
done
[ ! -e "$dir/over.onnx" ] || fail "a model over budget was written"

# A budget that means nothing: refused before any pass.
if "$cli" optimize "$model" -o "$dir/bad.onnx" --passes convert_to_float16 --budget-top1 1.5 \
  > "$dir/bad.log" 2>&1; then
  cat "$dir/bad.log"; fail "top-1 1.5 was accepted"
fi
grep -qF "accuracy budget: top-1 agreement 1.5 is outside [0, 1]" "$dir/bad.log" ||
  { cat "$dir/bad.log"; fail "no message naming the bad budget"; }
[ ! -e "$dir/bad.onnx" ] || fail "a model was written with a bad budget"

# The recipe replays with its budget.
"$cli" optimize "$model" -o "$dir/replay.onnx" --recipe "$dir/r.json" > "$dir/replay.log" 2>&1 ||
  { cat "$dir/replay.log"; fail "replaying the recipe"; }
grep -q "within budget" "$dir/replay.log" || { cat "$dir/replay.log"; fail "the replay was not checked"; }
# Per-layer sensitivity and mixed precision: a budget the full conversion
# misses (62 dB; it gives ~60) keeps the most sensitive layers, and the saved
# recipe replays it within that budget.
"$cli" precision "$model" -o "$dir/mixed.onnx" --budget-snr 62 --save-recipe "$dir/mixed.json" \
  > "$dir/mixed.log" 2>&1 || { cat "$dir/mixed.log"; fail "precision -o"; }
grep -q "most sensitive first" "$dir/mixed.log" || { cat "$dir/mixed.log"; fail "no ranking"; }
kept=$(sed -n 's/^mixed precision: \([0-9]*\) of \([0-9]*\) nodes kept.*/\1/p' "$dir/mixed.log")
[ -n "$kept" ] && [ "$kept" -ge 1 ] || { cat "$dir/mixed.log"; fail "nothing kept for a budget the full conversion misses"; }
"$cli" optimize "$model" -o "$dir/mixed2.onnx" --recipe "$dir/mixed.json" > "$dir/mixed2.log" 2>&1 ||
  { cat "$dir/mixed2.log"; fail "replaying the mixed-precision recipe"; }
grep -q "within budget" "$dir/mixed2.log" || { cat "$dir/mixed2.log"; fail "the replay is not within budget"; }
# Low rank chosen by the budget (GPT-2's Gemm weights; mnist's MatMul weight
# is a graph input): a row per layer with its rank, the weights and latency
# before and after, and a recipe that replays within the budget.
gpt2="$corpus/models/ort_gpt2_past.onnx"
"$cli" precision "$gpt2" --pass factorize_low_rank -o "$dir/lr.onnx" --save-recipe "$dir/lr.json" \
  > "$dir/lr.log" 2>&1 || { cat "$dir/lr.log"; fail "precision --pass factorize_low_rank"; }
grep -q "the smallest rank each holds the budget" "$dir/lr.log" || { cat "$dir/lr.log"; fail "no rank table"; }
grep -q "^MatMul\|^Gemm" "$dir/lr.log" || { cat "$dir/lr.log"; fail "no layer row"; }
grep -q "weights in these layers" "$dir/lr.log" || { cat "$dir/lr.log"; fail "no weights before and after"; }
grep -q "^latency (1 thread" "$dir/lr.log" || { cat "$dir/lr.log"; fail "no latency"; }
grep -q "ms alone" "$dir/lr.log" || { cat "$dir/lr.log"; fail "no latency per layer"; }
# ultraface lists its weights (1x1 Convs among them) as graph inputs: none is
# taken, and the output says what makes them constants.
"$cli" precision "$corpus/models/ultraface_rfb_320.onnx" --pass factorize_low_rank \
  > "$dir/lr_uf.log" 2>&1 || { cat "$dir/lr_uf.log"; fail "precision --pass factorize_low_rank (ultraface)"; }
grep -q "weights are also graph inputs (overridable).*freeze_initializer_inputs" "$dir/lr_uf.log" ||
  { cat "$dir/lr_uf.log"; fail "no note on weights that are graph inputs"; }
"$cli" optimize "$gpt2" -o "$dir/lr2.onnx" --recipe "$dir/lr.json" > "$dir/lr2.log" 2>&1 ||
  { cat "$dir/lr2.log"; fail "replaying the low-rank recipe"; }
# A latency margin that is not a finite share above -1 is refused before any
# work (nan switched the latency check off, -1 called every layer slower).
for m in nan inf -1 -2.5 abc; do
  "$cli" precision "$gpt2" --pass factorize_low_rank --latency-margin "$m" > "$dir/lm.log" 2>&1 &&
    { cat "$dir/lm.log"; fail "--latency-margin $m accepted"; }
  grep -q "not a share above -1" "$dir/lm.log" || { cat "$dir/lm.log"; fail "--latency-margin $m: no reason"; }
done
# The sparsity report: one row per layer with weights, and the total.
"$cli" precision "$model" --sparsity > "$dir/sparsity.log" 2>&1 || { cat "$dir/sparsity.log"; fail "--sparsity"; }
grep -q "^Conv 'Convolution28'" "$dir/sparsity.log" || { cat "$dir/sparsity.log"; fail "no Conv row"; }
grep -q "^2 layers: 3400 weights" "$dir/sparsity.log" || { cat "$dir/sparsity.log"; fail "no total"; }
# Idle OpenMP threads sleep in `precision` (app/cli/wait_policy.h): it starts
# itself again with OMP_WAIT_POLICY=PASSIVE, which libgomp shows as a spin
# count of 0; other commands, and a policy the user set, are left alone.
spins() { grep -c "GOMP_SPINCOUNT = '0'" "$1"; }
OMP_DISPLAY_ENV=verbose "$cli" precision "$model" --sparsity > "$dir/wait.log" 2>&1 ||
  { cat "$dir/wait.log"; fail "precision under OMP_DISPLAY_ENV"; }
[ "$(spins "$dir/wait.log")" = 1 ] || { cat "$dir/wait.log"; fail "precision: idle threads still spin"; }
grep -q "^2 layers: 3400 weights" "$dir/wait.log" || { cat "$dir/wait.log"; fail "precision started again lost its output"; }
OMP_DISPLAY_ENV=verbose OMP_WAIT_POLICY=ACTIVE "$cli" precision "$model" --sparsity > "$dir/wait.log" 2>&1 ||
  fail "precision with OMP_WAIT_POLICY=ACTIVE"
[ "$(spins "$dir/wait.log")" = 0 ] || { cat "$dir/wait.log"; fail "precision overrode OMP_WAIT_POLICY=ACTIVE"; }
OMP_DISPLAY_ENV=verbose "$cli" info "$model" > "$dir/wait.log" 2>&1 || fail "info under OMP_DISPLAY_ENV"
[ "$(spins "$dir/wait.log")" = 0 ] || { cat "$dir/wait.log"; fail "info: the wait policy changed"; }
echo "ok"
