#!/usr/bin/env bash
# INT8 static quantization from the command line, as a user runs it on the
# MNIST classifier (opset 8): raise_opset brings it to 13 (exactly: the check
# compares equal), quantize_static calibrates on synthesized inputs or on a
# folder of input sets and stays within the accuracy budget; the saved file
# holds int8 weights. Calibration data with the wrong shape or dtype, or an
# empty folder, is refused naming the input and what the model expects, and
# nothing is written; a budget no setting meets is an error (optimize and
# precision -o), the model file untouched. NaN in the data is named by input
# and file; outputs all NaN on the check's data are over any budget.
# Usage: quantize_static.sh CLI CORPUS_DIR   (exit 77 = skipped: no corpus)
set -u
cli=$1
. "$(dirname "${BASH_SOURCE[0]}")/corpus_model.sh"
use_corpus_model "$2" mnist8_cntk.onnx
use_scratch_dir

# Synthesized calibration sets.
"$cli" optimize "$model" -o "$dir/int8.onnx" --passes raise_opset,quantize_static \
  > "$dir/synth.log" 2>&1 || { cat "$dir/synth.log"; fail "raise_opset,quantize_static"; }
grep -q "calibrating on 16 synthesized input sets" "$dir/synth.log" ||
  { cat "$dir/synth.log"; fail "no note on synthesized calibration data"; }
grep -q "opset 8 -> 13" "$dir/synth.log" || { cat "$dir/synth.log"; fail "no opset note"; }
grep -q "ops quantized to int8" "$dir/synth.log" || { cat "$dir/synth.log"; fail "no quantization note"; }
grep -q "within budget" "$dir/synth.log" || { cat "$dir/synth.log"; fail "not within budget"; }
"$cli" info "$dir/int8.onnx" > "$dir/info.log" 2>&1 || { cat "$dir/info.log"; fail "info on the result"; }
grep -q "QuantizeLinear" "$dir/info.log" || { cat "$dir/info.log"; fail "no QuantizeLinear"; }
grep -q "DequantizeLinear" "$dir/info.log" || { cat "$dir/info.log"; fail "no DequantizeLinear"; }

