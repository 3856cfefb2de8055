#!/usr/bin/env bash
# optimize's one-line warning that INT8 is slower than float32 on a CPU
# without exact int8 dot products (no AVX-512 VNNI or AVX-VNNI; app/cli/
# int8_cpu_note.h): PASSLAB_MAX_ISA=avx2 caps oneDNN below VNNI on any x86
# CPU, so saving the MNIST classifier's INT8 file (--level fused: QLinearConv)
# must print it once (recommending reduce_range), saving its reduce_range
# INT8 file must not, and saving its float32 file must not. A QLinearConv
# whose int8 weights are within [-64, 64] but whose weight zero point is not 0
# keeps the float32 sums, so it is warned about; with zero point 0 it is not.
# quantize_dynamic's file likewise: warned about without reduce_range only.
# int8 activations are warned about when no zero point says so (MatMulInteger,
# ConvInteger, QuantizeLinear with output_dtype int8).
# Usage: int8_cpu_warning.sh CLI CORPUS_DIR TEXT_TO_ONNX   (exit 77 = skipped: no corpus)
set -u
cli=$1
text_to_onnx=$3
. "$(dirname "${BASH_SOURCE[0]}")/corpus_model.sh"
use_corpus_model "$2" mnist8_cntk.onnx
use_scratch_dir
warning="this CPU has no AVX-512 VNNI or AVX-VNNI"

# The full range on every host (the default, auto, writes 7 bits on a CPU
# without VNNI: reduce_range_auto.sh).
"$cli" optimize "$model" -o "$dir/qdq.onnx" --passes raise_opset,quantize_static \
  --set quantize_static.reduce_range=false > "$dir/qdq.log" 2>&1 ||
  { cat "$dir/qdq.log"; fail "raise_opset,quantize_static"; }
PASSLAB_MAX_ISA=avx2 "$cli" optimize "$dir/qdq.onnx" -o "$dir/int8.onnx" --level fused \
  > "$dir/int8.log" 2>&1 || { cat "$dir/int8.log"; fail "--level fused on the INT8 file"; }
[ "$(grep -c "$warning" "$dir/int8.log")" = 1 ] ||
  { cat "$dir/int8.log"; fail "not one warning for the INT8 file under PASSLAB_MAX_ISA=avx2"; }
grep -q "reduce_range=true" "$dir/int8.log" ||
  { cat "$dir/int8.log"; fail "the warning does not recommend reduce_range"; }
# reduce_range (weights in [-64, 64], uint8 activations): oneDNN's int8
# kernels are exact there (core/exec/cpu/int8_dot_exactness.h), no warning.
"$cli" optimize "$model" -o "$dir/qdq_rr.onnx" --passes raise_opset,quantize_static \
  --set quantize_static.reduce_range=true > "$dir/qdq_rr.log" 2>&1 ||
  { cat "$dir/qdq_rr.log"; fail "raise_opset,quantize_static reduce_range"; }
PASSLAB_MAX_ISA=avx2 "$cli" optimize "$dir/qdq_rr.onnx" -o "$dir/int8_rr.onnx" --level fused \
  > "$dir/int8_rr.log" 2>&1 || { cat "$dir/int8_rr.log"; fail "--level fused on the reduce_range file"; }
if grep -q "$warning" "$dir/int8_rr.log"; then
  cat "$dir/int8_rr.log"; fail "the reduce_range INT8 file was warned about"
fi
PASSLAB_MAX_ISA=avx2 "$cli" optimize "$model" -o "$dir/f32.onnx" --level fused \
  > "$dir/f32.log" 2>&1 || { cat "$dir/f32.log"; fail "--level fused on the float32 model"; }
if grep -q "$warning" "$dir/f32.log"; then
  cat "$dir/f32.log"; fail "the float32 model was warned about"
fi
# The dynamic form (quantize_dynamic: DynamicQuantizeLinear -> ConvInteger /
# MatMulInteger, uint8 activations): with reduce_range its layers run on
# oneDNN's int8 kernels too (core/exec/cpu/narrow_signed_weights.h), no
# warning; with full-range weights they run the reference, one warning.
"$cli" optimize "$model" -o "$dir/dyn_base.onnx" --level default > "$dir/dyn_base.log" 2>&1 ||
  { cat "$dir/dyn_base.log"; fail "--level default before quantize_dynamic"; }
