#!/usr/bin/env bash
# Issue #25: NaN or infinite values in the data a command reads are named
# with their input and file. run, profile: the "input:" line says how many
# values of a --input file are NaN or infinite; optimize --check: the "check
# input:" line names the file and counts them; quantize_static on
# calibration data where only some sets hold such values calibrates on the
# finite values and its step note says how many sets, which input and file,
# and how many values. Finite data carries none of these notes.
# Usage: non_finite_inputs.sh CLI TEXT_TO_ONNX
set -u
cli=$1
text_to_onnx=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$dir/mm.txt" <<'TXT'
<ir_version: 8, opset_import: ["" : 13]>
main (float[1,4] x) => (float[1,3] y)
    <float[4,3] w = {0.5, -1.0, 2.0, 0.25, 1.5, -0.75, 1.0, 0.5, -2.0, 0.125, 3.0, -1.25}> {
  y = MatMul(x, w)
}
TXT
"$text_to_onnx" "$dir/mm.txt" "$dir/mm.onnx" || fail "cannot write the model"

# npy FILE V1 V2 V3 V4: a float32 [1,4] .npy (each V the 4 bytes, little-endian).
npy() {
  local f=$1
  shift
  local hdr="{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4), }"
  local pad=$(((64 - (${#hdr} + 11) % 64) % 64))
  local n=$((${#hdr} + pad + 1))
  {
    printf '\x93NUMPY\x01\x00'
    printf "\\x$(printf %02x $((n & 255)))\\x$(printf %02x $((n >> 8)))"
    printf '%s%*s\n' "$hdr" $pad ''
    for v in "$@"; do printf "$v"; done
  } > "$f"
}
one='\x00\x00\x80\x3f'
two='\x00\x00\x00\x40'
nan='\x00\x00\xc0\x7f'
inf='\x00\x00\x80\x7f'
mkdir -p "$dir/cal/a" "$dir/cal/b"
npy "$dir/cal/a/input_0.npy" $one $two $one $two
npy "$dir/cal/b/input_0.npy" $nan $two $one $inf
finite=$dir/cal/a/input_0.npy
bad=$dir/cal/b/input_0.npy
counts="1 NaN and 1 infinite of its 4 values"

"$cli" run "$dir/mm.onnx" --input "x=$bad" > "$dir/run.out" 2>&1 ||
  { cat "$dir/run.out"; fail "run: exit $?"; }
grep -qxF "input:   x float[1,4] ($bad): $counts" "$dir/run.out" ||
  { cat "$dir/run.out"; fail "run: the input line does not count the NaN and infinity"; }
"$cli" run "$dir/mm.onnx" --input "x=$finite" > "$dir/run2.out" 2>&1 || fail "run (finite)"
grep -qxF "input:   x float[1,4] ($finite)" "$dir/run2.out" ||
  { cat "$dir/run2.out"; fail "run: a finite input's line changed"; }

"$cli" profile "$dir/mm.onnx" --input "x=$bad" --repeat 2 > "$dir/profile.out" 2>&1 ||
  { cat "$dir/profile.out"; fail "profile: exit $?"; }
grep -qxF "input:    x float[1,4] ($bad): $counts" "$dir/profile.out" ||
  { cat "$dir/profile.out"; fail "profile: the input line does not count the NaN and infinity"; }

"$cli" optimize "$dir/mm.onnx" -o "$dir/o.onnx" --check 1 --input "x=$bad" > "$dir/opt.out" 2>&1 ||
  { cat "$dir/opt.out"; fail "optimize --check: exit $?"; }
grep -qxF "check input: x float[1,4]: given ($bad): $counts" "$dir/opt.out" ||
  { cat "$dir/opt.out"; fail "optimize --check: the check input line does not name the file"; }
"$cli" optimize "$dir/mm.onnx" -o "$dir/o.onnx" --check 1 --input "x=$finite" > "$dir/opt2.out" 2>&1 ||
  fail "optimize --check (finite)"
grep -qxF "check input: x float[1,4]: given ($finite)" "$dir/opt2.out" ||
  { cat "$dir/opt2.out"; fail "optimize --check: a finite input's line"; }

# One of the two calibration sets holds a NaN and an infinity: calibrated on
# the finite values (checked on the finite set), the note says where.
"$cli" optimize "$dir/mm.onnx" -o "$dir/q.onnx" --passes quantize_static \
  --calibration-data "$dir/cal" --input "x=$finite" --check 1 > "$dir/q.out" 2>&1 ||
  { cat "$dir/q.out"; fail "quantize_static: exit $?"; }
[ -s "$dir/q.onnx" ] || fail "quantize_static: nothing saved"
grep -qF "note: 1 ops quantized to int8" "$dir/q.out" || { cat "$dir/q.out"; fail "no step note"; }
grep -qF "calibration: 1 of 2 input sets hold NaN or infinite values (input 'x' in $bad: $counts): the ranges come from the finite values only" "$dir/q.out" ||
  { cat "$dir/q.out"; fail "quantize_static: the note does not name the set's file"; }
rm -rf "$dir/cal/b"
"$cli" optimize "$dir/mm.onnx" -o "$dir/q2.onnx" --passes quantize_static \
  --calibration-data "$dir/cal" --input "x=$finite" --check 1 > "$dir/q2.out" 2>&1 ||
  { cat "$dir/q2.out"; fail "quantize_static (finite): exit $?"; }
grep -qF "NaN" "$dir/q2.out" && { cat "$dir/q2.out"; fail "finite calibration data: a NaN note"; }
echo "PASS"
