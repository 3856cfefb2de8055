#!/usr/bin/env bash
# Screenshots of the real GUI under Xvfb, in English and in Chinese, on the
# corpus model ort_gpt2_past.onnx (3,069 nodes):
#   graph_<lang>.png       the model opened (grouped), a search hit selected
#   pipeline_<lang>.png    the default passes run, the Step of
#                          replace_with_cheaper_ops shown: removed nodes red,
#                          added green, rewired amber; the Timeline below
#   properties_<lang>.png  after the run, a node a pass made selected: its
#                          provenance and the patterns' near misses
#   demo_<lang>.png        the CNN demo after Run All, the BatchNormalization
#                          folded into the convolution (no corpus needed)
#   profile_<lang>.png     the transformer demo after Run All compared with the
#                          original in the Profile dock, heat overlay on
#   roofline_<lang>.png    the same profiled, its roofline shown
#   firstview_<lang>.png   ort_gpt2_past as it first opens on a 1280x800 screen:
#                          readable, at its inputs (not fitted)
#   memory_<lang>.png      the CNN demo after Run All, Step 5 (eliminate_inverse_pairs)
#                          shown in the Memory dock: live bytes before and after
#                          it, the tensors at their planned offsets
#   lesson_<lang>.png      the lesson on redundant nodes by their parameters,
#                          mid-prediction: two of the three no-op nodes picked
#   precision_<lang>.png   ppocr_cls_mobile_v2 in the Precision dock: FP16
#                          mixed precision for 61.5 dB (the layers ranked, the
#                          kept ones marked), then calibrated, the input of a
#                          kept layer selected: its histogram and range
# Usage: scripts/screenshots.sh [BUILD_DIR] [OUT_DIR] [CORPUS_DIR]
set -euo pipefail
build=${1:-build}
out=${2:-docs/screenshots}
corpus=${3:-${PASSLAB_CORPUS_DIR:-../shared/corpus}}
app="$build/app/gui/passlab"
[ -x "$app" ] || { echo "screenshots: $app not built" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "screenshots: xvfb-run missing (apt-get install xvfb)" >&2; exit 1; }
mkdir -p "$out"
settings=$(mktemp -d)
trap 'rm -rf "$settings"' EXIT
shoot() {  # name lang args...
  local name=$1 lang=$2
  shift 2
  # Fresh settings for every picture: default window layout, no recent files.
  rm -rf "$settings"/*
  XDG_CONFIG_HOME="$settings" timeout 300 xvfb-run -a -s "-screen 0 ${SCREEN:-1600x1000}x24" \
    "$app" --lang "$lang" --screenshot "$out/${name}_${lang}.png" "$@"
}
model="$corpus/models/ort_gpt2_past.onnx"
for lang in en zh_CN; do
  shoot demo "$lang" --run all --show-pass fuse_conv_batchnorm :/demos/cnn_block.txt
  # Step 5 of the default level on cnn_block is eliminate_inverse_pairs (the
  # Transpose and Reshape pairs): the Step that halves its memory peak.
  shoot memory "$lang" --run all --show-step 5 --memory :/demos/cnn_block.txt
  shoot profile "$lang" --run all --main-tab --profile compare :/demos/transformer_block.txt
  shoot roofline "$lang" --run all --main-tab --profile profile --profile-view roofline \
    :/demos/transformer_block.txt
  shoot lesson "$lang" --lesson 04_meaningless_parameters --predict times_one,same_order
  ppocr="$corpus/models/ppocr_cls_mobile_v2.onnx"
  if [ -f "$ppocr" ]; then
    shoot precision "$lang" --precision 61.5 "$ppocr"
  else
    echo "screenshots: $ppocr not found, the precision picture skipped" >&2
  fi
  if [ -f "$model" ]; then
    shoot graph "$lang" --search Softmax "$model"
    SCREEN=1280x800 shoot firstview "$lang" "$model"
    shoot pipeline "$lang" --run all --show-pass replace_with_cheaper_ops "$model"
    shoot properties "$lang" --run all --main-tab --select-made-by replace_with_cheaper_ops "$model"
  else
    echo "screenshots: $model not found, corpus pictures skipped" >&2
  fi
done
ls -l "$out"
