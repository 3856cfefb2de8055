#!/usr/bin/env bash
# `optimize --passes <the list `passes` prints for a level>` is the level's
# run: the same file byte for byte (a level is its pass list run once, in
# order, nothing more: no iteration to a fixed point, no options of its own).
# Each level on the MNIST classifier, with and without --allow-nonstandard.
# Usage: level_equals_pass_list.sh CLI CORPUS_DIR   (exit 77 = skipped: no corpus)
set -u
cli=$1
. "$(dirname "${BASH_SOURCE[0]}")/corpus_model.sh"
use_corpus_model "$2" mnist8_cntk.onnx
use_scratch_dir
"$cli" passes > "$dir/passes.txt" || fail "passes"
levels=$(sed -n 's/^levels: //p' "$dir/passes.txt" | tr -d ',')
[ -n "$levels" ] || fail "passes lists no levels"
for level in $levels; do
  list=$(sed -n "s/^  $level ([0-9]* passes): //p" "$dir/passes.txt" | tr -d ' ')
  [ -n "$list" ] || fail "passes prints no list for level $level"
  for ns in "" --allow-nonstandard; do
    "$cli" optimize "$model" -o "$dir/level.onnx" --level "$level" $ns > "$dir/level.log" 2>&1 ||
      { cat "$dir/level.log"; fail "--level $level $ns"; }
    "$cli" optimize "$model" -o "$dir/list.onnx" --passes "$list" $ns > "$dir/list.log" 2>&1 ||
      { cat "$dir/list.log"; fail "--passes <level $level's list> $ns"; }
    cmp -s "$dir/level.onnx" "$dir/list.onnx" ||
      fail "--level $level $ns and --passes <its list> saved different files: " \
        "$(grep -o 'saved .*' "$dir/level.log") / $(grep -o 'saved .*' "$dir/list.log")"
    # The step rows agree too (the plan line names how the plan was given).
    diff <(grep -v '^plan:' "$dir/level.log" | sed 's/ *[0-9.]* ms.*//; s|[^ ]*\.onnx||') \
      <(grep -v '^plan:' "$dir/list.log" | sed 's/ *[0-9.]* ms.*//; s|[^ ]*\.onnx||') ||
      fail "--level $level $ns and --passes <its list> printed different steps"
  done
done
echo "levels equal their pass lists: ok"
