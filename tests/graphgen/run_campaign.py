#!/usr/bin/env python3
"""Differential testing campaign: random valid graphs (graphgen.py) through PassLab and onnxruntime.

For each graph (SEED, i), i = 0, 1, ...:
  1. onnxruntime (CPU, ORT_DISABLE_ALL) runs it on seeded inputs: the reference.
  2. `passlab run` runs it on the same inputs (.npy); outputs compared with the reference.
  3. for every LEVEL: `passlab optimize --level LEVEL --check 2` (PassLab's per-pass numeric
     check), then the optimized file is run by `passlab run` and, when onnxruntime can load
     it (basic, default, ort: standard ONNX or com.microsoft ops), by onnxruntime; both
     compared with the reference.
Outputs agree when |got - ref| <= atol + rtol * |ref| elementwise, NaNs in the same places
(float32: rtol 1e-3, atol 1e-4).

Failure kinds (PassLab's unless said):
  run-crash / run-error / run-mismatch              `passlab run` on the original
  optimize-crash / optimize-timeout / optimize-error / check-fail   `passlab optimize`
  opt-run-mismatch / opt-run-error                  `passlab run` on the optimized file
  opt-ort-mismatch / opt-ort-refuses                onnxruntime on the optimized file
Not PassLab's: generator-bug (an invalid graph: graphgen.py's fault), ort-refuses
(onnxruntime cannot run the original: its limitation or a generator bug).
A failing graph is kept in OUT/failures/KIND/ (model, inputs, log), reduced where easy
(single outputs, then nodes bypassed while the same kind still fails).
OUT/summary.json and OUT/summary.md: graphs, time, ops covered, failures by kind.
Exit 1 when any PassLab failure was found, 0 otherwise.

--plant wrong-output adds 1 to the first element of `passlab run`'s first output before the
comparison: the campaign must then fail (run-mismatch); the ctest checks that it does.

  run_campaign.py --cli PASSLAB [--count N | --seconds S] [--seed S] [--out DIR]
                  [--levels basic,default,fused,ort,all] [--plant wrong-output]
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
import onnxruntime as ort

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import graphgen  # noqa: E402

RTOL, ATOL = 1e-3, 1e-4
ORT_LEVELS = ("basic", "default", "ort")  # what onnxruntime can load after optimizing
NONSTANDARD = ("fused", "ort", "all")
PASSLAB_KINDS = ("run-crash", "run-error", "run-mismatch", "optimize-crash", "optimize-timeout",
                 "optimize-error", "check-fail", "opt-run-mismatch", "opt-run-error",
                 "opt-ort-mismatch", "opt-ort-refuses")
TIMEOUT = 60
# A step line of `passlab optimize`: "#  pass  N -> M  changes ...".
STEP_LINE = re.compile(r"^(\d+)\s+(\w+)\s+(\d+) -> (\d+)\s+(.*)$", re.M)
FIRED = collections.Counter()  # pass id -> graph-levels where it changed something


def compare(ref, got):
    """None when the outputs agree, else a one-line reason."""
    if len(ref) != len(got):
        return f"{len(got)} outputs, expected {len(ref)}"
    for k, (r, g) in enumerate(zip(ref, got)):
        r, g = np.asarray(r), np.asarray(g)
        if r.shape != g.shape:
            return f"output {k}: shape {g.shape}, expected {r.shape}"
        if r.dtype.kind == "f":
            rf, gf = r.astype(np.float64), g.astype(np.float64)
            nan_r, nan_g = np.isnan(rf), np.isnan(gf)
            if (nan_r != nan_g).any():
                return f"output {k}: NaNs differ"
            bad = ~nan_r & (np.abs(gf - rf) > ATOL + RTOL * np.abs(rf))
            bad |= ~nan_r & (np.isinf(rf) != np.isinf(gf))
            if bad.any():
                i = np.unravel_index(np.argmax(np.where(bad, np.abs(gf - rf), -1)), r.shape)
                return (f"output {k}: {int(bad.sum())}/{r.size} elements differ, "
                        f"e.g. at {tuple(int(x) for x in i)}: {gf[i]:.6g} vs {rf[i]:.6g}")
        elif not np.array_equal(r, g):
            return f"output {k}: values differ"
    return None


def ort_run(path, feeds):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.intra_op_num_threads = 1
    so.log_severity_level = 3
    sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


def sh(cmd, timeout=TIMEOUT):
    """(returncode, output); returncode None on timeout, negative on a signal."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        return None, (e.stdout or b"").decode(errors="replace")