# A folder of input sets (.npy, written with the standard library only):
# write_sets ROOT COUNT DIM..., values uniform in [0, 255].
write_sets() {
  python3 - "$@" <<'PY'
import os, random, struct, sys
root, count, dims = sys.argv[1], int(sys.argv[2]), [int(d) for d in sys.argv[3:]]
n = 1
for d in dims:
    n *= d
for s in range(count):
    os.makedirs(f"{root}/set_{s}", exist_ok=True)
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % ", ".join(map(str, dims))
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(f"{root}/set_{s}/input_0.npy", "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        rnd = random.Random(s)
        f.write(struct.pack(f"<{n}f", *[rnd.uniform(0, 255) for _ in range(n)]))
PY
}
write_sets "$dir/calib" 4 1 1 28 28 || fail "writing calibration data"
"$cli" optimize "$model" -o "$dir/int8b.onnx" --passes raise_opset,quantize_static \
  --calibration-data "$dir/calib" --set quantize_static.method=entropy \
  > "$dir/data.log" 2>&1 || { cat "$dir/data.log"; fail "with --calibration-data"; }
grep -q "calibration: 4 input sets from" "$dir/data.log" || { cat "$dir/data.log"; fail "sets not read"; }
grep -q "calibrated on 4 input sets (entropy)" "$dir/data.log" || { cat "$dir/data.log"; fail "no entropy note"; }
# The lossy step's default check uses every calibration set (up to 16) and says so, without
# the warning; --check 2 uses fewer than the 4 calibration sets: said, with both counts and
# the way out.
grep -q "checked against the accuracy budget on 4 input sets" "$dir/data.log" ||
  { cat "$dir/data.log"; fail "the default check does not use the 4 calibration sets"; }
grep -q "check input: the first 4 calibration sets" "$dir/data.log" ||
  { cat "$dir/data.log"; fail "the default check does not say its input"; }
if grep -q "the calibration data has" "$dir/data.log"; then
  cat "$dir/data.log"; fail "warned with every calibration set checked"
fi
"$cli" optimize "$model" -o "$dir/int8c.onnx" --passes raise_opset,quantize_static --check 2 \
  --calibration-data "$dir/calib" > "$dir/few.log" 2>&1 || { cat "$dir/few.log"; fail "--check 2"; }
grep -q "warning: the accuracy budget is checked on 2 input sets, the calibration data has 4.*--check 4" \
  "$dir/few.log" || { cat "$dir/few.log"; fail "no warning for a check on fewer sets"; }

# Issue #25: a saved recipe records where calibration came from and a replay
# calibrates on the same: --calibration-sets 4 replays with 4 sets (not 16);
# --calibration-data given relative replays from another folder; the command
# line wins over the recipe (said); a recipe without the record (older) takes
# the defaults; an output on the recipe's data is refused.
"$cli" optimize "$model" -o "$dir/s4.onnx" --passes raise_opset,quantize_static \
  --calibration-sets 4 --save-recipe "$dir/s4.json" > "$dir/s4.log" 2>&1 ||
  { cat "$dir/s4.log"; fail "--calibration-sets 4 --save-recipe"; }
"$cli" optimize "$model" -o "$dir/s4r.onnx" --recipe "$dir/s4.json" > "$dir/s4r.log" 2>&1 ||
  { cat "$dir/s4r.log"; fail "replaying the --calibration-sets 4 recipe"; }
grep -q "calibrating on 4 synthesized input sets" "$dir/s4r.log" ||
  { cat "$dir/s4.json" "$dir/s4r.log"; fail "the replay did not calibrate on 4 sets"; }
"$cli" optimize "$model" -o "$dir/s2r.onnx" --recipe "$dir/s4.json" --calibration-sets 2 \
  > "$dir/s2r.log" 2>&1 || { cat "$dir/s2r.log"; fail "--recipe with --calibration-sets 2"; }
grep -q "calibrating on 2 synthesized input sets" "$dir/s2r.log" &&
  grep -q "note: the recipe calibrates on 4 synthesized input sets; --calibration-sets given here is used instead" \
    "$dir/s2r.log" || { cat "$dir/s2r.log"; fail "the command line did not win over the recipe, or silently"; }
(cd "$dir" && "$cli" optimize "$model" -o d.onnx --passes raise_opset,quantize_static \
  --calibration-data calib --set quantize_static.method=percentile --save-recipe d.json) \
  > "$dir/d.log" 2>&1 || { cat "$dir/d.log"; fail "--calibration-data calib --save-recipe"; }
(cd / && "$cli" optimize "$model" -o "$dir/dr.onnx" --recipe "$dir/d.json") > "$dir/dr.log" 2>&1 ||
  { cat "$dir/d.json" "$dir/dr.log"; fail "replaying the --calibration-data recipe from /"; }
grep -q "calibration: 4 input sets from $dir/calib" "$dir/dr.log" &&
  grep -q "calibrated on 4 input sets (percentile" "$dir/dr.log" ||
  { cat "$dir/d.json" "$dir/dr.log"; fail "the replay did not calibrate on the recipe's folder"; }
python3 - "$dir/s4.json" "$dir/old.json" <<'PY' || fail "writing the old recipe"
import json, sys
r = json.load(open(sys.argv[1]))
del r["calibration"]
json.dump(r, open(sys.argv[2], "w"))
PY
"$cli" optimize "$model" -o "$dir/old.onnx" --recipe "$dir/old.json" > "$dir/old.log" 2>&1 ||
  { cat "$dir/old.log"; fail "an old recipe without calibration"; }
grep -q "calibrating on 16 synthesized input sets" "$dir/old.log" || { cat "$dir/old.log"; fail "old recipe: not the default"; }
if "$cli" optimize "$model" -o "$dir/calib/set_0/input_0.pb" --recipe "$dir/d.json" > "$dir/on.log" 2>&1; then
  cat "$dir/on.log"; fail "an output on the recipe's calibration data was accepted"
fi
grep -q "the recipe's calibration data" "$dir/on.log" || { cat "$dir/on.log"; fail "no message for an output on the recipe's data"; }
[ ! -e "$dir/calib/set_0/input_0.pb" ] || fail "wrote into the recipe's calibration data"
# The recipe's folder is gone (moved, another machine): the error names the
# recipe and the folder and says how to override it; nothing is written; the
# override calibrates.
cp -r "$dir/calib" "$dir/gone"
"$cli" optimize "$model" -o "$dir/g.onnx" --passes raise_opset,quantize_static \
  --calibration-data "$dir/gone" --save-recipe "$dir/g.json" > "$dir/g.log" 2>&1 ||
  { cat "$dir/g.log"; fail "--calibration-data gone --save-recipe"; }
rm -rf "$dir/gone"
if "$cli" optimize "$model" -o "$dir/gr.onnx" --recipe "$dir/g.json" > "$dir/gr.log" 2>&1; then
  cat "$dir/gr.log"; fail "a recipe whose calibration folder is gone was replayed"
fi
grep -qF "error: the recipe $dir/g.json calibrates on the folder $dir/gone (recorded when it was saved)" \
  "$dir/gr.log" && grep -qF -- "--calibration-data DIR" "$dir/gr.log" &&
  grep -qF -- "--calibration-sets N" "$dir/gr.log" ||
  { cat "$dir/gr.log"; fail "the error does not name the recipe, its folder and the override"; }
[ ! -e "$dir/gr.onnx" ] || fail "a model was written without the recipe's calibration data"
"$cli" optimize "$model" -o "$dir/gr.onnx" --recipe "$dir/g.json" --calibration-data "$dir/calib" \
  > "$dir/gro.log" 2>&1 || { cat "$dir/gro.log"; fail "the override --calibration-data"; }
grep -q "calibration: 4 input sets from $dir/calib" "$dir/gro.log" ||
  { cat "$dir/gro.log"; fail "the override did not calibrate on its folder"; }

# Issue #25: ONNX Runtime's ActivationSymmetric / WeightSymmetric=False as
# quantize_static.activation_symmetric / weight_symmetric: within the budget,
# in the saved recipe and its replay; a value other than true/false refused.
"$cli" optimize "$model" -o "$dir/sym.onnx" --passes raise_opset,quantize_static \
  --set quantize_static.activation_symmetric=true --set quantize_static.weight_symmetric=false \
  --save-recipe "$dir/sym.json" > "$dir/sym.log" 2>&1 || { cat "$dir/sym.log"; fail "symmetric options"; }
grep -q "within budget" "$dir/sym.log" || { cat "$dir/sym.log"; fail "symmetric options: not within budget"; }
grep -q '"activation_symmetric": "true"' "$dir/sym.json" && grep -q '"weight_symmetric": "false"' "$dir/sym.json" ||
  { cat "$dir/sym.json"; fail "the recipe does not keep the symmetric options"; }
"$cli" optimize "$model" -o "$dir/symr.onnx" --recipe "$dir/sym.json" > "$dir/symr.log" 2>&1 ||
  { cat "$dir/symr.log"; fail "replaying the symmetric options"; }
cmp -s "$dir/sym.onnx" "$dir/symr.onnx" || fail "the replay of the symmetric options saved another model"
for bad in activation_symmetric=maybe weight_symmetric=sometimes; do
  if "$cli" optimize "$model" -o "$dir/badsym.onnx" --passes raise_opset,quantize_static \
      --set "quantize_static.$bad" > "$dir/badsym.log" 2>&1; then
    cat "$dir/badsym.log"; fail "--set quantize_static.$bad was accepted"
  fi
  grep -q "quantize_static.$bad" "$dir/badsym.log" && grep -q "${bad%%=*}" "$dir/badsym.log" ||
    { cat "$dir/badsym.log"; fail "the error does not name quantize_static.$bad"; }
  [ ! -e "$dir/badsym.onnx" ] || fail "a model was written with --set quantize_static.$bad"
done

# Wrong shapes: refused, naming the input and the expected type; nothing written.
write_sets "$dir/bad" 1 1 1 27 28 || fail "writing bad data"
if "$cli" optimize "$model" -o "$dir/bad.onnx" --passes raise_opset,quantize_static \
    --calibration-data "$dir/bad" > "$dir/bad.log" 2>&1; then
  cat "$dir/bad.log"; fail "wrong shapes were accepted"
fi
grep -q "input 'Input3' is float\[1,1,27,28\], the model expects float\[1,1,28,28\]" "$dir/bad.log" ||
  { cat "$dir/bad.log"; fail "the error does not name the input and the expected type"; }
[ ! -e "$dir/bad.onnx" ] || fail "a file was written after the error"

mkdir -p "$dir/empty"
if "$cli" optimize "$model" -o "$dir/empty.onnx" --passes raise_opset,quantize_static \
    --calibration-data "$dir/empty" > "$dir/empty.log" 2>&1; then
  cat "$dir/empty.log"; fail "an empty folder was accepted"
fi
grep -q "holds no input set" "$dir/empty.log" || { cat "$dir/empty.log"; fail "no message for the empty folder"; }
[ ! -e "$dir/empty.onnx" ] || fail "a file was written after the error"
# Issue #25, bad input, with the model overwritten on success (--in-place): a
# set of the wrong dtype (float64 .npy) is refused naming the file, the input
# and what the model expects; a budget no quantization meets is rolled back
# (exit 2) naming the output and the figure; the model file is untouched by
# both.
cp "$model" "$dir/inplace.onnx" || fail "copying the model"
mkdir -p "$dir/f64/set_0"
python3 - "$dir/f64/set_0/input_0.npy" <<'PY' || fail "writing float64 data"
import struct, sys
header = "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1, 28, 28), }"
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<784d", *([0.5] * 784)))
PY
if "$cli" optimize "$dir/inplace.onnx" --in-place --passes raise_opset,quantize_static \
    --calibration-data "$dir/f64" > "$dir/f64.log" 2>&1; then
  cat "$dir/f64.log"; fail "float64 calibration data was accepted"
fi
grep -qF "f64/set_0/input_0.npy: input 'Input3' is double[1,1,28,28], the model expects float[1,1,28,28]" \
  "$dir/f64.log" || { cat "$dir/f64.log"; fail "the error does not name the file, the input and the expected type"; }
cmp -s "$model" "$dir/inplace.onnx" || fail "the model was changed after the dtype error"
"$cli" optimize "$dir/inplace.onnx" --in-place --passes raise_opset,quantize_static \
  --calibration-data "$dir/calib" --budget-snr 200 > "$dir/over.log" 2>&1
rc=$?
[ "$rc" = 2 ] || { cat "$dir/over.log"; fail "an impossible budget exited $rc, not 2"; }
grep -qF "quantize_static is over the accuracy budget: output 'Plus214_Output_0': SNR" "$dir/over.log" &&
  grep -qF "is below 200 dB" "$dir/over.log" && grep -qF "the model was not saved" "$dir/over.log" ||
  { cat "$dir/over.log"; fail "the error does not name the output and the figure"; }
cmp -s "$model" "$dir/inplace.onnx" || fail "the model was changed by a step over the budget"
# Issue #25: NaN in the calibration data (every 4th pixel of every 4th row,
# so that each 5x5 window of the first convolution holds one) leaves an inner
# tensor without a finite value while the input has many: the error names
# that tensor, and the input and the file that hold the NaN; the model file is
# untouched.
mkdir -p "$dir/nan/set_0" "$dir/nan/set_1"
for s in 0 1; do
  python3 - "$dir/nan/set_$s/input_0.npy" <<'PY' || fail "writing NaN data"
import struct, sys
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 28, 28), }"
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<784f", *[float("nan") if (i // 28) % 4 == 0 and i % 4 == 0 else 100.0
                                   for i in range(784)]))
