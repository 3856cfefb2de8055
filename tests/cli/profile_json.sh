#!/usr/bin/env bash
# `profile --json` prints valid JSON with a row per node and the overhead;
# `run --profile --json` has one row per node with its median over the runs
# with per-node timing, and a total that is the sum of the main-graph rows;
# `--memory-limit` refuses a run that would pass it, naming the node;
# `--level basic --json` compares (`--level fused` runs the non-standard passes
# only with --allow-nonstandard); a bad --input is an error naming it.
# Usage: profile_json.sh CLI TEXT_TO_ONNX
set -u
cli=$1
text_to_onnx=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$dir/m.txt" <<'MODEL'
main (float[64,64] X) => (float[64,64] Y) {
  [mm] A = MatMul(X, X)
  [id] B = Identity(A)
  [relu] Y = Relu(B)
}
MODEL
"$text_to_onnx" "$dir/m.txt" "$dir/m.onnx" || fail "cannot write the model"
"$cli" profile "$dir/m.onnx" --threads 1 --repeat 3 --json > "$dir/p.json" 2> "$dir/p.err" ||
  { cat "$dir/p.err"; fail "profile --json exited non-zero"; }
python3 - "$dir/p.json" <<'PY' || fail "profile --json output"
import json, sys
j = json.load(open(sys.argv[1]))
assert len(j["nodes"]) == 3, j["nodes"]
for k in ("latency", "overhead_ms", "cpu_model", "threads", "timer_resolution_ns"):
    assert k in j, k
PY
"$cli" run "$dir/m.onnx" --threads 1 --repeat 4 --profile --json > "$dir/r.json" 2> "$dir/r.err" ||
  { cat "$dir/r.err"; fail "run --profile --json exited non-zero"; }
python3 - "$dir/r.json" <<'PY' || fail "run --profile --json output"
import json, sys
j = json.load(open(sys.argv[1]))
rows = j["profile"]
assert sorted(r["name"] for r in rows) == ["id", "mm", "relu"], rows
assert all(r["samples"] == 4 and r["calls"] == 1 for r in rows), rows
t = j["profile_total"]
assert t["runs"] == 4 and j["latency_ms"]["runs"] == 4, (t, j["latency_ms"])
total = sum(r["median_ms"] for r in rows if r["depth"] == 0)
assert abs(t["node_sum_ms"] - total) <= 1e-9 * max(total, 1), (t, total)
assert abs(sum(r["share"] for r in rows) - 1) < 1e-9, rows
assert 0 <= t["outside_nodes_ms"] <= t["profiled_latency_ms"]["median"], t
assert t["run_node_sums_ms"] >= sum(r["min_ms"] for r in rows if r["depth"] == 0) * (1 - 1e-12), t
PY
"$cli" profile "$dir/m.onnx" --threads 1 --repeat 3 --level basic --json > "$dir/c.json" ||
  fail "profile --level basic --json exited non-zero"
python3 - "$dir/c.json" <<'PY' || fail "profile --level --json output"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["matching"] == "provenance"
assert any(g["kind"] == "removed" for g in j["groups"]), j["groups"]
PY
"$cli" profile "$dir/m.onnx" --input nonesuch=1 > "$dir/bad.out" 2>&1 && fail "a bad --input was accepted"
grep -q "nonesuch" "$dir/bad.out" || { cat "$dir/bad.out"; fail "the error does not name the input"; }
# --level fused without --allow-nonstandard skips (and names) the passes that
# emit non-standard ops, as optimize does; with it they run.
"$cli" profile "$dir/m.onnx" --threads 1 --repeat 3 --level fused --json > "$dir/f.json" 2> "$dir/f.err" ||
  { cat "$dir/f.err"; fail "profile --level fused exited non-zero"; }
grep -q "allow-nonstandard" "$dir/f.err" || { cat "$dir/f.err"; fail "the skipped passes are not named"; }
"$cli" profile "$dir/m.onnx" --threads 1 --repeat 3 --level fused --allow-nonstandard --json \
  > "$dir/fn.json" 2> "$dir/fn.err" || { cat "$dir/fn.err"; fail "--allow-nonstandard exited non-zero"; }
grep -q "allow-nonstandard" "$dir/fn.err" && { cat "$dir/fn.err"; fail "passes skipped with --allow-nonstandard"; }
# --node with --compare: a node with a twin of the same op and outputs in the
# original is benchmarked against it (the model against itself: no difference).
"$cli" profile "$dir/m.onnx" --threads 1 --repeat 3 --compare "$dir/m.onnx" --node mm --json \
  > "$dir/n.json" 2> "$dir/n.err" || { cat "$dir/n.err"; fail "--compare --node exited non-zero"; }
python3 - "$dir/n.json" <<'PY' || fail "--compare --node output"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["node"] == "mm" and j["original_nodes"] == ["mm"], j
assert j["max_abs_difference"] == 0, j["max_abs_difference"]
PY
"$cli" profile "$dir/m.onnx" --compare "$dir/m.onnx" --node nonesuch > "$dir/nn.out" 2>&1 &&
  fail "--node of a missing node was accepted"
