#!/usr/bin/env bash
# No output option writes over an input: `run --memory-report`, `profile
# --csv`, `optimize -o/--report/--save-recipe`, `precision -o/--save-recipe`
# given the model's own file (the same path, ./path, a symlink, a hard link),
# the compared model or the replayed recipe exit non-zero with an error naming
# the option and the file, and leave the file byte for byte as it was; two
# outputs on one file are refused too. The files that are written go through
# a temporary file renamed over the target: a hard link to the old target
# keeps the old bytes, and no temporary file is left behind.
# Usage: output_paths.sh CLI TEXT_TO_ONNX
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
cp "$dir/m.onnx" "$dir/c.onnx"
ln -s m.onnx "$dir/sym.onnx"
ln "$dir/m.onnx" "$dir/hard.onnx"
sum() { md5sum < "$1"; }
model_sum=$(sum "$dir/m.onnx")

# refused OPTION FILE-IN-MESSAGE WATCHED -- COMMAND...: exits 1-123 with
# "error: OPTION FILE" and WATCHED unchanged.
refused() {
  local opt=$1 file=$2 watched=$3
  shift 4
  local before
  before=$(sum "$watched")
  (cd "$dir" && timeout 120 "$cli" "$@") > "$dir/log" 2>&1
  local rc=$?
  [ $rc -ne 0 ] && [ $rc -lt 124 ] || { cat "$dir/log"; fail "$*: exited $rc"; }
  grep -qF -- "error: $opt $file ${word:-is}" "$dir/log" ||
    { cat "$dir/log"; fail "$*: no error naming $opt $file"; }
  [ "$(sum "$watched")" = "$before" ] || fail "$*: $watched was overwritten"
  ! ls -a "$dir" | grep -q '\.tmp-' || fail "$*: a temporary file was left"
}

for target in m.onnx ./m.onnx "$dir/m.onnx" sym.onnx hard.onnx ../"$(basename "$dir")"/m.onnx; do
  refused --memory-report "$target" "$dir/m.onnx" -- run m.onnx --memory-report "$target"
  refused --csv "$target" "$dir/m.onnx" -- profile m.onnx --csv "$target" --warmup 0 --repeat 1
  refused -o "$target" "$dir/m.onnx" -- optimize m.onnx -o "$target"
  refused --report "$target" "$dir/m.onnx" -- optimize m.onnx -o out.onnx --report "$target"
  refused --save-recipe "$target" "$dir/m.onnx" -- optimize m.onnx -o out.onnx --save-recipe "$target"
  refused -o "$target" "$dir/m.onnx" -- precision m.onnx -o "$target"
  refused --save-recipe "$target" "$dir/m.onnx" -- precision m.onnx -o p.onnx --save-recipe "$target"
  [ ! -e "$dir/out.onnx" ] && [ ! -e "$dir/p.onnx" ] || fail "a refused command saved a model"
done
[ "$(sum "$dir/m.onnx")" = "$model_sum" ] || fail "the model changed"

# The compared model and the replayed recipe are inputs too.
refused --csv c.onnx "$dir/c.onnx" -- profile m.onnx --compare c.onnx --csv c.onnx --warmup 0 --repeat 1
timeout 120 "$cli" optimize "$dir/m.onnx" -o "$dir/o1.onnx" --passes eliminate_identity_ops \
  --save-recipe "$dir/r.json" > "$dir/log" 2>&1 || { cat "$dir/log"; fail "saving a recipe"; }
refused --save-recipe r.json "$dir/r.json" -- optimize m.onnx -o o2.onnx --recipe r.json --save-recipe r.json
# --input files are inputs too (a run's saved inputs and outputs fed back),
# and the files --save-outputs DIR writes are outputs: an --input file
# there, by name or through a link, and --memory-report DIR/outputs.json.
(cd "$dir" && timeout 120 "$cli" run m.onnx --repeat 1 --warmup 0 --save-outputs s) > "$dir/log" 2>&1 ||
  { cat "$dir/log"; fail "saving the outputs"; }