PY
done
if "$cli" optimize "$dir/inplace.onnx" --in-place --passes raise_opset,quantize_static \
    --calibration-data "$dir/nan" > "$dir/nan.log" 2>&1; then
  cat "$dir/nan.log"; fail "calibration data without a finite value of a tensor was accepted"
fi
grep -q "calibration saw no finite value of '" "$dir/nan.log" &&
  ! grep -q "no finite value of 'Input3'" "$dir/nan.log" &&
  grep -qF "the calibration data holds NaN or infinite values (input 'Input3' in $dir/nan/set_0/input_0.npy)" \
    "$dir/nan.log" || { cat "$dir/nan.log"; fail "the error does not name the input and the file with the NaN"; }
cmp -s "$model" "$dir/inplace.onnx" || fail "the model was changed after the NaN calibration error"
# One NaN pixel in the only calibration set: calibration keeps finite
# ranges, but the float model's outputs on it are all NaN (the int8 model's
# are numbers: QuantizeLinear makes NaN a number). Skipping the original's
# NaN compared nothing and said "within budget (cosine 1, SNR inf dB)"; now
# (core/pipeline/non_finite_pair.h) the exact raise_opset step says it
# compared no finite value, and quantize_static is over the budget naming the
# output and the 10 values that differ, exit 2, the model file untouched.
mkdir -p "$dir/nan1/set_0"
python3 - "$dir/nan1/set_0/input_0.npy" <<'PY' || fail "writing one NaN pixel"
import struct, sys
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 28, 28), }"
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<784f", *[float("nan") if i == 406 else 100.0 for i in range(784)]))
PY
"$cli" optimize "$dir/inplace.onnx" --in-place --passes raise_opset,quantize_static \
  --calibration-data "$dir/nan1" > "$dir/nan1.log" 2>&1