def input_args(d, feeds, model=None):
    args = []
    for k, v in (graphgen.sym_dims(model) if model is not None else {}).items():
        args += ["--dim", f"{k}={v}"]
    for name in feeds:
        args += ["--input", f"{name}={os.path.join(d, name + '.npy')}"]
    return args


def passlab_run(cli, model, d, feeds, tag, plant=None, proto=None):
    """('ok', outputs) or (kind-suffix, log)."""
    od = os.path.join(d, "run-" + tag)
    shutil.rmtree(od, ignore_errors=True)
    rc, log = sh([cli, "run", model, "--repeat", "1", "--warmup", "0", "--threads", "1",
                  "--save-outputs", od] + input_args(d, feeds, proto))
    if rc is None or rc < 0:
        return "crash", log
    if rc != 0:
        return "error", log
    with open(os.path.join(od, "outputs.json")) as f:
        meta = json.load(f)
    outs = [np.load(os.path.join(od, o["file"])) for o in meta["outputs"]]
    if plant == "wrong-output" and outs and outs[0].size:
        outs[0] = outs[0].copy()
        outs[0].flat[0] += 1
    return "ok", outs


class Case:
    """One graph in a scratch folder: the checks, each giving a failure kind or None."""

    def __init__(self, args, model, feeds, d):
        self.args, self.model, self.feeds, self.d = args, model, feeds, d
        self.path = os.path.join(d, "model.onnx")
        onnx.save(model, self.path)
        for k, v in feeds.items():
            np.save(os.path.join(d, k + ".npy"), v)
        self.ref = None

    def reference(self):
        try:
            self.ref = ort_run(self.path, self.feeds)
            return None, ""
        except Exception as e:  # noqa: BLE001
            return "ort-refuses", " ".join(str(e).split())[:500]

    def run(self):
        st, res = passlab_run(self.args.cli, self.path, self.d, self.feeds, "orig", self.args.plant,
                              self.model)
        if st != "ok":
            return "run-" + st, res
        why = compare(self.ref, res)
        return ("run-mismatch", why) if why else (None, "")

    def optimize(self, level):
        """Every failure of this level: a list of (kind, detail)."""
        out = os.path.join(self.d, f"opt-{level}.onnx")
        cmd = [self.args.cli, "optimize", self.path, "--level", level, "--check", "2", "-o", out]
        if level in NONSTANDARD:
            cmd.append("--allow-nonstandard")
        rc, log = sh(cmd + input_args(self.d, self.feeds, self.model))
        if rc is None:
            return [("optimize-timeout", f"--level {level}: over {TIMEOUT} s")]
        if rc < 0:
            return [("optimize-crash", f"--level {level}: signal {-rc}\n{log[-1500:]}")]
        if rc != 0:
            kind = "check-fail" if "changed the outputs" in log else "optimize-error"
            lines = [l for l in log.splitlines() if "FAILED" in l or l.startswith("error")]
            return [(kind, f"--level {level}: " + "\n".join(lines[-6:] or log.splitlines()[-6:]))]
        for m in STEP_LINE.finditer(log):
            if m.group(3) != m.group(4) or "removed" in m.group(5) or "added" in m.group(5):
                FIRED[m.group(2)] += 1
        fails = []
        st, res = passlab_run(self.args.cli, out, self.d, self.feeds, "opt-" + level, None, self.model)
        if st != "ok":
            fails.append(("opt-run-error", f"--level {level}: {res[-800:]}"))
        elif (why := compare(self.ref, res)):
            fails.append(("opt-run-mismatch", f"--level {level}: {why}"))
        if level in ORT_LEVELS:
            try:
                got = ort_run(out, self.feeds)
                if (why := compare(self.ref, got)):
                    fails.append(("opt-ort-mismatch", f"--level {level}: {why}"))
            except Exception as e:  # noqa: BLE001
                fails.append(("opt-ort-refuses", f"--level {level}: " + " ".join(str(e).split())[:500]))
        return fails

    def check_all(self):
        kind, why = self.reference()
        if kind:
            return [(kind, why)]
        fails = []
        kind, why = self.run()
        if kind:
            fails.append((kind, why))
        for level in self.args.levels:
            fails += self.optimize(level)
        return fails


