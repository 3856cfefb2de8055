#!/usr/bin/env bash
# `passlab-cli info` (text and --json) exits 0 on every corpus model, the
# node counts it reports match MANIFEST.tsv, and where the file's shapes leave
# costs unknown the estimate at the made-up input shapes knows more.
# Usage: info_on_corpus.sh CLI CORPUS_DIR   (exit 77 = skipped: no corpus)
set -u
cli=$1
corpus=${PASSLAB_CORPUS_DIR:-$2}
if [ ! -d "$corpus/models" ]; then
  echo "corpus not found at $corpus: skipped (set PASSLAB_CORPUS_DIR)"
  exit 77
fi
fail=0 n=0
for m in "$corpus"/models/*.onnx; do
  n=$((n + 1))
  if ! "$cli" info "$m" > /dev/null 2> /tmp/info.err.$$; then
    echo "FAIL: info $m: $(cat /tmp/info.err.$$)"; fail=1
  fi
  # Valid JSON, and the node counts in the file are those MANIFEST.tsv lists.
  if ! "$cli" info --json "$m" | python3 -c '
import csv, json, os, sys
j = json.load(sys.stdin)
name = "models/" + os.path.basename(sys.argv[1])
with open(sys.argv[2]) as f:
    row = next((r for r in csv.DictReader(f, delimiter="	") if r["file"] == name), None)
if row is None:
    sys.exit(f"{name} is not in MANIFEST.tsv")
got = (j["nodes"]["in_file"], j["nodes"]["in_file_incl_subgraphs"])
want = (int(row["node_count"]), int(row["nodes_incl_subgraphs"]))
if got != want:
    sys.exit(f"node counts {got} differ from MANIFEST.tsv {want}")
# A file whose shapes leave costs unknown is costed at the made-up inputs
# too, and that estimate knows more, not less.
flops = j["flops"]
made_up = flops.get("at_made_up_inputs")
if made_up is not None and (made_up["nodes_with_unknown_cost"] > flops["nodes_with_unknown_cost"]
                            or made_up["estimate"] < flops["estimate"]):
    sys.exit(f"the cost at the made-up inputs {made_up} knows less than the one of the file shapes {flops}")
' "$m" "$corpus/MANIFEST.tsv" 2> /tmp/info.err.$$; then
    echo "FAIL: info --json $m: $(tail -1 /tmp/info.err.$$)"; fail=1
  fi
done
rm -f /tmp/info.err.$$
echo "info ran on $n corpus models; node counts checked against MANIFEST.tsv"
exit $fail
