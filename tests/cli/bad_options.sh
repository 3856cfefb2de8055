#!/usr/bin/env bash
# Bad input to optimize, precision, profile and run gets a clear error before
# any work, never a silent change of meaning, and no input file is touched
# (session 32's audit):
#  - an output (-o, --report, --save-recipe) on a file of --calibration-data is
#    refused, naming the option and the file; the file keeps its bytes; so is
#    an output that would be a new file the data is read by (input_K.pb/.npy);
#  - a negative --check, or a recipe's negative "check_input_sets", is refused
#    (it switched the lossy budget's check off: the model saved unchecked);
#  - a non-finite --budget-snr (inf, -inf) is refused, naming the SNR;
#  - --memory-limit 0 is refused (it meant "no limit" silently);
#  - profile --memory-limit keeps run's promise: a limit the runs would pass is
#    refused before them with the bytes a run needs, never by a node partway;
#    at that need it profiles, one byte below it is refused; so with --node
#    (its cut-outs and the whole models feeding them in context).
# Usage: bad_options.sh CLI CORPUS_DIR   (exit 77 = skipped: no corpus)
set -u
cli=$1
corpus=${PASSLAB_CORPUS_DIR:-$2}
mnist="$corpus/models/mnist8_cntk.onnx"
ultraface="$corpus/models/ultraface_rfb_320.onnx"
for m in "$mnist" "$ultraface"; do
  if [ ! -f "$m" ]; then
    echo "corpus model not found at $m: skipped (set PASSLAB_CORPUS_DIR)"
    exit 77
  fi
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# refused WHAT MESSAGE CMD...: exit status not 0, MESSAGE in the output.
refused() {
  local what=$1 msg=$2
  shift 2
  "$@" > "$dir/out.log" 2>&1
  local rc=$?
  [ "$rc" -ne 0 ] || { cat "$dir/out.log"; fail "$what: exit status 0"; }
  grep -qF -- "$msg" "$dir/out.log" || { cat "$dir/out.log"; fail "$what: no '$msg' in the error"; }
  return 0
}

