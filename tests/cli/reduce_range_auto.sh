#!/usr/bin/env bash
# reduce_range=auto, quantize_static's and quantize_dynamic's default (issue
# #25; core/passes/reduce_range_option.h), as a user meets it on the MNIST
# classifier. Under PASSLAB_MAX_ISA=avx2 (a CPU without AVX-512 VNNI or
# AVX-VNNI) it writes 7-bit weights: the note says so, why and how to get the
# full range, and the INT8 file is not warned about at --level fused (every
# weight within [-64, 64]: the warning's own check, app/cli/int8_cpu_note.cpp);
# precision says the choice once before its trials.
# Uncapped on a CPU with VNNI it writes the full range, which the capped run
# then warns about. Over an impossible budget the error says what auto chose
# and names the option; a saved recipe holds what auto chose (true), so it
# replays to the same file on any CPU; a value
# other than auto/true/false is refused naming the option and its values, and
# nothing is written.
# Usage: reduce_range_auto.sh CLI CORPUS_DIR   (exit 77 = skipped: no corpus)
set -u
cli=$1
. "$(dirname "${BASH_SOURCE[0]}")/corpus_model.sh"
use_corpus_model "$2" mnist8_cntk.onnx
use_scratch_dir
# The caps are this script's own.
unset PASSLAB_MAX_ISA ONEDNN_MAX_CPU_ISA
warning="this CPU has no AVX-512 VNNI or AVX-VNNI"
seven="weights in 7 bits ([-64, 64], reduce_range=auto): this CPU (PASSLAB_MAX_ISA=avx2) has no AVX-512 VNNI or AVX-VNNI"

# Under the cap: 7 bits, said in the note; the fused INT8 file is not warned about.
PASSLAB_MAX_ISA=avx2 "$cli" optimize "$model" -o "$dir/q7.onnx" --passes raise_opset,quantize_static \
  --save-recipe "$dir/q7.json" > "$dir/q7.log" 2>&1 || { cat "$dir/q7.log"; fail "quantize_static under avx2"; }
grep -qF "$seven" "$dir/q7.log" || { cat "$dir/q7.log"; fail "the note does not say auto chose 7 bits"; }
grep -qF "reduce_range=false for the full range" "$dir/q7.log" ||
  { cat "$dir/q7.log"; fail "the note does not say how to get the full range"; }
grep -q "within budget" "$dir/q7.log" || { cat "$dir/q7.log"; fail "not within budget"; }
grep -q '"reduce_range": "true"' "$dir/q7.json" || { cat "$dir/q7.json"; fail "the recipe does not hold what auto chose"; }
# Replayed where auto would choose the full range (avx2vnni, or avx2 on a CPU
# without AVX-VNNI: then the check is weaker), the recipe still writes 7-bit
# weights: no note of auto's, and no INT8 warning for the file under avx2.
PASSLAB_MAX_ISA=avx2vnni "$cli" optimize "$model" -o "$dir/q7_replay.onnx" --recipe "$dir/q7.json" \
  > "$dir/q7_replay.log" 2>&1 || { cat "$dir/q7_replay.log"; fail "replaying the recipe"; }
if grep -q "reduce_range=auto" "$dir/q7_replay.log"; then
  cat "$dir/q7_replay.log"; fail "the replayed recipe chose by the CPU again"
fi
PASSLAB_MAX_ISA=avx2 "$cli" optimize "$dir/q7_replay.onnx" -o "$dir/q7_replay_fused.onnx" --level fused \
  > "$dir/q7_replay_fused.log" 2>&1 || { cat "$dir/q7_replay_fused.log"; fail "--level fused on the replay"; }
if grep -q "$warning" "$dir/q7_replay_fused.log"; then
  cat "$dir/q7_replay_fused.log"; fail "the replayed recipe wrote full-range weights"
fi

PASSLAB_MAX_ISA=avx2 "$cli" optimize "$dir/q7.onnx" -o "$dir/q7_fused.onnx" --level fused \
  > "$dir/q7_fused.log" 2>&1 || { cat "$dir/q7_fused.log"; fail "--level fused on the 7-bit file"; }
if grep -q "$warning" "$dir/q7_fused.log"; then
  cat "$dir/q7_fused.log"; fail "the file auto wrote under the cap was warned about"
fi
# quantize_dynamic likewise, given as auto (after --level default, as
# int8_cpu_warning.sh: the classifier's weights are then initializers).
"$cli" optimize "$model" -o "$dir/dyn_base.onnx" --level default > "$dir/dyn_base.log" 2>&1 ||
  { cat "$dir/dyn_base.log"; fail "--level default before quantize_dynamic"; }
PASSLAB_MAX_ISA=avx2 "$cli" optimize "$dir/dyn_base.onnx" -o "$dir/d7.onnx" --passes raise_opset,quantize_dynamic \
  --set quantize_dynamic.reduce_range=auto --save-recipe "$dir/d7.json" > "$dir/d7.log" 2>&1 ||
  { cat "$dir/d7.log"; fail "quantize_dynamic under avx2"; }