ln -s s/output_0.npy "$dir/sym.npy"
ln "$dir/s/output_0.npy" "$dir/hard.npy"
refused --memory-report s/input_0.npy "$dir/s/input_0.npy" -- run m.onnx --input x=s/input_0.npy --memory-report s/input_0.npy
refused --csv ./s/input_0.npy "$dir/s/input_0.npy" -- profile m.onnx --input x=s/input_0.npy --csv ./s/input_0.npy --warmup 0 --repeat 1
for input in s/output_0.npy ./s/input_0.npy sym.npy hard.npy; do
  word=writes refused --save-outputs s "$dir/s/output_0.npy" -- run m.onnx --repeat 1 --input x=$input --save-outputs s
done
grep -qF "which is --input x (hard.npy)" "$dir/log" || { cat "$dir/log"; fail "no message naming --input x"; }
word=is refused --memory-report s/outputs.json "$dir/s/outputs.json" -- run m.onnx --repeat 1 --save-outputs s --memory-report s/outputs.json
grep -qF "is a file --save-outputs s writes" "$dir/log" || { cat "$dir/log"; fail "no message naming --save-outputs"; }
# optimize's check inputs: --input files and the files of --input-dir.
refused -o s/input_0.npy "$dir/s/input_0.npy" -- optimize m.onnx --input x=s/input_0.npy -o s/input_0.npy
refused --report hard.npy "$dir/s/output_0.npy" -- optimize m.onnx --input x=s/output_0.npy -o out.onnx --report hard.npy
refused --save-recipe s/input_0.npy "$dir/s/input_0.npy" -- optimize m.onnx --input-dir s -o out.onnx --save-recipe s/input_0.npy
[ ! -e "$dir/out.onnx" ] || fail "a refused optimize saved a model"
# Not refused: saved inputs fed to a run saving elsewhere, a second save in s.
(cd "$dir" && timeout 120 "$cli" run m.onnx --repeat 1 --input x=s/input_0.npy --save-outputs s2 &&
  timeout 120 "$cli" run m.onnx --repeat 1 --save-outputs s) > "$dir/log" 2>&1 ||
  { cat "$dir/log"; fail "a run saving its outputs beside no input was refused"; }
# --in-place may replace the model, but no other output may be written there.
refused --report m.onnx "$dir/m.onnx" -- optimize m.onnx --in-place --passes eliminate_identity_ops --report m.onnx
# Two outputs on one file: the report would be lost under the model.
refused --report ./out.onnx "$dir/m.onnx" -- optimize m.onnx -o out.onnx --report ./out.onnx
[ ! -e "$dir/out.onnx" ] || fail "two outputs on one file: a model was saved"
grep -qF "is the file of -o" "$dir/log" || { cat "$dir/log"; fail "no message naming -o"; }

# The writers replace their file: a hard link to the old file keeps its bytes.
for kind in memory-report csv; do
  echo old > "$dir/keep.$kind"
  ln "$dir/keep.$kind" "$dir/new.$kind"
  case $kind in
    memory-report) args=(run m.onnx --memory-report "new.$kind") ;;
    csv) args=(profile m.onnx --csv "new.$kind" --warmup 0 --repeat 1) ;;
  esac
  (cd "$dir" && timeout 120 "$cli" "${args[@]}") > "$dir/log" 2>&1 || { cat "$dir/log"; fail "$kind"; }
  [ "$(cat "$dir/keep.$kind")" = old ] || fail "--$kind wrote through the old file (not replaced)"
  [ -s "$dir/new.$kind" ] && [ "$(cat "$dir/new.$kind")" != old ] || fail "--$kind: nothing written"
  ! ls -a "$dir" | grep -q '\.tmp-' || fail "--$kind: a temporary file was left"
done
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$dir/new.memory-report" ||
  fail "the memory report is not JSON"
[ "$(sum "$dir/m.onnx")" = "$model_sum" ] || fail "the model changed"
echo "ok"
