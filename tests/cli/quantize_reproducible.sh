#!/usr/bin/env bash
# quantize_static gives the same file on every run (#25): squeezenet (opset 7,
# raised to 13) quantized four times with the same options on the same
# synthesized calibration sets, every file byte for byte the first. Before
# calibration's runs were reproducible (ExecutorOptions::reproducible), the
# executor's step trials split a float Conv over two threads or not by
# timing, the statistics moved by ulps, and 2 of 4 files could differ in a
# few scales. The budget is opened (the check's verdict is not what is
# tested here). Meaningful on a machine with 2 or more cores.
# Usage: quantize_reproducible.sh CLI CORPUS_DIR   (exit 77 = skipped: no corpus)
set -u
cli=$1
. "$(dirname "${BASH_SOURCE[0]}")/corpus_model.sh"
use_corpus_model "$2" winml_squeezenet.onnx
use_scratch_dir

for i in 1 2 3 4; do
  "$cli" optimize "$model" -o "$dir/q$i.onnx" --passes raise_opset,quantize_static \
    --budget-snr 0 --budget-cosine 0 > "$dir/q$i.log" 2>&1 ||
    { cat "$dir/q$i.log"; fail "run $i: raise_opset,quantize_static"; }
  grep -q "ops quantized to int8" "$dir/q$i.log" || { cat "$dir/q$i.log"; fail "run $i: nothing quantized"; }
  cmp -s "$dir/q1.onnx" "$dir/q$i.onnx" ||
    fail "run $i's file differs from run 1's: $(cmp "$dir/q1.onnx" "$dir/q$i.onnx" | head -1)"
done
echo "4 runs, one file ($(wc -c < "$dir/q1.onnx") bytes)"
