#!/usr/bin/env bash
# `passes --json` prints the registered passes in the catalog's format, and the
# compiled-in catalog (core/passes/pass_catalog.json) reads back to exactly
# that text: a misspelt or unknown field, which the reader would pass over,
# or an entry in another form shows up as a difference here.
# Usage: passes_json.sh CLI CATALOG_JSON
set -u
cli=$1
catalog=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$cli" passes --json > "$out" || { echo "FAIL: passes --json exited non-zero"; exit 1; }
python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$out" ||
  { echo "FAIL: passes --json is not JSON"; exit 1; }
diff -u "$catalog" "$out" || {
  echo "FAIL: the catalog differs from what the passes read from it (above; - file, + read)"
  exit 1
}
echo "ok: $(grep -c '"id":' "$out") passes, the catalog as read"
