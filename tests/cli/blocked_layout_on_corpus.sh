#!/usr/bin/env bash
# Issue #26, the blocked layout: on every corpus CNN, `passlab-cli optimize
# --level fused --check 3` keeps the outputs equal (every pass, and the
# reloaded file), and convert_to_blocked_layout blocked something (every
# model's outputs are NCHW, so a blocked chain ends in a ReorderFromBlocked;
# not starry_night_fp16, whose convolutions are float16, nor the QDQ models,
# whose convolutions stand alone between QuantizeLinear/DequantizeLinear).
# Prints model, nodes before -> after, ReorderToBlocked and ReorderFromBlocked
# nodes (explicit reorders in and out of chains).
#
# A model whose weights are ConstantOfShape fills (every onnx_light_* model:
# all of them 0.02, every channel of a layer equal, the outputs the same for
# every input up to rounding) cannot show a channel mix-up: it is checked as
# above, and again as a copy in the temp folder with seeded random weights
# scaled on the data (RANDOMIZE_WEIGHTS, tests/tools/randomize_weights.cpp; a
# row "NAME+rw"), whose outputs on seeds 1 and 2 must then differ. (Not "the
# models whose outputs on two seeds are the same bytes": light SqueezeNet's
# differ by rounding on an AVX2 CPU.) Once, on the first such model, a planted bug (output channels 0 and 1
# of its third Conv swapped) must leave the original's outputs byte for byte
# the same and change the randomized copy's: the check could not fail there,
# it can here.
# Usage: blocked_layout_on_corpus.sh CLI CORPUS_DIR [RANDOMIZE_WEIGHTS]
# (exit 77 = skipped: no corpus; without RANDOMIZE_WEIGHTS no copies)
set -u
cli=$1
corpus=${PASSLAB_CORPUS_DIR:-${2:-}}
randomize=${3:-}
if [ ! -d "$corpus/models" ]; then
  echo "corpus not found at $corpus: skipped (set PASSLAB_CORPUS_DIR)"
  exit 77
