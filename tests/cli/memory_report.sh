#!/usr/bin/env bash
# `run --memory-report FILE` writes the memory plan as JSON, re-checked here
# independently (no two live tensors overlap unless one shares the other's
# buffer; every tensor fits; peak >= lower bound); shapes known only at run
# time are planned from the run and say so; kernel scratch a run asked for
# is planned with the tensors and listed per node; `--memory-limit` below the
# planned peak fails before running, naming the peak and the tensor at it;
# at the peak it runs (on a model whose plan has no in-place reuse).
# Usage: memory_report.sh CLI TEXT_TO_ONNX [CORPUS_DIR]
set -u
cli=$1
text_to_onnx=$2
corpus=${3:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

check_report() {  # FILE PLANNED_AT_RUN_TIME(true|false|any)
  python3 - "$1" "$2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
t = j["totals"]
for k in ("planned_peak_bytes", "lower_bound_bytes", "ratio", "strategy", "planned_at_run_time"):
    assert k in t, k
if sys.argv[2] != "any":
    assert t["planned_at_run_time"] == (sys.argv[2] == "true"), t
assert t["strategy"] in ("greedy-by-size", "greedy-by-breadth", "hill-climb"), t
assert t["strategy_peaks_bytes"][t["strategy"]] == t["planned_peak_bytes"], t
assert min(t["strategy_peaks_bytes"].values()) == t["planned_peak_bytes"], t
peak, bound = t["planned_peak_bytes"], t["lower_bound_bytes"]
assert bound <= peak, t
assert abs(t["ratio"] - (peak / bound if bound else 1.0)) < 1e-9, t
ts = j["tensors"]
assert ts, "no tensors"
by = {x["name"]: x for x in ts}
def root(x):
    while x.get("shares_with"):
        x = by[x["shares_with"]]
    return x["name"]
outputs = {o["name"]: o for o in j["outputs_outside_block"]}
for x in ts:
    for k in ("name", "producer", "bytes", "first_step", "last_step", "offset"):
        assert k in x, (k, x)
    assert x["size"] >= x["bytes"], x
    if "in_output" in x:  # inside an output's buffer: fits, dies before it is written
        o = outputs[x["in_output"]]
        assert x["offset"] + x["size"] <= o["size"] and x["last_step"] < o["first_step"], (x, o)
    else:
        assert x["offset"] + x["size"] <= peak, x
assert t["tensors_in_outputs"] == sum(1 for x in ts if "in_output" in x), t
assert t["planned_peak_bytes"] <= t["planned_peak_without_in_outputs_bytes"], t
for i, a in enumerate(ts):
    for b in ts[i + 1:]:
        if root(a) == root(b) or a["size"] == 0 or b["size"] == 0:
            continue
        if a.get("in_output") != b.get("in_output"):
            continue  # different memory
        live = a["first_step"] <= b["last_step"] and b["first_step"] <= a["last_step"]
        mem = a["offset"] < b["offset"] + b["size"] and b["offset"] < a["offset"] + a["size"]
        assert not (live and mem), (a, b)
# Graph outputs written outside the block (none under a memory limit): their
# bytes, the peak with them, and the bound with them from live_bytes.
out = j["outputs_outside_block"]
assert t["graph_outputs_outside_block"] == len(out), t
assert t["graph_outputs_outside_bytes"] == sum(o["size"] for o in out), t
assert t["peak_with_outputs_bytes"] == peak + t["graph_outputs_outside_bytes"], t
live = list(j["live_bytes"])
inside = j.get("live_bytes_in_outputs", [0] * len(live))
assert len(inside) == len(live), j
live = [a + b for a, b in zip(live, inside)]
for o in out:
    assert o["name"] not in by, o
    for s in range(o["first_step"], len(live)):
        live[s] += o["size"]
# The bound is the most live at one step, or the block's least beside the
# outputs (tensors in the outputs' buffers only where they may go) plus the
# outputs, whichever is more; the block's least is within the block's peak.
bb = t["block_bound_beside_outputs_bytes"]
assert bb <= peak and (bb == 0 or out), t
assert t["lower_bound_with_outputs_bytes"] == max(live + [bb + t["graph_outputs_outside_bytes"]]), t
assert bound <= t["lower_bound_with_outputs_bytes"] <= t["peak_with_outputs_bytes"], t
# Kernel scratch planned with the tensors: one buffer per step, live there
# only, in the tensors above (so the overlap check covers it); the bound
# without it from live_bytes less the scratch.
sc = [x for x in ts if x.get("scratch")]
assert t["scratch_steps"] == len(sc) == len(j["scratch"]), t
assert t["scratch_bytes"] == sum(x["size"] for x in sc), t
for x in sc:
    assert x["first_step"] == x["last_step"], x
assert sorted((s["step"], s["node"], s["bytes"]) for s in j["scratch"]) == \
    sorted((x["first_step"], x["producer"], x["bytes"]) for x in sc), j["scratch"]
plain = list(j["live_bytes"])
for x in sc:
    if "in_output" not in x:
        plain[x["first_step"]] -= x["size"]
assert t["lower_bound_without_scratch_bytes"] == max(plain + [0]), t
assert t["lower_bound_without_scratch_bytes"] <= bound, t
print(peak)
PY
}

cat > "$dir/m.txt" <<'MODEL'
main (float[64,64] X) => (float[64,64] Y) {
  [mm] A = MatMul(X, X)
  [relu] B = Relu(A)
  [sig] C = Sigmoid(B)
  [add] Y = Add(C, A)
}
MODEL
"$text_to_onnx" "$dir/m.txt" "$dir/m.onnx" || fail "cannot write the model"
"$cli" run "$dir/m.onnx" --repeat 1 --memory-report "$dir/r.json" > "$dir/r.out" 2>&1 ||
  { cat "$dir/r.out"; fail "run --memory-report exited non-zero"; }
grep -q "memory plan: planned peak" "$dir/r.out" || { cat "$dir/r.out"; fail "no plan line"; }
check_report "$dir/r.json" false > /dev/null || fail "the memory report of a static model"
python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['totals']; assert t['graph_outputs_outside_block'] == 1, t" \
  "$dir/r.json" || fail "Y is not outside the block"
# A block tensor that dies before the output's step is placed in the output's
# buffer (B, steps 1-2, in Y's): the block holds A and C at one place.
cat > "$dir/c.txt" <<'MODEL'
main (float[64,64] X) => (float[64,64] Y) {
  A = MatMul(X, X)
  B = MatMul(A, A)
  C = MatMul(B, B)
  Y = MatMul(C, C)
}
MODEL
"$text_to_onnx" "$dir/c.txt" "$dir/c.onnx" || fail "cannot write the chain model"
"$cli" run "$dir/c.onnx" --repeat 2 --memory-report "$dir/c.json" > "$dir/c.out" 2>&1 ||
  { cat "$dir/c.out"; fail "run --memory-report of the chain exited non-zero"; }
check_report "$dir/c.json" false > /dev/null || fail "the memory report of the chain"
python3 - "$dir/c.json" <<'PY' || fail "B is not in Y's buffer"
import json, sys
j = json.load(open(sys.argv[1]))
t = j["totals"]
assert t["tensors_in_outputs"] == 1 and t["planned_peak_bytes"] == 16384, t
assert t["planned_peak_without_in_outputs_bytes"] == 32768, t
assert t["peak_with_outputs_bytes"] == t["lower_bound_with_outputs_bytes"] == 32768, t
assert [x["name"] for x in j["tensors"] if x.get("in_output") == "Y"] == ["B"], j["tensors"]
PY
grep -q "1 tensors (16.0 KiB) placed in the outputs' buffers" "$dir/c.out" ||
  { cat "$dir/c.out"; fail "the summary does not name the tensor in Y's buffer"; }
PASSLAB_TENSORS_IN_OUTPUTS=0 "$cli" run "$dir/c.onnx" --repeat 1 --memory-report "$dir/c0.json" > /dev/null 2>&1 ||
  fail "run with PASSLAB_TENSORS_IN_OUTPUTS=0"
python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['totals']; assert t['tensors_in_outputs'] == 0 and t['planned_peak_bytes'] == 32768, t" \
  "$dir/c0.json" || fail "PASSLAB_TENSORS_IN_OUTPUTS=0 still places tensors in the outputs"

# A run with a memory limit copies its outputs: its plan holds them, and the
# limit is checked against that plan.
"$cli" run "$dir/m.onnx" --repeat 1 --memory-limit 1GiB --memory-report "$dir/rl.json" > "$dir/r.out" 2>&1 ||
  { cat "$dir/r.out"; fail "run --memory-limit 1GiB --memory-report exited non-zero"; }
peak=$(check_report "$dir/rl.json" false) || fail "the memory report of a static model, limited"
python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['totals']; assert t['graph_outputs_outside_block'] == 0, t" \
  "$dir/rl.json" || fail "an output is outside the block under a limit"

# Below the planned peak: fails before running, naming the peak and a tensor.
"$cli" run "$dir/m.onnx" --repeat 1 --memory-limit $((peak - 1)) > "$dir/l.out" 2>&1 &&
  fail "--memory-limit below the planned peak was accepted"
grep -q "planned peak" "$dir/l.out" && grep -q "($peak bytes)" "$dir/l.out" ||
  { cat "$dir/l.out"; fail "the error does not name the planned peak ($peak bytes)"; }
grep -qE "the largest of them '[A-Z]'" "$dir/l.out" || { cat "$dir/l.out"; fail "no tensor named"; }
grep -q "latency" "$dir/l.out" && fail "the model ran before the limit was checked"
# At the planned peak the run starts. The executor does not reuse buffers in
# place yet, and its arena keeps enforcing the limit, so this model has no
# in-place opportunity: its plan is what the arena needs.
cat > "$dir/n.txt" <<'MODEL'
main (float[64,64] X) => (float[64,64] Y) {
  A = MatMul(X, X)
  B = MatMul(A, A)
  Y = MatMul(B, A)
}
MODEL
"$text_to_onnx" "$dir/n.txt" "$dir/n.onnx" || fail "cannot write the model"
"$cli" run "$dir/n.onnx" --repeat 1 --memory-limit 1GiB --memory-report "$dir/n.json" > /dev/null 2>&1 ||
  fail "run n.onnx"
npeak=$(check_report "$dir/n.json" false) || fail "the memory report of n.onnx"
"$cli" run "$dir/n.onnx" --repeat 1 --memory-limit "$npeak" > "$dir/ok.out" 2>&1 ||
  { cat "$dir/ok.out"; fail "--memory-limit at the planned peak failed"; }
"$cli" run "$dir/n.onnx" --repeat 1 --memory-limit $((npeak - 1)) > /dev/null 2>&1 &&
  fail "n.onnx: --memory-limit below the planned peak was accepted"
# Sizes with units: KiB/MiB are 1024-based, KB/MB 1000-based; a word is refused.
"$cli" run "$dir/n.onnx" --repeat 1 --memory-limit 1GiB > /dev/null 2>&1 ||
  fail "--memory-limit 1GiB (above the peak) failed"
"$cli" run "$dir/n.onnx" --repeat 1 --memory-limit 1KiB > "$dir/k.out" 2>&1 &&
  fail "--memory-limit 1KiB (below the peak) was accepted"
grep -q "memory limit of 1.0 KiB (1024 bytes)" "$dir/k.out" ||
  { cat "$dir/k.out"; fail "1KiB is not 1024 bytes"; }
"$cli" run "$dir/n.onnx" --repeat 1 --memory-limit 1KB > "$dir/k.out" 2>&1 &&
  fail "--memory-limit 1KB (below the peak) was accepted"
grep -q "(1000 bytes)" "$dir/k.out" || { cat "$dir/k.out"; fail "1KB is not 1000 bytes"; }
"$cli" run "$dir/n.onnx" --repeat 1 --memory-limit lots > "$dir/k.out" 2>&1 &&
  fail "--memory-limit lots was accepted"
grep -q "memory-limit" "$dir/k.out" || { cat "$dir/k.out"; fail "no error naming --memory-limit"; }
# A fraction with a unit (the help's 1.5GB) and a negative number.
"$cli" run "$dir/n.onnx" --repeat 1 --memory-limit 1.5KiB > "$dir/k.out" 2>&1 &&
  fail "--memory-limit 1.5KiB (below the peak) was accepted"
grep -q "(1536 bytes)" "$dir/k.out" || { cat "$dir/k.out"; fail "1.5KiB is not 1536 bytes"; }
"$cli" run "$dir/n.onnx" --repeat 1 --memory-limit 1.5GB > "$dir/k.out" 2>&1 ||
  { cat "$dir/k.out"; fail "--memory-limit 1.5GB (above the peak) failed"; }
"$cli" run "$dir/n.onnx" --repeat 1 --memory-limit -5 > "$dir/k.out" 2>&1 &&
  fail "--memory-limit -5 was accepted"
grep -q "memory-limit" "$dir/k.out" || { cat "$dir/k.out"; fail "no error naming --memory-limit"; }

# Shapes known only at run time: planned from the run's sizes.
cat > "$dir/d.txt" <<'MODEL'
main (float[N,8] X) => (float[N,8] Y) {
  A = Relu(X)
  B = Sigmoid(A)
  Y = Add(A, B)
}
MODEL
"$text_to_onnx" "$dir/d.txt" "$dir/d.onnx" || fail "cannot write the dynamic model"
"$cli" run "$dir/d.onnx" --repeat 1 --dim N=5 --memory-report "$dir/d.json" > "$dir/d.out" 2>&1 ||
  { cat "$dir/d.out"; fail "run --memory-report on a dynamic model exited non-zero"; }
grep -q "planned at run time" "$dir/d.out" || { cat "$dir/d.out"; fail "not said planned at run time"; }
check_report "$dir/d.json" true > /dev/null || fail "the memory report of a dynamic model"

# Kernel scratch (ReduceLogSumExp's two buffers of 64 doubles at step 1,
# where A and B fill the block): recorded by the first run, in the report per
# node and in the summary, planned with the tensors; the executor's later
# runs take it from its planned place, so the arena holds the block alone.
cat > "$dir/x.txt" <<'MODEL'
main (float[64,256] X) => (float[64,1] Y) {
  [neg] A = Neg(X)
  [lse] B = ReduceLogSumExp<axes = [1]>(A)
  [out] Y = Neg(B)
}
MODEL
"$text_to_onnx" "$dir/x.txt" "$dir/x.onnx" || fail "cannot write the scratch model"
"$cli" run "$dir/x.onnx" --repeat 2 --memory-report "$dir/x.json" > "$dir/x.out" 2>&1 ||
  { cat "$dir/x.out"; fail "run --memory-report on the scratch model"; }
check_report "$dir/x.json" false > /dev/null || fail "the memory report of the scratch model"
python3 - "$dir/x.json" <<'PY' || fail "the scratch is not planned, or the arena holds more than the block"
import json, sys
j = json.load(open(sys.argv[1]))
t, e = j["totals"], j["executor"]
assert [(s["step"], s["node"], s["bytes"]) for s in j["scratch"]] == [(1, "lse", 1024)], j["scratch"]
assert t["scratch_steps"] == 1 and t["scratch_bytes"] == 1024, t
a = 64 * 256 * 4 + 64 * 4
assert t["planned_peak_without_scratch_bytes"] == a, t
assert t["planned_peak_bytes"] == t["lower_bound_bytes"] == a + 1024, t
assert t["lower_bound_without_scratch_bytes"] == a and t["ratio_without_scratch"] == 1.0, t
assert e["planned_scratch_bytes"] == 1024 and e["scratch_planned"] == 2 and e["scratch_outside"] == 0, e
assert e["block_bytes"] == a + 1024, e
assert t["executor_arena_peak_bytes"] == e["block_bytes"], (t, e)
PY
grep -q "kernel scratch of 1 steps (1.0 KiB, the largest 1.0 KiB at step 1, lse) planned with the tensors" "$dir/x.out" ||
  { cat "$dir/x.out"; fail "the summary does not give the scratch"; }
# Under a limit (no output outside the block) the summary gives it too.
"$cli" run "$dir/x.onnx" --repeat 2 --memory-limit 1GiB > "$dir/xl.out" 2>&1 ||
  { cat "$dir/xl.out"; fail "run the scratch model under 1GiB"; }
grep -q "memory plan: .*kernel scratch of 1 steps (1.0 KiB" "$dir/xl.out" ||
  { cat "$dir/xl.out"; fail "the summary under a limit does not give the scratch"; }

# Without FILE: the report goes to standard output.
"$cli" run "$dir/m.onnx" --repeat 1 --memory-report > "$dir/s.out" 2>&1 || fail "--memory-report without FILE"
grep -q '"planned_peak_bytes"' "$dir/s.out" || { cat "$dir/s.out"; fail "no report on stdout"; }

# A plan per If / Loop / Scan body, the one it ran on: each body the run compiled, planned and
# checked on its own (its outer values not counted), or why not.
cat > "$dir/b.txt" <<'MODEL'
main (bool[1] c, float[64] x) => (float[64] y) {
  y = If <then_branch = g1 () => (float[64] a) { t = Relu(x)
                                                 u = Sigmoid(t)
                                                 a = Mul(u, t) },
          else_branch = g2 () => (float[64] b) { b = Neg(x) }> (c)
}
MODEL
"$text_to_onnx" "$dir/b.txt" "$dir/b.onnx" || fail "cannot write the If model"
"$cli" run "$dir/b.onnx" --repeat 1 --input c=1 --memory-report "$dir/b.json" > "$dir/b.out" 2>&1 ||
  { cat "$dir/b.out"; fail "run --memory-report on an If model"; }
python3 - "$dir/b.json" <<'PY' || fail "the per-body plans of the If model"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["totals"]["unplanned_subgraph_nodes"] == 1, j["totals"]
bodies = {b["graph"]: b for b in j["bodies"]}
g1 = bodies["g1"]  # the branch that ran: t and u (256 B each) live together, a is the output
assert g1["depth"] == 1 and "not_planned" not in g1, g1
assert g1["lower_bound_bytes"] <= g1["planned_peak_bytes"], g1
assert g1["planned_peak_bytes"] >= 2 * 256, g1
assert g1["tensors"] >= 2, g1
assert g1["ran_on_plan"] is True and g1["sizes"] == "ahead", g1
assert bodies["g2"]["ran_on_plan"] is False and bodies["g2"]["note"] == "not run", bodies["g2"]
assert j["executor"]["bodies"]["on_plan"] == 1 and j["executor"]["bodies"]["in_arena"] == 0, j["executor"]
assert j["executor"]["bodies"]["placed"] == 2, j["executor"]  # t and u; a, the output, is not in the block
PY

# Transparent huge pages: off for run's process with --no-huge-pages; left
# as they were without it (where the process started with them allowed).
thp() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["transparent_huge_pages"])' "$1"; }
"$cli" run "$dir/m.onnx" --repeat 1 --json --no-huge-pages > "$dir/t.json" 2> "$dir/t.err" ||
  fail "run --no-huge-pages"
[ "$(thp "$dir/t.json")" = "False" ] || { cat "$dir/t.json"; fail "--no-huge-pages left them on"; }
if [ "$(python3 -c 'import ctypes; print(ctypes.CDLL(None).prctl(42, 0, 0, 0, 0))')" = "0" ]; then
  "$cli" run "$dir/m.onnx" --repeat 1 --json > "$dir/h.json" 2> "$dir/h.err" || fail "run --json"
  [ "$(thp "$dir/h.json")" = "True" ] || { cat "$dir/h.json"; fail "run turned them off"; }
fi

# Two corpus CNNs, when the corpus is there.
if [ -n "$corpus" ] && [ -d "$corpus/models" ]; then
  for m in onnx_light_squeezenet super_resolution; do
    [ -f "$corpus/models/$m.onnx" ] || continue
    "$cli" run "$corpus/models/$m.onnx" --repeat 1 --warmup 0 --memory-report "$dir/$m.json" \
      > "$dir/$m.out" 2>&1 || { cat "$dir/$m.out"; fail "$m: run --memory-report"; }
    check_report "$dir/$m.json" any > /dev/null || fail "$m: the memory report"
  done
fi
echo "ok"