for rr in true false; do
  PASSLAB_MAX_ISA=avx2 "$cli" optimize "$dir/dyn_base.onnx" -o "$dir/dyn_$rr.onnx" \
    --passes raise_opset,quantize_dynamic --set quantize_dynamic.reduce_range=$rr \
    > "$dir/dyn_$rr.log" 2>&1 || { cat "$dir/dyn_$rr.log"; fail "quantize_dynamic reduce_range=$rr"; }
done
if grep -q "$warning" "$dir/dyn_true.log"; then
  cat "$dir/dyn_true.log"; fail "the reduce_range dynamic INT8 file was warned about"
fi
[ "$(grep -c "$warning" "$dir/dyn_false.log")" = 1 ] ||
  { cat "$dir/dyn_false.log"; fail "not one warning for the full-range dynamic INT8 file"; }
for zp in 3 0; do
  cat > "$dir/wz$zp.txt" <<EOF
<ir_version: 8, opset_import: ["" : 13]>
main (uint8[1,2,4,4] x) => (uint8[1,2,4,4] y)
<float xs = {0.5}, uint8 xz = {10}, int8[2,2,1,1] w = {2, -64, 64, 5}, float ws = {0.25},
 int8 wz = {$zp}, float ys = {1}, uint8 yz = {5}>
{
  y = QLinearConv(x, xs, xz, w, ws, wz, ys, yz)
}
EOF
  "$text_to_onnx" "$dir/wz$zp.txt" "$dir/wz$zp.onnx" || fail "cannot write the zero point $zp model"
  PASSLAB_MAX_ISA=avx2 "$cli" optimize "$dir/wz$zp.onnx" -o "$dir/wz${zp}_out.onnx" --level default \
    > "$dir/wz$zp.log" 2>&1 || { cat "$dir/wz$zp.log"; fail "--level default on the zero point $zp model"; }
done
[ "$(grep -c "$warning" "$dir/wz3.log")" = 1 ] ||
  { cat "$dir/wz3.log"; fail "a weight zero point of 3 (float32 sums) was not warned about"; }
if grep -q "$warning" "$dir/wz0.log"; then
  cat "$dir/wz0.log"; fail "narrow weights with zero point 0 were warned about"
fi
# int8 activations given without a zero point (ONNX: absent means 0 of the
# activation's own type): MatMulInteger and ConvInteger with int8 A / x and
# narrow int8 weights, and a QuantizeLinear whose output_dtype (opset 21) is
# int8, keep the float32 sums or the reference, so they are warned about; the
# same MatMulInteger and ConvInteger with uint8 activations are not.
for t in int8 uint8; do
  cat > "$dir/mm_$t.txt" <<EOF
<ir_version: 8, opset_import: ["" : 13]>
main ($t[2,4] a) => (int32[2,2] y)
<int8[4,2] b = {2, -64, 64, 5, 1, 0, -3, 7}>
{
  y = MatMulInteger(a, b)
}
EOF
  cat > "$dir/ci_$t.txt" <<EOF
<ir_version: 8, opset_import: ["" : 13]>
main ($t[1,2,4,4] x) => (int32[1,2,4,4] y)
<int8[2,2,1,1] w = {2, -64, 64, 5}>
{
  y = ConvInteger(x, w)
}
EOF
done
cat > "$dir/q_int8.txt" <<EOF
<ir_version: 9, opset_import: ["" : 21]>
main (float[2,4] x) => (float[2,4] y)
<float s = {0.5}>
{
  q = QuantizeLinear <output_dtype: int = 3> (x, s)
  y = DequantizeLinear(q, s)
}
EOF
for m in mm_int8 ci_int8 q_int8 mm_uint8 ci_uint8; do
  "$text_to_onnx" "$dir/$m.txt" "$dir/$m.onnx" || fail "cannot write the $m model"
  PASSLAB_MAX_ISA=avx2 "$cli" optimize "$dir/$m.onnx" -o "$dir/${m}_out.onnx" --level default \
    > "$dir/$m.log" 2>&1 || { cat "$dir/$m.log"; fail "--level default on the $m model"; }
done
for m in mm_int8 ci_int8 q_int8; do
  [ "$(grep -c "$warning" "$dir/$m.log")" = 1 ] ||
    { cat "$dir/$m.log"; fail "$m: int8 activations without a zero point were not warned about"; }
done
for m in mm_uint8 ci_uint8; do
  if grep -q "$warning" "$dir/$m.log"; then
    cat "$dir/$m.log"; fail "$m: uint8 activations and narrow weights were warned about"
  fi
done
echo "INT8 speed warning: ok"
