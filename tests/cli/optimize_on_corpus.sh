#!/usr/bin/env bash
# On every corpus model: `passlab-cli optimize --level LEVEL --check 3` succeeds
# (every pass keeps the outputs; the saved file reloads, passes the verifier and
# gives the original outputs), the input file is untouched, and Debian's
# onnx::checker accepts the result where it knows the opset (<= 17).
# Prints a table: model, nodes before -> after, checker verdict.
# Usage: optimize_on_corpus.sh CLI ONNX_CHECK CORPUS_DIR [LEVEL [KEEP_DIR]]
#        (exit 77 = skipped: no corpus)
# With KEEP_DIR, the optimized files stay there, with KEEP_DIR/pairs.tsv listing
# name, original, optimized and the --dim/--input arguments used (tab-separated),
# for tests/cli/ort_load_on_corpus.sh (onnxruntime loads and runs them).
set -u
cli=$1 onnx_check=$2
corpus=${PASSLAB_CORPUS_DIR:-$3}
level=${4:-basic}
keep=${5:-}
# No stale files for the onnxruntime test, whatever happens below.
if [ -n "$keep" ]; then
  rm -rf "$keep" && mkdir -p "$keep" || exit 1
  : > "$keep/pairs.tsv"
fi
if [ ! -d "$corpus/models" ]; then
  echo "corpus not found at $corpus: skipped (set PASSLAB_CORPUS_DIR)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0 n=0 checked=0
printf '%-46s %15s  %s\n' model nodes onnx::checker
for m in "$corpus"/models/*.onnx; do
  n=$((n + 1))
  name=$(basename "$m" .onnx)
  out="${keep:-$work}/$name.opt.onnx"
  sum_before=$(sha256sum "$m" | cut -d' ' -f1)
  # No input given: the made-up inputs (core/pipeline/input_synthesis.h) must
  # make every model run.
  check=(--check 3)
  case $name in
    # Its declared input shape contradicts its constant mask: no runtime can run it
    # (ONNX Runtime fails the same way), so it is optimized without the check.
    ort_attention_distilbert) check=() ;;
  esac
  if ! "$cli" optimize "$m" --level "$level" "${check[@]}" -o "$out" > "$work/log" 2>&1; then
    echo "FAIL: optimize --level $level ${check[*]} $m:"; tail -5 "$work/log"; fail=1
    continue
  fi
  if [ "$(sha256sum "$m" | cut -d' ' -f1)" != "$sum_before" ]; then
    echo "FAIL: $m was modified"; fail=1
  fi
  if ((${#check[@]})); then
    grep -q '^reloaded .*outputs equal' "$work/log" || { echo "FAIL: $m: no reload check"; fail=1; }
  fi
  if [ -n "$keep" ]; then
    printf '%s\t%s\t%s\t%s\n' "$name" "$m" "$out" "${check[*]:2}" >> "$keep/pairs.tsv"
  fi
  nodes=$(grep -o '^saved .*: [0-9]* -> [0-9]* nodes' "$work/log" | grep -o '[0-9]* -> [0-9]*')
  verdict=$("$onnx_check" "$out" 2>&1); rc=$?
  verdict=${verdict%%$'\n'*}  # the first line says it
  case $rc in
    0) checked=$((checked + 1)); verdict=ok ;;
    77) verdict="skipped (${verdict#*: })" ;;
    *)
      # A model the checker already rejects before optimization is not our regression.
      if "$onnx_check" "$m" > /dev/null; then
        echo "FAIL: onnx::checker rejects the optimized $name: $verdict"; fail=1
      else
        verdict="rejects the original too: ${verdict#*: }"
      fi ;;
  esac
  printf '%-46s %15s  %s\n' "$name" "$nodes" "$verdict"
done
echo "optimize --level $level --check 3 ran on $n corpus models; onnx::checker accepted $checked"
exit $fail
