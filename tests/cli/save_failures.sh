#!/usr/bin/env bash
# `optimize --report FILE` and `--save-recipe FILE` where FILE cannot be
# written (its folder does not exist) is an error naming the file, with a
# non-zero exit, no "saved" line and no model written; where it can, the file
# is written whole.
# Usage: save_failures.sh CLI TEXT_TO_ONNX
set -u
cli=$1
text_to_onnx=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

printf '%s\n' '<ir_version: 8, opset_import: ["" : 17]>
main (float[2,3] x) => (float[2,3] y) {
  a = Identity(x)
  y = Relu(a)
}' > "$dir/m.txt"
"$text_to_onnx" "$dir/m.txt" "$dir/m.onnx" || fail "cannot write the model"

for opt in --report --save-recipe; do
  rm -f "$dir/out.onnx"
  target="$dir/no-such-folder/file.json"
  timeout 60 "$cli" optimize "$dir/m.onnx" -o "$dir/out.onnx" "$opt" "$target" > "$dir/log" 2>&1
  rc=$?
  [ $rc -ne 0 ] && [ $rc -lt 124 ] || { cat "$dir/log"; fail "$opt into a missing folder exited $rc"; }
  grep -q "error:.*$target" "$dir/log" || { cat "$dir/log"; fail "$opt: no error naming $target"; }
  ! grep -q "saved to $target" "$dir/log" || { cat "$dir/log"; fail "$opt: says saved"; }
  [ ! -e "$dir/out.onnx" ] || fail "$opt: the model was written"

  timeout 60 "$cli" optimize "$dir/m.onnx" -o "$dir/out.onnx" "$opt" "$dir/ok.json" > "$dir/log" 2>&1 ||
    { cat "$dir/log"; fail "$opt into a writable folder"; }
  grep -q "saved to $dir/ok.json" "$dir/log" || { cat "$dir/log"; fail "$opt: no saved line"; }
  python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$dir/ok.json" ||
    fail "$opt: not valid JSON"
  rm -f "$dir/ok.json"
done
echo "ok"
