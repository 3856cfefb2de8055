#!/usr/bin/env bash
# Magnitude pruning and dead-channel removal from the command line, as a user
# runs them: whole channels of winml_squeezenet pruned (prune_magnitude,
# pattern=channel) and then removed with what only they feed
# (remove_dead_channels), each step checked, the saved file checked again and
# smaller in parameters; the sparsity report sees the pruned zeros; a pattern
# the pass does not know is refused naming it, and nothing is written.
# Usage: sparsity.sh CLI CORPUS_DIR   (exit 77 = skipped: no corpus)
set -u
cli=$1
. "$(dirname "${BASH_SOURCE[0]}")/corpus_model.sh"
use_corpus_model "$2" winml_squeezenet.onnx
use_scratch_dir

# The check compares the ZipMap's probabilities (loss[0].values), not only the
# label: a fifth of the channels, which kept the label of these random inputs,
# loses the probabilities (cosine ~0.67) and is rolled back naming them.
if "$cli" optimize "$model" -o "$dir/over.onnx" --passes prune_magnitude \
  --set prune_magnitude.pattern=channel --set prune_magnitude.sparsity=0.2 --check 2 \
  > "$dir/over.log" 2>&1; then
  cat "$dir/over.log"; fail "pruning 20% of the channels passed the default budget"
fi
grep -qF "over the accuracy budget: output 'loss[0].values'" "$dir/over.log" ||
  { cat "$dir/over.log"; fail "the rollback does not name the ZipMap's probabilities"; }
[ ! -e "$dir/over.onnx" ] || fail "a model was written after a rollback error"

# 1% of the channels, under a budget of 15 dB (SNR 17.8 dB, cosine 0.997).
"$cli" optimize "$model" -o "$dir/pruned.onnx" --passes prune_magnitude,remove_dead_channels \
  --set prune_magnitude.pattern=channel --set prune_magnitude.sparsity=0.01 --check 2 \
  --budget-snr 15 > "$dir/run.log" 2>&1 ||
  { cat "$dir/run.log"; fail "prune_magnitude,remove_dead_channels"; }
for want in "layers pruned (channel):" "channels removed from" \
  "outputs within the accuracy budget on 2 input sets"; do
  grep -qF -- "$want" "$dir/run.log" || { cat "$dir/run.log"; fail "no '$want'"; }
done
grep -E "^2 +remove_dead_channels" "$dir/run.log" | grep -q "within budget" ||
  { cat "$dir/run.log"; fail "remove_dead_channels was not checked within budget"; }

# Fewer node weights than the original.
params() { "$cli" info "$1" | sed -n 's/^parameters: *\([0-9,]*\) .*/\1/p' | tr -d ,; }
before=$(params "$model")
after=$(params "$dir/pruned.onnx")
[ -n "$before" ] && [ -n "$after" ] || fail "no parameter line ($before, $after)"
[ "$after" -lt "$before" ] || fail "parameters did not go down: $before -> $after"
echo "parameters: $before -> $after"

# The report sees the zero channels left in the layers whose channels could not go.
"$cli" precision "$dir/pruned.onnx" --sparsity > "$dir/sparsity.log" 2>&1 ||
  { cat "$dir/sparsity.log"; fail "precision --sparsity"; }
grep -qE "output channels all zero" "$dir/sparsity.log" || { cat "$dir/sparsity.log"; fail "no total"; }
grep -qE " [1-9][0-9]* of [0-9]+ output channels all zero" "$dir/sparsity.log" ||
  { cat "$dir/sparsity.log"; fail "no all-zero channels left after pruning"; }

# A pattern the pass does not know: refused by name, nothing written.
if "$cli" optimize "$model" -o "$dir/bad.onnx" --passes prune_magnitude \
  --set prune_magnitude.pattern=4:8 > "$dir/bad.log" 2>&1; then
  cat "$dir/bad.log"; fail "pattern 4:8 was accepted"
fi
grep -qF "pattern '4:8' is not unstructured, 2:4 or channel" "$dir/bad.log" ||
  { cat "$dir/bad.log"; fail "the error does not name the pattern"; }
[ ! -e "$dir/bad.onnx" ] || fail "a model was written after an error"
echo "ok"