def still_fails(args, model, feeds, kind, level):
    d = tempfile.mkdtemp(prefix="gg-min-")
    try:
        c = Case(args, model, feeds, d)
        if c.reference()[0]:
            return False
        if kind.startswith("run-"):
            return c.run()[0] == kind
        return any(k == kind for k, _ in c.optimize(level))
    except Exception:  # noqa: BLE001
        return False
    finally:
        shutil.rmtree(d, ignore_errors=True)


def prune(model):
    """Drop nodes no output depends on, and unused initializers and inputs."""
    g = model.graph
    need = {o.name for o in g.output}
    keep = []
    for n in reversed(list(g.node)):
        if any(o in need for o in n.output):
            keep.append(n)
            need.update(i for i in n.input if i)
    del g.node[:]
    g.node.extend(reversed(keep))
    inits = [t for t in g.initializer if t.name in need]
    del g.initializer[:]
    g.initializer.extend(inits)
    ins = [i for i in g.input if i.name in need]
    if ins:
        del g.input[:]
        g.input.extend(ins)
    return model


def minimize(args, model, feeds, kind, detail, budget=40):
    level = detail.split()[1].rstrip(":") if detail.startswith("--level") else None
    tries = 0
    # One output at a time.
    outs = list(model.graph.output)
    if len(outs) > 1:
        for o in outs:
            m = onnx.ModelProto()
            m.CopyFrom(model)
            del m.graph.output[:]
            m.graph.output.extend([o])
            prune(m)
            tries += 1
            if still_fails(args, m, {k: v for k, v in feeds.items() if k in {i.name for i in m.graph.input}},
                           kind, level):
                model = m
                break
    # Bypass nodes whose output has the type and shape of one of their inputs.
    changed = True
    while changed and tries < budget:
        changed = False
        inferred = onnx.shape_inference.infer_shapes(model)
        types = {v.name: v.type for v in list(inferred.graph.value_info) + list(inferred.graph.input)
                 + list(inferred.graph.output)}
        types.update({t.name: onnx.helper.make_tensor_type_proto(t.data_type, t.dims) for t in
                      model.graph.initializer})
        for idx in reversed(range(len(model.graph.node))):
            n = model.graph.node[idx]
            if len(n.output) != 1 or n.output[0] not in types:
                continue
            src = next((i for i in n.input if i in types and types[i] == types[n.output[0]]
                        and i not in {t.name for t in model.graph.initializer}), None)
            if src is None:
                continue
            m = onnx.ModelProto()
            m.CopyFrom(model)
            out = n.output[0]
            del m.graph.node[idx]
            for other in m.graph.node:
                for j, i in enumerate(other.input):
                    if i == out:
                        other.input[j] = src
            for o in m.graph.output:
                if o.name == out:
                    o.name = src
            if len({o.name for o in m.graph.output}) != len(m.graph.output) or src in {
                    i.name for i in m.graph.input} and out in {o.name for o in model.graph.output}:
                continue
            prune(m)
            tries += 1
            if still_fails(args, m, {k: v for k, v in feeds.items() if k in {i.name for i in m.graph.input}},
                           kind, level):
                model, changed = m, True
                break
            if tries >= budget:
                break
    return model


