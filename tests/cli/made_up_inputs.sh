#!/usr/bin/env bash
# Inputs made up so corpus models run with none given (core/pipeline/input_synthesis.h):
# a CNN with dynamic H/W gets sizes its Conv windows accept, a too small --dim is
# refused naming the input, the op and the constraint, a sample rate compared by
# Equal takes the constant, byte ids stay below the embedding's row count, the
# reasons are printed by run and info, and run takes a scalar --input NAME=V.
# Usage: made_up_inputs.sh CLI CORPUS_DIR   (exit 77 = skipped: no corpus)
set -u
cli=$1
corpus=${PASSLAB_CORPUS_DIR:-$2}
m=$corpus/models
if [ ! -f "$m/ppocr_cls_mobile_v2.onnx" ] || [ ! -f "$m/silero_vad_v4.onnx" ] ||
  [ ! -f "$m/tract_nnsplit_bidi_lstm.onnx" ]; then
  echo "corpus models not found under $m: skipped (set PASSLAB_CORPUS_DIR)"
  exit 77
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
fail() { echo "FAIL: $*"; cat "$log"; exit 1; }
run() { "$cli" run "$@" --repeat 1 --warmup 0 > "$log" 2>&1; }

# Dynamic [N,3,H,W] into a stride-2 Conv stack: no input given, it runs.
run "$m/ppocr_cls_mobile_v2.onnx" || fail "ppocr_cls with no input given"
grep -q "dim 2 = [0-9]* (smallest size Conv 'p2o.Conv.0' (kernel 3, stride 2, pads 1+1)" "$log" ||
  fail "no reason for H"
# A --dim narrower than the first Conv window accepts: named error.
if run "$m/ppocr_cls_mobile_v2.onnx" --dim p2o.DynamicDimension.1=2; then fail "H = 2 accepted"; fi
grep -q "input 'x' dim 2 (p2o.DynamicDimension.1) = 2 is too small for Conv 'p2o.Conv.0'.*it needs at least" \
  "$log" || fail "no named error for H = 2"
# A waveform whose STFT Conv sits in an If branch, after a Reshape built from
# Shape(input), an Unsqueeze, a reflect Pad and a nested If: the window walk
# follows the axis there. A sample rate compared with constants takes one; a
# scalar can be given on the command line.
run "$m/silero_vad_v4.onnx" || fail "silero with no input given"
grep -q "dim 1 = [0-9]* (smallest size Conv 'Conv_[0-9]*' (kernel 256, stride 64)" "$log" ||
  fail "no window reason for the waveform length"
grep -q "sr int64\[\]: value 16000 (compared by Equal with 16000" "$log" || fail "sr not 16000"
if run "$m/silero_vad_v4.onnx" --dim sequence=100; then fail "sequence = 100 accepted"; fi
grep -q "input 'input' dim 1 (sequence) = 100 is too small for Conv 'Conv_[0-9]*'.*it needs at least" \
  "$log" || fail "no named error for sequence = 100"
run "$m/silero_vad_v4.onnx" --dim sequence=512 --input sr=16000 || fail "--input sr=16000"
grep -q "sr int64\[\] (--input sr=16000)" "$log" || fail "the scalar given is not reported"
# Byte ids into a 256-row embedding.
run "$m/tract_nnsplit_bidi_lstm.onnx" || fail "nnsplit with no input given"
grep -q "integers in \[0, 256) (indices of Gather" "$log" || fail "ids not bounded by the table"
# BeamSearch's scalars take values it accepts (num_return_sequences <= num_beams,
# max_length past the prompt).
if [ -f "$m/ort_tiny_gpt2_beamsearch.onnx" ]; then
  run "$m/ort_tiny_gpt2_beamsearch.onnx" || fail "beam search with no input given"
  # a 4-token prompt (sequence default), so max_length 8
  grep -q "input_ids int32\[1,4\]" "$log" &&
    grep -q "max_length int32\[1\]: value 8 (max_length of BeamSearch" "$log" || fail "max_length"
fi
# info lists the same choices.
"$cli" info "$m/ppocr_cls_mobile_v2.onnx" > "$log" 2>&1 || fail "info"
grep -q "made-up inputs" "$log" && grep -q "smallest size Conv" "$log" || fail "info has no reasons"
echo "made-up inputs: ok"
