#!/usr/bin/env bash
# `passlab-cli run` on every corpus model: seeded random inputs (per-model
# arguments in run_args.txt), exit 0 and no NaN or infinity in the printed
# output summaries; models marked "!error TEXT" must fail with TEXT.
# Usage: run_on_corpus.sh CLI DEFAULT_CORPUS_DIR LIST_DIR   (77 = skipped: no corpus)
set -u
cli=$1 corpus=${PASSLAB_CORPUS_DIR:-$2} here=$3
if [ ! -d "$corpus/models" ]; then
  echo "skipped: corpus not found at '$corpus' (set PASSLAB_CORPUS_DIR)"
  exit 77
fi
fail=0 n=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for m in "$corpus"/models/*.onnx; do
  name=$(basename "$m" .onnx)
  n=$((n + 1))
  line=$(grep -E "^$name( |$)" "$here/run_args.txt" | head -1)
  rest=${line#"$name"}
  rest=${rest# }
  if [ "${rest#!error }" != "$rest" ]; then
    want=${rest#!error }
    if "$cli" run "$m" --repeat 1 --warmup 0 > "$out" 2>&1; then
      echo "FAIL: $name ran; expected the error: $want"; fail=1
    elif ! grep -qF -- "$want" "$out"; then
      echo "FAIL: $name: expected the error '$want', got: $(tail -1 "$out")"; fail=1
    else
      echo "ok   $name fails as expected: $want"
    fi
    continue
  fi
  # shellcheck disable=SC2086  # the arguments are words
  args=(${rest//@/$here/inputs/$name})
  if ! "$cli" run "$m" --repeat 1 --warmup 0 "${args[@]}" > "$out" 2>&1; then
    echo "FAIL: $name: $(tail -1 "$out")"; fail=1
  elif grep -E '^output:' "$out" | grep -qiE '(min|max|mean) -?(nan|inf)'; then
    echo "FAIL: $name: non-finite output: $(grep -E '^output:' "$out" | grep -iE 'nan|inf' | head -1)"
    fail=1
  else
    echo "ok   $name: $(grep -E '^latency' "$out")"
  fi
done
echo "run on $n corpus models"
exit $fail