rc=$?
[ "$rc" = 2 ] || { cat "$dir/nan1.log"; fail "a check that compared no finite value exited $rc, not 2"; }
! grep -q "within budget" "$dir/nan1.log" &&
  grep -qF "quantize_static is over the accuracy budget: output 'Plus214_Output_0': " "$dir/nan1.log" &&
  grep -qF "10 values differ where the original's are NaN or infinite" "$dir/nan1.log" &&
  grep -qF "no finite value compared: all 10 values NaN or infinite in both" "$dir/nan1.log" ||
  { cat "$dir/nan1.log"; fail "a check on all-NaN outputs was not reported as comparing nothing"; }
cmp -s "$model" "$dir/inplace.onnx" || fail "the model was changed after the all-NaN check"
# Per-layer sensitivity and mixed precision for INT8: refused below opset 10
# with the way out; on the raised model it ranks its 2 convolutions (the MatMul reads a
# Reshape of its weight until constants are folded) on the folder's
# data and keeps the most sensitive in float32 until a tight budget holds.
if "$cli" precision "$model" --pass quantize_static > "$dir/p8.log" 2>&1; then
  cat "$dir/p8.log"; fail "precision ran quantize_static at opset 8"
fi
grep -q "raise it first" "$dir/p8.log" || { cat "$dir/p8.log"; fail "no way out named"; }
"$cli" optimize "$model" -o "$dir/raised.onnx" --passes raise_opset > /dev/null 2>&1 ||
  fail "raise_opset alone"