fi
# The CNNs of docs/exec-benchmark.md (scripts/dev/exec_benchmark.py CNN_MODELS).
models="mnist8_cntk onnx_light_bvlc_alexnet onnx_light_densenet121 onnx_light_inception_v1
onnx_light_inception_v2 onnx_light_resnet50 onnx_light_shufflenet onnx_light_squeezenet
onnx_light_vgg19 onnx_light_zfnet512 winml_squeezenet starry_night_fp16 super_resolution
ultraface_rfb_320 ultraface_rfb_320_simplified ppocr_cls_mobile_v2 ort_qdq_multi_consumer_dq
ort_qdq_multi_consumer_dq_fixed picodet_s_320"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0 seen=0 planted=0
# Whether model $1 on seed $2 and model $3 on seed $4 give the same output
# bytes (2: a run failed).
same_runs() {
  rm -rf "$work/r1" "$work/r2"
  "$cli" run "$1" --seed "$2" --repeat 1 --warmup 0 --save-outputs "$work/r1" > "$work/runlog" 2>&1 &&
    "$cli" run "$3" --seed "$4" --repeat 1 --warmup 0 --save-outputs "$work/r2" >> "$work/runlog" 2>&1 ||
    { echo "FAIL: run $1 (seed $2) / $3 (seed $4):"; tail -3 "$work/runlog"; fail=1; return 2; }
  for f in "$work"/r1/output_*.npy; do
    cmp -s "$f" "$work/r2/${f##*/}" || return 1
  done
  return 0
}
# Whether the outputs of model $1 on seeds 1 and 2 are the same bytes.
same_outputs() { same_runs "$1" 1 "$1" 2; }
# Whether models $1 and $2 give the same output bytes on seed 1.
same_as() { same_runs "$1" 1 "$2" 1; }
printf '%-34s %15s %8s %8s\n' model nodes 'to' 'from'
read -r -a queue <<< "$(echo $models)"
i=0
while [ "$i" -lt "${#queue[@]}" ]; do
  entry=${queue[$i]}
  i=$((i + 1))
  name=${entry%+rw}
  if [ "$name" != "$entry" ]; then
    m="$work/$name.rw.onnx"  # the randomized copy, made below
  else
    m="$corpus/models/$name.onnx"
    [ -f "$m" ] || { echo "$name: not in this corpus, skipped"; continue; }
    seen=$((seen + 1))
  fi
  out="$work/$entry.onnx"
  if ! "$cli" optimize "$m" --level fused --allow-nonstandard --check 3 -o "$out" \
      > "$work/log" 2>&1; then
    echo "FAIL: optimize --level fused --check 3 $m:"; tail -5 "$work/log"; fail=1
    continue
  fi
  grep -q '^reloaded .*outputs equal' "$work/log" || {
    echo "FAIL: $name: no reload check"; tail -5 "$work/log"; fail=1
  }
  # A step judged by its node units (fuse_qdq_into_qlinear) moves the outputs
  # within the budget: "outputs equal" is to the checked model's, and the
  # original's are held to the budget.
  if grep -q 'units ok' "$work/log"; then
    grep -q "^against the original's outputs: within the accuracy budget" "$work/log" || {
      echo "FAIL: $name: the saved file was not checked against the original"; fail=1
    }
  fi
  nodes=$(grep -o '^saved .*: [0-9]* -> [0-9]* nodes' "$work/log" | grep -o '[0-9]* -> [0-9]*')
  "$cli" info "$out" > "$work/info" 2>&1
  to=$(awk '$1 == "ai.passlab.ReorderToBlocked" && $2 ~ /^[0-9]+$/ { print $2 }' "$work/info")
  from=$(awk '$1 == "ai.passlab.ReorderFromBlocked" && $2 ~ /^[0-9]+$/ { print $2 }' "$work/info")
  printf '%-34s %15s %8s %8s\n' "$entry" "$nodes" "${to:-0}" "${from:-0}"
  # Weights spelled as fills: check a randomized copy too.
  if [ "$name" = "$entry" ] && [ -n "$randomize" ]; then
    if ! "$randomize" "$m" "$work/$name.rw.onnx" --seed 1 > "$work/rwlog" 2>&1; then
      echo "FAIL: $name: randomize_weights:"; tail -3 "$work/rwlog"; fail=1
    elif grep -q ': 0 fills and' "$work/rwlog"; then
      :  # no fills: its weights are its own
    elif same_outputs "$work/$name.rw.onnx"; then
      echo "FAIL: $name: the randomized copy's outputs still do not depend on the input"
      cat "$work/rwlog"; fail=1
    else
      queue+=("$name+rw")  # checked after the corpus's models
      if [ "$planted" -eq 0 ]; then
        planted=1
        "$randomize" "$m" "$work/plant-orig.onnx" --keep-values > /dev/null 2>&1 &&
          "$randomize" "$m" "$work/plant-orig-bad.onnx" --keep-values --swap-conv-channels 2 \
            > /dev/null 2>&1 &&
          "$randomize" "$m" "$work/plant-rw-bad.onnx" --seed 1 --swap-conv-channels 2 \
            > "$work/plantlog" 2>&1 ||
          { echo "FAIL: $name: planting the bug failed"; fail=1; }
        if [ -f "$work/plant-rw-bad.onnx" ]; then
          same_as "$work/plant-orig.onnx" "$work/plant-orig-bad.onnx" ||
            { echo "FAIL: $name: the planted swap changed the original's outputs"; fail=1; }
          same_as "$work/$name.rw.onnx" "$work/plant-rw-bad.onnx"
          rc=$?
          if [ "$rc" -eq 0 ]; then
            echo "FAIL: $name: the planted swap left the randomized copy's outputs the same"
            fail=1
          elif [ "$rc" -eq 1 ]; then
            echo "$name: planted bug ($(grep -o 'Conv .* swapped' "$work/plantlog")): outputs" \
              "unchanged on the original, changed on the randomized copy"
          fi
        fi
      fi
    fi
  fi
  case $name in
    starry_night_fp16) ;;  # float16 convolutions: the pass (and the kernels) are float32 only
    # Every Conv sits alone between DequantizeLinear and QuantizeLinear: blocking
    # it would only add two reorders, so the pass leaves it (and says so).
    ort_qdq_multi_consumer_dq | ort_qdq_multi_consumer_dq_fixed) ;;
    *) [ "${from:-0}" -gt 0 ] || { echo "FAIL: $name: nothing in the blocked layout"; fail=1; } ;;
  esac
done
[ "$seen" -gt 0 ] || { echo "no corpus CNN found: skipped"; exit 77; }
exit $fail
