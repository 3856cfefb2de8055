#!/usr/bin/env bash
# `optimize --save-recipe` writes every option of every pass with the value it
# ran with (defaults included), and `--recipe` replays it to the same model,
# also with --verify-each-pass. And fuse_qdq_into_qlinear's step, whose units
# cannot be judged on this model (it edits nodes in place), prints why under
# its "ok (...)" (before, the reason was only in the JSON report's detail).
# Usage: recipe_round_trip.sh CLI CORPUS_DIR   (exit 77 = skipped: no corpus)
set -u
cli=$1
. "$(dirname "${BASH_SOURCE[0]}")/corpus_model.sh"
use_corpus_model "$2" tract_snips_qlstm.onnx
use_scratch_dir
"$cli" optimize "$model" -o "$dir/a.onnx" --level basic --save-recipe "$dir/r.json" > "$dir/a.log" || {
  echo "FAIL: optimize --save-recipe"; cat "$dir/a.log"; exit 1; }
python3 - "$dir/r.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
cse = [p for p in r["passes"] if p["id"] == "eliminate_common_subexpressions"]
if not cse:
    sys.exit("FAIL: the recipe has no eliminate_common_subexpressions step")
if cse[0]["options"].get("merge_dequantize_linear") != "true":
    sys.exit("FAIL: default option not written: %s" % cse[0]["options"])
PY
"$cli" optimize "$model" -o "$dir/b.onnx" --recipe "$dir/r.json" > "$dir/b.log" || {
  echo "FAIL: optimize --recipe"; cat "$dir/b.log"; exit 1; }
if ! cmp -s "$dir/a.onnx" "$dir/b.onnx"; then
  echo "FAIL: replaying the recipe gives another model"; exit 1
fi
# Verifying the whole model after every pass instead of where each pass
# touched it finds nothing more and saves the same model.
"$cli" optimize "$model" -o "$dir/c.onnx" --recipe "$dir/r.json" --verify-each-pass > "$dir/c.log" || {
  echo "FAIL: optimize --verify-each-pass"; cat "$dir/c.log"; exit 1; }
if ! cmp -s "$dir/a.onnx" "$dir/c.onnx"; then
  echo "FAIL: --verify-each-pass gives another model"; exit 1
fi
"$cli" optimize "$model" -o "$dir/d.onnx" --passes fuse_qdq_into_qlinear --check 1 \
  --allow-nonstandard > "$dir/d.log" || {
  echo "FAIL: optimize --passes fuse_qdq_into_qlinear"; cat "$dir/d.log"; exit 1; }
grep -A2 '^1 *fuse_qdq_into_qlinear .* ok (' "$dir/d.log" |
  grep -q '^      check: its units were not judged (.*in place' || {
  echo "FAIL: no reason printed for the units not judged"; cat "$dir/d.log"; exit 1; }
echo "recipe round trip: ok"