grep -q "nonesuch" "$dir/nn.out" || { cat "$dir/nn.out"; fail "the error does not name the node"; }
# A run that would pass --memory-limit is refused (before the runs: the plan's
# step) with an error naming the node; no output is printed as if it ran.
"$cli" profile "$dir/m.onnx" --threads 1 --repeat 3 --memory-limit 1000 > "$dir/mem.out" 2> "$dir/mem.err" &&
  fail "a run over --memory-limit was accepted"
grep -q "memory limit" "$dir/mem.err" || { cat "$dir/mem.err"; fail "the error does not name the memory limit"; }
grep -Eq "mm|MatMul" "$dir/mem.err" || { cat "$dir/mem.err"; fail "the error does not name the node"; }
[ -s "$dir/mem.out" ] && { cat "$dir/mem.out"; fail "a failed profile printed results"; }
# Each step's threads and how they were chosen (issue #26): a heavy MatMul and
# a tiny Relu at 2 threads with the split limit forced both ways through the
# environment, then at 1 thread.
cat > "$dir/t.txt" <<'MODEL'
main (float[512,256] X, float[256,256] W, float[3] C) => (float[512,256] Y, float[3] Z) {
  [heavy] Y = MatMul(X, W)
  [tiny] Z = Relu(C)
}
MODEL
"$text_to_onnx" "$dir/t.txt" "$dir/t.onnx" || fail "cannot write the threads model"
for limit in 0 1e12; do
  PASSLAB_SMALL_STEP_MICROS=$limit "$cli" run "$dir/t.onnx" --threads 2 --repeat 2 --profile --json \
    > "$dir/t$limit.json" 2> "$dir/t.err" || { cat "$dir/t.err"; fail "run --profile at 2 threads"; }
  PASSLAB_SMALL_STEP_MICROS=$limit "$cli" profile "$dir/t.onnx" --threads 2 --repeat 2 --json \
    > "$dir/tp$limit.json" 2> "$dir/t.err" || { cat "$dir/t.err"; fail "profile at 2 threads"; }
  PASSLAB_SMALL_STEP_MICROS=$limit "$cli" run "$dir/t.onnx" --threads 2 --repeat 2 --profile \
    > "$dir/t$limit.txt" 2> "$dir/t.err" || { cat "$dir/t.err"; fail "run --profile text"; }
  PASSLAB_SMALL_STEP_MICROS=$limit "$cli" profile "$dir/t.onnx" --threads 2 --repeat 2 \
    > "$dir/tp$limit.txt" 2> "$dir/t.err" || { cat "$dir/t.err"; fail "profile text"; }
done
"$cli" run "$dir/t.onnx" --threads 1 --repeat 2 --profile --json > "$dir/t1.json" 2> "$dir/t.err" ||
  { cat "$dir/t.err"; fail "run --profile at 1 thread"; }
"$cli" profile "$dir/t.onnx" --threads 1 --repeat 2 --json > "$dir/tp1.json" 2> "$dir/t.err" ||
  { cat "$dir/t.err"; fail "profile at 1 thread"; }
python3 - "$dir" <<'PY' || fail "threads per step in the JSON"
import json, sys
d = sys.argv[1]
def rows(name):
    j = json.load(open(f"{d}/{name}.json"))
    if "profile" in j:
        return {r["name"]: r for r in j["profile"]}, j["profile_total"]["step_threads"]
    return {r["name"]: r for r in j["nodes"]}, j["step_threads"]
for run in ("t", "tp"):
    for limit, threads, split in (("0", 2, 2), ("1e12", 1, 0)):
        r, summary = rows(run + limit)
        for name in ("heavy", "tiny"):
            assert r[name]["threads"] == threads, (run, limit, r[name])
            assert r[name]["thread_choice"] == "fixed_by_env", (run, limit, r[name])
            assert "trial_one_thread_ms" not in r[name], r[name]
        assert summary == {"steps": 2, "split": split, "trials_decided": 0}, (run, limit, summary)
    r, summary = rows(run + "1")
    for name in ("heavy", "tiny"):
        assert r[name]["threads"] == 1 and r[name]["thread_choice"] == "one_thread_run", r[name]
    assert summary == {"steps": 2, "split": 0, "trials_decided": 0}, summary
PY
for run in t tp; do
  grep -q "steps split: 2 of 2 (trials decided: 0)" "$dir/${run}0.txt" ||
    { cat "$dir/${run}0.txt"; fail "$run: no split summary at limit 0"; }
  grep -q "steps split: 0 of 2 (trials decided: 0)" "$dir/${run}1e12.txt" ||
    { cat "$dir/${run}1e12.txt"; fail "$run: no split summary at a huge limit"; }
  grep -Eq "heavy +.* 2 env \(PASSLAB_SMALL_STEP_MICROS\)$" "$dir/${run}0.txt" ||
    { cat "$dir/${run}0.txt"; fail "$run: the heavy step's threads column at limit 0"; }
  grep -Eq "heavy +.* 1 env \(PASSLAB_SMALL_STEP_MICROS\)$" "$dir/${run}1e12.txt" ||
    { cat "$dir/${run}1e12.txt"; fail "$run: the heavy step's threads column at a huge limit"; }
done
echo "ok"
