#!/usr/bin/env bash
# `optimize --set PASS.OPTION=VALUE` sets an option of a pass for the run:
# the saved recipe records it, the result follows it (at the default level,
# fold_constants with max_growth=inf folds the ConstantOfShape weights of the
# light squeezenet, which the size budget keeps otherwise), and a bad name,
# value or pass is an error that names it, with nothing written. Without --level
# the level named default runs, and optimize says so. A recipe with a bad value is refused the same way.
# Usage: pass_options.sh CLI CORPUS_DIR   (exit 77 = skipped: no corpus)
set -u
cli=$1
. "$(dirname "${BASH_SOURCE[0]}")/corpus_model.sh"
use_corpus_model "$2" onnx_light_squeezenet.onnx
use_scratch_dir
nodes() { sed -n 's/^saved .*: [0-9]* -> \([0-9]*\) nodes$/\1/p' "$1"; }

"$cli" optimize "$model" -o "$dir/default.onnx" --level default > "$dir/default.log" ||
  { cat "$dir/default.log"; fail "optimize --level default"; }
# The level named default is the default: the same plan and result without
# --level, said in a plan line, with a pointer to --check when it was not used.
"$cli" optimize "$model" -o "$dir/plain.onnx" > "$dir/plain.log" ||
  { cat "$dir/plain.log"; fail "optimize without --level"; }
grep -q "^plan: level default, the default (" "$dir/plain.log" ||
  { cat "$dir/plain.log"; fail "optimize does not say it ran the default level"; }
[ "$(nodes "$dir/plain.log")" = "$(nodes "$dir/default.log")" ] ||
  fail "optimize without --level gave $(nodes "$dir/plain.log") nodes, --level default $(nodes "$dir/default.log")"
grep -q "^note: the outputs were not compared .*--check N" "$dir/plain.log" ||
  { cat "$dir/plain.log"; fail "optimize without --check does not point to it"; }
"$cli" optimize "$model" -o "$dir/checked.onnx" --level basic --check 1 > "$dir/checked.log" ||
  { cat "$dir/checked.log"; fail "optimize --level basic --check 1"; }
grep -q "^plan: level basic (" "$dir/checked.log" || { cat "$dir/checked.log"; fail "plan line for --level basic"; }
if grep -q "outputs were not compared" "$dir/checked.log"; then fail "the --check hint shown with --check"; fi
"$cli" optimize "$model" -o "$dir/inf.onnx" --level default --set fold_constants.max_growth=inf \
  --set fold_constants.constant_nodes_to_initializers=YES --save-recipe "$dir/r.json" \
  > "$dir/inf.log" || { cat "$dir/inf.log"; fail "optimize --set fold_constants.max_growth=inf"; }
a=$(nodes "$dir/default.log"); b=$(nodes "$dir/inf.log")
[ -n "$a" ] && [ -n "$b" ] || fail "no node counts in the output"
[ "$b" -lt "$a" ] || fail "max_growth=inf left $b nodes, the default $a"
[ "$(stat -c %s "$dir/inf.onnx")" -gt "$(stat -c %s "$dir/default.onnx")" ] ||
  fail "folding everything did not make the file larger"
python3 - "$dir/r.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
fold = [p for p in r["passes"] if p["id"] == "fold_constants"]
if not fold:
    sys.exit("FAIL: the recipe has no fold_constants step")
o = fold[0]["options"]
if o.get("max_growth") != "inf" or o.get("constant_nodes_to_initializers") != "true":
    sys.exit("FAIL: the recipe does not record the options as set: %s" % o)
PY

# Each refused with a message naming what is wrong; nothing is written.
refused() {  # EXPECTED-TEXT ARGS...
  local want=$1
  shift
  rm -f "$dir/bad.onnx"
  if "$cli" optimize "$model" -o "$dir/bad.onnx" "$@" > "$dir/bad.log" 2>&1; then
    fail "accepted: $*"
  fi
  grep -qF -- "$want" "$dir/bad.log" || { cat "$dir/bad.log"; fail "no '$want' for: $*"; }
  [ ! -e "$dir/bad.onnx" ] || fail "wrote a model for: $*"
}
refused "takes a number >= 0 or inf, not 'lots'" --level basic --set fold_constants.max_growth=lots
refused "takes a whole number >= 0, not '-1'" --level basic --set fold_constants.size_budget_bytes=-1
refused "takes true or false, not 'maybe'" --level basic \
  --set fold_constants.fold_dequantize_linear=maybe
refused "has no option 'max_grow' (options: size_budget_bytes, max_growth" --level basic \
  --set fold_constants.max_grow=2
refused "unknown pass 'fold_constant'" --level basic --set fold_constant.max_growth=2
refused "is not in the plan" --level basic --set fuse_ort_attention.assume_binary_mask=false
refused "write PASS.OPTION=VALUE" --level basic --set max_growth=2
refused "takes a whole number >= 2, not '1'" --level default \
  --set fuse_shared_input_matmuls.min_count=1
# --set on a pass that standard-only mode skips: run, with a note that it does nothing.
"$cli" optimize "$model" -o "$dir/skip.onnx" --level ort \
  --set fuse_ort_attention.assume_binary_mask=false > "$dir/skip.log" 2>&1 ||
  { cat "$dir/skip.log"; fail "--set on a skipped pass"; }
grep -q "note: --set fuse_ort_attention.assume_binary_mask=false has no effect" "$dir/skip.log" ||
  { cat "$dir/skip.log"; fail "no note for a --set that does nothing"; }
# One value per --set: the model path after it is still the model.
"$cli" optimize --set fold_constants.max_growth=2 "$model" -o "$dir/order.onnx" --level basic \
  > "$dir/order.log" 2>&1 || { cat "$dir/order.log"; fail "--set before the model path"; }
python3 - "$dir/r.json" "$dir/bad.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for p in r["passes"]:
    if p["id"] == "fold_constants":
        p["options"]["max_growth"] = "a lot"
json.dump(r, open(sys.argv[2], "w"))
PY
refused "takes a number >= 0 or inf, not 'a lot'" --recipe "$dir/bad.json"
echo "pass options: ok (default: $a nodes; max_growth=inf: $b nodes)"