def keep_failure(args, kind, detail, model, feeds, seed, i):
    d = os.path.join(args.out, "failures", kind, f"g{seed}_{i}")
    os.makedirs(d, exist_ok=True)
    onnx.save(model, os.path.join(d, "model.onnx"))
    for k, v in feeds.items():
        np.save(os.path.join(d, k + ".npy"), v)
    small = model
    if args.minimize:
        small = minimize(args, model, feeds, kind, detail)
        onnx.save(small, os.path.join(d, "min.onnx"))
    with open(os.path.join(d, "log.txt"), "w") as f:
        f.write(f"graph ({seed}, {i}) {kind}\n{detail}\n")
        f.write(f"minimized: {len(model.graph.node)} -> {len(small.graph.node)} nodes: "
                f"{', '.join(n.op_type for n in small.graph.node)}\n")
    return len(small.graph.node)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=0, help="stop after this long (overrides --count)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--out", default="graphgen-out")
    ap.add_argument("--levels", default="basic,default,fused,ort,all")
    ap.add_argument("--plant", choices=["wrong-output"])
    ap.add_argument("--minimize", action="store_true")
    ap.add_argument("--float16", action="store_true", help="the graphs in float16 (rtol 1e-2, atol 1e-3)")
    ap.add_argument("--rtol", type=float)
    ap.add_argument("--atol", type=float)
    ap.add_argument("--nops", type=int, help="op generators applied per graph (default 3-12, random)")
    args = ap.parse_args()
    args.levels = [l for l in args.levels.split(",") if l]
    globals().update(RTOL=args.rtol or (1e-2 if args.float16 else RTOL),
                     ATOL=args.atol or (1e-3 if args.float16 else ATOL))
    os.makedirs(args.out, exist_ok=True)
    t0 = time.time()
    ops = collections.Counter()
    kinds = collections.Counter()
    failures = []
    i, n = args.start, 0
    while True:
        if args.seconds > 0:
            if time.time() - t0 > args.seconds:
                break
        elif n >= args.count:
            break
        try:
            model = graphgen.make(args.seed, i, nops=args.nops)
            if args.float16:
                model = graphgen.to_float16(model)
        except graphgen.GeneratorBug as e:
            kinds["generator-bug"] += 1
            failures.append({"graph": [args.seed, i], "kind": "generator-bug", "detail": str(e)[:500]})
            i, n = i + 1, n + 1
            continue
        feeds = graphgen.inputs(model, args.seed, i)
        if args.float16:
            feeds = {k: v.astype(np.float16) for k, v in feeds.items()}
        ops.update(graphgen.ops_of(model))
        d = tempfile.mkdtemp(prefix="gg-")
        try:
            fails = Case(args, model, feeds, d).check_all()
        finally:
            shutil.rmtree(d, ignore_errors=True)
        seen = set()
        for kind, detail in fails:
            kinds[kind] += 1
            rec = {"graph": [args.seed, i], "kind": kind, "detail": detail,
                   "ops": graphgen.ops_of(model), "opset": model.opset_import[0].version}
            if kind not in seen and kind != "ort-refuses":
                seen.add(kind)
                rec["kept_nodes"] = keep_failure(args, kind, detail, model, feeds, args.seed, i)
            failures.append(rec)
            print(f"graph ({args.seed}, {i}) {kind}: {detail.splitlines()[0] if detail else ''}", flush=True)
        i, n = i + 1, n + 1
        if n % 50 == 0:
            print(f"{n} graphs, {time.time() - t0:.0f} s, failures so far: {dict(kinds) or 'none'}", flush=True)
    secs = time.time() - t0
    passlab_fails = sum(v for k, v in kinds.items() if k in PASSLAB_KINDS)
    summary = {"graphs": n, "seed": args.seed, "first_index": args.start, "seconds": round(secs, 1),
               "levels": args.levels, "ops_covered": dict(sorted(ops.items())),
               "passes_fired": dict(sorted(FIRED.items())),
               "failures_by_kind": dict(kinds), "passlab_failures": passlab_fails, "failures": failures}
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(f"# graphgen campaign\n\n{n} graphs (seed {args.seed}, from {args.start}), {secs:.0f} s, "
                f"levels {', '.join(args.levels)}\n\n{len(ops)} op types: "
                + ", ".join(f"{k} {v}" for k, v in sorted(ops.items())) + f"\n\n{len(FIRED)} passes changed a graph "
                "(graph-levels): " + ", ".join(f"{k} {v}" for k, v in sorted(FIRED.items()))
                + "\n\n## Failures by kind\n\n")
        for k, v in sorted(kinds.items()):
            f.write(f"- {k}: {v}{'' if k in PASSLAB_KINDS else ' (not PassLab)'}\n")
        f.write("\n## Failures\n\n")
        for r in failures:
            f.write(f"- ({r['graph'][0]}, {r['graph'][1]}) {r['kind']}: "
                    f"{r['detail'].splitlines()[0] if r['detail'] else ''}\n")
    print(f"{n} graphs in {secs:.1f} s, {len(ops)} op types; failures: "
          + (", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) or "none"))
    return 1 if passlab_fails else 0


if __name__ == "__main__":
    sys.exit(main())