"$cli" precision "$dir/raised.onnx" --pass quantize_static --calibration-data "$dir/calib" \
  > "$dir/rank.log" 2>&1 || { cat "$dir/rank.log"; fail "precision --pass quantize_static"; }
grep -q "quantize_static: 2 nodes convert alone" "$dir/rank.log" ||
  { cat "$dir/rank.log"; fail "not 2 layers ranked"; }
# The full range on every host: 34 dB is a figure of the 8-bit weights (the
# default, reduce_range=auto, writes 7 bits on a CPU without VNNI).
"$cli" precision "$dir/raised.onnx" --pass quantize_static --calibration-data "$dir/calib" \
  --set quantize_static.reduce_range=false --budget-snr 34 -o "$dir/mixed.onnx" > "$dir/mixed.log" 2>&1
grep -q "mixed precision: 1 of 2 nodes kept in float32" "$dir/mixed.log" ||
  { cat "$dir/mixed.log"; fail "the most sensitive layer was not kept in float32"; }
[ -s "$dir/mixed.onnx" ] || fail "no mixed-precision model saved"
# A budget that no conversion meets (each layer alone gives ~33 dB): keeping
# every layer float32 is the model unchanged, not a result: exit 2, the
# error says why (the least sensitive layer alone over the budget), nothing
# saved. Before, the unchanged model was saved with exit 0.
"$cli" precision "$dir/raised.onnx" --pass quantize_static --calibration-data "$dir/calib" \
  --budget-snr 200 -o "$dir/none.onnx" > "$dir/none.log" 2>&1
rc=$?
[ "$rc" = 2 ] || { cat "$dir/none.log"; fail "precision -o with an impossible budget exited $rc, not 2"; }
grep -qF "error: the budget cannot be met: quantize_static holds it only with every node it converts kept in float32 (2 of 2); with only the least sensitive, Conv '" \
  "$dir/none.log" && grep -qF "is below 200 dB" "$dir/none.log" &&
  grep -qF "the model was not saved" "$dir/none.log" ||
  { cat "$dir/none.log"; fail "the error does not say why the budget cannot be met"; }
[ ! -e "$dir/none.onnx" ] || fail "precision -o saved a model no conversion of which meets the budget"
# Its recipe records the calibration folder; optimize --recipe calibrates on it.
"$cli" precision "$dir/raised.onnx" --pass quantize_static --calibration-data "$dir/calib" \
  --set quantize_static.reduce_range=false --budget-snr 34 -o "$dir/mixed2.onnx" \
  --save-recipe "$dir/mixed.json" > "$dir/mixed2.log" 2>&1 ||
  { cat "$dir/mixed2.log"; fail "precision --save-recipe"; }
"$cli" optimize "$dir/raised.onnx" -o "$dir/mixedr.onnx" --recipe "$dir/mixed.json" \
  > "$dir/mixedr.log" 2>&1 || { cat "$dir/mixed.json" "$dir/mixedr.log"; fail "replaying the precision recipe"; }
grep -q "calibration: 4 input sets from $dir/calib" "$dir/mixedr.log" ||
  { cat "$dir/mixed.json" "$dir/mixedr.log"; fail "the precision recipe's replay did not calibrate on its folder"; }
echo "quantize_static from the command line: ok"