# --- outputs on calibration data -------------------------------------------
# Two sets of one .npy each (1x1x28x28 float32, values in [0, 255]).
python3 - "$dir/calib" <<'PY' || fail "writing calibration data"
import os, random, struct, sys
root = sys.argv[1]
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 28, 28), }"
header += " " * (63 - (10 + len(header)) % 64) + "\n"
for s in range(2):
    os.makedirs(f"{root}/set_{s}", exist_ok=True)
    with open(f"{root}/set_{s}/input_0.npy", "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        rnd = random.Random(s)
        f.write(struct.pack("<784f", *[rnd.uniform(0, 255) for _ in range(784)]))
PY
sums() { cksum "$dir"/calib/*/input_0.npy "$mnist"; }
before=$(sums)
target="$dir/calib/set_1/input_0.npy"
quant=(--passes raise_opset,quantize_static --calibration-data "$dir/calib")
refused "optimize -o on a calibration file" "-o $target is --calibration-data" \
  "$cli" optimize "$mnist" "${quant[@]}" -o "$target"
refused "optimize --report on a calibration file" "--report $target is --calibration-data" \
  "$cli" optimize "$mnist" "${quant[@]}" -o "$dir/q.onnx" --report "$target"
refused "optimize --save-recipe on a calibration file" \
  "--save-recipe $target is --calibration-data" \
  "$cli" optimize "$mnist" "${quant[@]}" -o "$dir/q.onnx" --save-recipe "$target"
# The same file by another spelling (a path through "..").
refused "optimize -o on a calibration file spelled with .." "is --calibration-data" \
  "$cli" optimize "$mnist" "${quant[@]}" -o "$dir/calib/set_0/../set_1/input_0.npy"
refused "precision -o on a calibration file" "-o $target is --calibration-data" \
  "$cli" precision "$mnist" --pass quantize_static --calibration-data "$dir/calib" -o "$target"
refused "precision --save-recipe on a calibration file" \
  "--save-recipe $target is --calibration-data" \
  "$cli" precision "$mnist" --pass quantize_static --calibration-data "$dir/calib" \
  -o "$dir/p.onnx" --save-recipe "$target"
# A new file the data is read by: a second input in a set of this one-input
# model ("the model has 1 inputs, but .../input_1.npy exists" on the next
# read), or an input_0.pb in the folder itself (the folder read as one set).
refused "optimize -o on a new input_1.npy in a calibration set" \
  "-o $dir/calib/set_1/input_1.npy would be read as --calibration-data" \
  "$cli" optimize "$mnist" "${quant[@]}" -o "$dir/calib/set_1/input_1.npy"
refused "optimize --report on a new input_0.pb in the calibration folder" \
  "would be read as --calibration-data" \
  "$cli" optimize "$mnist" "${quant[@]}" -o "$dir/q.onnx" --report "$dir/calib/input_0.pb"
refused "precision -o on a new input_1.npy in a calibration set" \
  "would be read as --calibration-data" \
  "$cli" precision "$mnist" --pass quantize_static --calibration-data "$dir/calib" \
  -o "$dir/calib/set_0/input_1.npy"
[ -e "$dir/calib/set_1/input_1.npy" ] || [ -e "$dir/calib/input_0.pb" ] ||
  [ -e "$dir/calib/set_0/input_1.npy" ] && fail "a refused command wrote into the calibration data"
[ "$(sums)" = "$before" ] || fail "a calibration file or the model changed"
[ -e "$dir/q.onnx" ] || [ -e "$dir/p.onnx" ] && fail "a refused command saved a model"
# The calibration data still reads (the auditor's repro failed here: "no NUMPY magic").
"$cli" optimize "$mnist" "${quant[@]}" -o "$dir/q.onnx" > "$dir/ok.log" 2>&1 ||
  { cat "$dir/ok.log"; fail "the calibration data no longer reads"; }
grep -q "calibration: 2 input sets from" "$dir/ok.log" || { cat "$dir/ok.log"; fail "sets not read"; }
rm -f "$dir/q.onnx"

# --- a negative check count --------------------------------------------------
refused "optimize --check -1" "--check: Value -1" \
  "$cli" optimize "$mnist" "${quant[@]}" --budget-snr 200 --check -1 -o "$dir/q.onnx"
[ -e "$dir/q.onnx" ] && fail "--check -1 saved the model"
# A recipe saved by a run, its check count made negative.
"$cli" optimize "$mnist" --passes raise_opset -o "$dir/r.onnx" --save-recipe "$dir/r.json" \
  > "$dir/r.log" 2>&1 || { cat "$dir/r.log"; fail "saving a recipe"; }
grep -q '"check_input_sets": 0' "$dir/r.json" || { cat "$dir/r.json"; fail "no check_input_sets"; }
sed 's/"check_input_sets": 0/"check_input_sets": -3/' "$dir/r.json" > "$dir/neg.json"
refused "a recipe with check_input_sets -3" "check_input_sets is -3" \
  "$cli" optimize "$mnist" --recipe "$dir/neg.json" -o "$dir/q.onnx"
[ -e "$dir/q.onnx" ] && fail "a recipe with a negative check count saved the model"

# --- non-finite budgets ------------------------------------------------------
for v in inf -inf nan; do
  refused "--budget-snr $v" "SNR" \
    "$cli" optimize "$mnist" "${quant[@]}" --budget-snr "$v" -o "$dir/q.onnx"
  [ -e "$dir/q.onnx" ] && fail "--budget-snr $v saved the model"
  refused "precision --budget-snr $v" "SNR" \
    "$cli" precision "$mnist" --budget-snr "$v"
done

# --- --memory-limit 0 ----------------------------------------------------------
refused "run --memory-limit 0" "0 bytes" "$cli" run "$mnist" --memory-limit 0 --repeat 1
refused "profile --memory-limit 0" "0 bytes" "$cli" profile "$mnist" --memory-limit 0 --repeat 1

# --- profile --memory-limit: refused before the runs, as run -----------------
prof=(--repeat 2 --warmup 1 --top 3)
refused "profile --memory-limit 4MiB" "needs" \
  "$cli" profile "$ultraface" --memory-limit 4MiB "${prof[@]}"
grep -q "would pass the memory limit" "$dir/out.log" &&
  { cat "$dir/out.log"; fail "profile: a node failed partway instead of a refusal before"; }
grep -q "measured by one untimed run before the runs asked for" "$dir/out.log" ||
  { cat "$dir/out.log"; fail "profile: the refusal does not say how the need was measured"; }
need=$(sed -n 's/.*--memory-limit \([0-9]*\) or more runs.*/\1/p' "$dir/out.log")
[ -n "$need" ] || { cat "$dir/out.log"; fail "profile: no need in the refusal"; }
"$cli" profile "$ultraface" --memory-limit "$need" "${prof[@]}" > "$dir/need.log" 2>&1 ||
  { cat "$dir/need.log"; fail "profile --memory-limit $need (the need it named) failed"; }
refused "profile one byte below the need" "--memory-limit $need or more runs" \
  "$cli" profile "$ultraface" --memory-limit "$((need - 1))" "${prof[@]}"
# A comparison: each model is held to the limit before any run.
refused "profile --level default --memory-limit 4MiB" "needs" \
  "$cli" profile "$ultraface" --level default --rounds 1 --memory-limit 4MiB "${prof[@]}"
grep -q "would pass the memory limit" "$dir/out.log" &&
  { cat "$dir/out.log"; fail "profile --level: a node failed partway"; }
# --node: the cut-outs (timed, and in context) and the whole models that feed
# them in context are held to the limit too, refused before any run (they ran
# without the promise: 1MiB failed in 'Conv_1' alone partway, 4MiB profiled
# while the whole models ran past it). Each refusal names what a run needs (a
# planned peak, or a measured need); at the last one it profiles, one byte
# below that is refused.
node=(--level default --node Conv_1 --rounds 1 "${prof[@]}")
needOf() {
  sed -n -e 's/.*--memory-limit \([0-9]*\) or more runs.*/\1/p' \
    -e 's/.*the planned peak of [^(]*(\([0-9]*\) bytes.*/\1/p' "$dir/out.log" | head -1
}
for lim in 1MiB 4MiB; do
  refused "profile --node --memory-limit $lim" "above the memory limit" \
    "$cli" profile "$ultraface" --memory-limit "$lim" "${node[@]}"
  grep -q "would pass the memory limit" "$dir/out.log" &&
    { cat "$dir/out.log"; fail "profile --node $lim: a node failed partway"; }
  [ -n "$(needOf)" ] || { cat "$dir/out.log"; fail "profile --node $lim: no need named"; }
done
need=0
for _ in 1 2 3 4 5 6; do
  next=$(needOf)
  [ -n "$next" ] || break
  [ "$next" -gt "$need" ] || { cat "$dir/out.log"; fail "profile --node: need $next after $need"; }
  need=$next
  "$cli" profile "$ultraface" --memory-limit "$need" "${node[@]}" > "$dir/out.log" 2>&1 && break
done
grep -q "^speedup:" "$dir/out.log" ||
  { cat "$dir/out.log"; fail "profile --node --memory-limit $need (the need it named) failed"; }
refused "profile --node one byte below the need" "above the memory limit" \
  "$cli" profile "$ultraface" --memory-limit "$((need - 1))" "${node[@]}"

# --- exit status of argument errors -----------------------------------------
# Every command's help says "1 bad arguments or files": an unknown option, a
# missing model or no subcommand exit with 1 (CLI11's own codes were 105-115),
# naming the problem; --help and --version exit with 0.
exactly() {
  local what=$1 want=$2 msg=$3
  shift 3
  "$@" > "$dir/out.log" 2>&1
  local rc=$?
  [ "$rc" -eq "$want" ] || { cat "$dir/out.log"; fail "$what: exit status $rc, not $want"; }
  grep -qF -- "$msg" "$dir/out.log" || { cat "$dir/out.log"; fail "$what: no '$msg' in the output"; }
}
exactly "precision with an unknown option" 1 "--json" "$cli" precision "$mnist" --json
exactly "optimize without a model" 1 "model is required" "$cli" optimize
exactly "no subcommand" 1 "subcommand" "$cli"
exactly "run with a bad --threads" 1 "--threads" "$cli" run "$mnist" --threads many
exactly "optimize --help" 0 "Usage:" "$cli" optimize --help
exactly "--version" 0 "passlab-cli" "$cli" --version

echo "bad options: ok"