grep -qF "$seven" "$dir/d7.log" || { cat "$dir/d7.log"; fail "quantize_dynamic's note does not say 7 bits"; }
grep -q '"reduce_range": "true"' "$dir/d7.json" || { cat "$dir/d7.json"; fail "the recipe does not hold what auto chose"; }
if grep -q "$warning" "$dir/d7.log"; then
  cat "$dir/d7.log"; fail "the dynamic file auto wrote under the cap was warned about"
fi

# precision says the choice once, before its trials (whose notes it does not
# print), and its file has 7-bit weights too: not warned about.
"$cli" optimize "$model" -o "$dir/raised.onnx" --passes raise_opset > /dev/null 2>&1 ||
  fail "raise_opset alone"
PASSLAB_MAX_ISA=avx2 "$cli" precision "$dir/raised.onnx" --pass quantize_static -o "$dir/p7.onnx" \
  > "$dir/p7.log" 2>&1 || { cat "$dir/p7.log"; fail "precision under avx2"; }
[ "$(grep -cF "note: quantize_static: $seven" "$dir/p7.log")" = 1 ] ||
  { cat "$dir/p7.log"; fail "precision does not say once that auto chose 7 bits"; }
if grep -q "$warning" "$dir/p7.log"; then
  cat "$dir/p7.log"; fail "precision's file auto wrote under the cap was warned about"
fi
PASSLAB_MAX_ISA=avx2 "$cli" precision "$dir/raised.onnx" --pass quantize_static \
  --set quantize_static.reduce_range=false > "$dir/p8.log" 2>&1 || { cat "$dir/p8.log"; fail "precision, false"; }
grep -q "reduce_range=auto" "$dir/p8.log" && { cat "$dir/p8.log"; fail "a given reduce_range is said to be auto's"; }

# Uncapped on a CPU with AVX-512 VNNI or AVX-VNNI: the full range, which a
# capped run warns about.
if grep -qwE "avx512_vnni|avx_vnni" /proc/cpuinfo 2>/dev/null; then
  "$cli" optimize "$model" -o "$dir/q8.onnx" --passes raise_opset,quantize_static \
    > "$dir/q8.log" 2>&1 || { cat "$dir/q8.log"; fail "quantize_static uncapped"; }
  grep -qF "weights in the full int8 range (reduce_range=auto): this CPU has" "$dir/q8.log" ||
    { cat "$dir/q8.log"; fail "the note does not say auto chose the full range"; }
  grep -qF "reduce_range=true for 7 bits" "$dir/q8.log" ||
    { cat "$dir/q8.log"; fail "the note does not say how to get 7 bits"; }
  PASSLAB_MAX_ISA=avx2 "$cli" optimize "$dir/q8.onnx" -o "$dir/q8_fused.onnx" --level fused \
    > "$dir/q8_fused.log" 2>&1 || { cat "$dir/q8_fused.log"; fail "--level fused on the full-range file"; }
  [ "$(grep -c "$warning" "$dir/q8_fused.log")" = 1 ] ||
    { cat "$dir/q8_fused.log"; fail "the full-range file was not warned about under the cap"; }
else
  echo "no AVX-512 VNNI or AVX-VNNI here: the uncapped full-range case not run"
fi

# Over an impossible budget: the error says what auto chose and names the option.
PASSLAB_MAX_ISA=avx2 "$cli" optimize "$model" -o "$dir/over.onnx" --passes raise_opset,quantize_static \
  --budget-snr 200 > "$dir/over.log" 2>&1
rc=$?
[ "$rc" = 2 ] || { cat "$dir/over.log"; fail "an impossible budget exited $rc, not 2"; }
grep "^error: quantize_static is over the accuracy budget" "$dir/over.log" | grep -qF "$seven" ||
  { cat "$dir/over.log"; fail "the error does not say auto chose 7 bits"; }
grep "^error: " "$dir/over.log" | grep -qF "reduce_range=false for the full range" ||
  { cat "$dir/over.log"; fail "the error does not name the option"; }
[ -e "$dir/over.onnx" ] && fail "a model over the budget was saved"

# Another value: refused, naming the option and the values it takes.
"$cli" precision "$dir/raised.onnx" --pass quantize_static --set quantize_static.reduce_range=maybe \
  > "$dir/bad_precision.log" 2>&1
rc=$?
[ "$rc" = 1 ] || { cat "$dir/bad_precision.log"; fail "precision with reduce_range=maybe exited $rc, not 1"; }
grep -qF "error: quantize_static: option 'reduce_range' takes auto, true or false, not 'maybe'" \
  "$dir/bad_precision.log" || { cat "$dir/bad_precision.log"; fail "precision: no clear error for maybe"; }
for pass in quantize_static quantize_dynamic; do
  "$cli" optimize "$model" -o "$dir/bad.onnx" --passes raise_opset,$pass \
    --set $pass.reduce_range=maybe > "$dir/bad_$pass.log" 2>&1
  rc=$?
  [ "$rc" = 2 ] || { cat "$dir/bad_$pass.log"; fail "$pass: reduce_range=maybe exited $rc, not 2"; }
  grep -qF "error: $pass: option 'reduce_range' takes auto, true or false, not 'maybe'" \
    "$dir/bad_$pass.log" || { cat "$dir/bad_$pass.log"; fail "$pass: no clear error for maybe"; }
  [ -e "$dir/bad.onnx" ] && fail "$pass: a model was saved with reduce_range=maybe"
done
echo "reduce_range=auto: ok"
