#!/usr/bin/env python3
"""Does onnxruntime load and run what PassLab saved, with the original's outputs?

For each (original, optimized) pair in PAIRS (a pairs.tsv written by
tests/cli/optimize_on_corpus.sh with KEEP_DIR: name, original, optimized, and
the --dim NAME=N / --input NAME=V arguments the optimize check used), creates an
onnxruntime InferenceSession (CPU, graph optimizations disabled, so onnxruntime's
own optimizer masks nothing) for both files, feeds both the same seeded random
inputs, and compares the outputs.

Inputs: floats uniform in [-1, 1), integers in [0, 4), bools random, each with
seed 0 per model; a --input NAME=V fills that input with V; a symbolic dim named
by --dim takes that value, any other dynamic dim 1.

Outputs agree when |opt - orig| <= atol + rtol * |orig| elementwise (NaNs in the
same places), with rtol 1e-3, atol 1e-4 for float32/float64, rtol 1e-2,
atol 1e-3 for float16, and exactly for integers, bools and strings.

Verdicts:
  ok            both load and run, the outputs agree
  FAIL load     onnxruntime refuses the optimized file but loads the original
  FAIL run      the optimized file fails to run, the original runs
  FAIL outputs  the outputs differ (or are missing)
  original refused / original fails to run: onnxruntime cannot use the original
                either; listed with its reason, not a failure
Exit 0 when no model FAILs, 1 otherwise. Developer tooling: onnxruntime comes
from PyPI (into a venv the test owns) and is never a dependency of PassLab.

  ort_load_check.py PAIRS [--markdown FILE] [--threads N]
"""
import argparse
import sys
import time

import numpy as np
import onnxruntime as ort

TOL = {
    np.dtype(np.float32): (1e-3, 1e-4),
    np.dtype(np.float64): (1e-3, 1e-4),
    np.dtype(np.float16): (1e-2, 1e-3),
}

NP_OF = {
    "tensor(float)": np.float32, "tensor(float16)": np.float16, "tensor(double)": np.float64,
    "tensor(int64)": np.int64, "tensor(int32)": np.int32, "tensor(int16)": np.int16,
    "tensor(int8)": np.int8, "tensor(uint8)": np.uint8, "tensor(uint16)": np.uint16,
    "tensor(uint32)": np.uint32, "tensor(uint64)": np.uint64, "tensor(bool)": np.bool_,
}


def first_line(e):
    s = str(e).strip()
    # onnxruntime's messages: "[ONNXRuntimeError] : 1 : FAIL : Load model ... failed:REASON"
    return " ".join(s.split())[:400]


def parse_args(text):
    dims, fixed = {}, {}
    words = text.split()
    for flag, val in zip(words[::2], words[1::2]):
        k, _, v = val.partition("=")
        if flag == "--dim":
            dims[k] = int(v)
        elif flag == "--input":
            fixed[k] = float(v)
    return dims, fixed


def make_inputs(sess, dims, fixed, seed=0):
    rng = np.random.RandomState(seed)
    feeds = {}
    for i in sess.get_inputs():
        if i.type not in NP_OF:
            raise RuntimeError(f"input {i.name} has type {i.type}, which this check cannot make")
        dt = NP_OF[i.type]
        shape = []
        for d in i.shape or []:
            if isinstance(d, int) and d >= 0:
                shape.append(d)
            else:
                shape.append(dims.get(d, 1) if isinstance(d, str) else 1)
        if i.name in fixed:
            v = np.full(shape, fixed[i.name]).astype(dt)
        elif dt == np.bool_:
            v = rng.randint(0, 2, size=shape).astype(np.bool_)
        elif np.issubdtype(dt, np.integer):
            v = rng.randint(0, 4, size=shape).astype(dt)
        else:
            v = rng.uniform(-1, 1, size=shape).astype(dt)
        feeds[i.name] = v
    return feeds


def session(path, threads):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.log_severity_level = 4
    return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])


def compare(a, b):
    """(equal, max abs diff) of the optimized output a against the original's b."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False, f"shape {list(a.shape)} vs {list(b.shape)}"
    if a.dtype != b.dtype:
        return False, f"type {a.dtype} vs {b.dtype}"
    if a.size == 0:
        return True, 0.0
    if a.dtype in TOL:
        rtol, atol = TOL[a.dtype]
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        nan = np.isnan(a64) | np.isnan(b64)
        if (np.isnan(a64) != np.isnan(b64)).any():
            return False, "NaN in different places"
        d = np.where(nan, 0.0, np.abs(a64 - b64))
        d = np.where(np.isinf(a64) & (a64 == b64), 0.0, d)
        ok = bool((d <= atol + rtol * np.where(nan, 0.0, np.abs(b64))).all())
        return ok, float(np.nanmax(d))
    if a.dtype.kind in "iub":
        d = float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max())
        return d == 0.0, d
    return bool((a == b).all()), 0.0 if (a == b).all() else "differs"


def check(name, orig, opt, args, threads):
    """A dict: verdict, fail (bool), detail, diff."""
    r = {"name": name, "fail": False, "detail": "", "diff": ""}
    try:
        so = session(orig, threads)
    except Exception as e:  # noqa: BLE001 - onnxruntime raises several types
        so, r["orig_err"] = None, first_line(e)
    try:
        sp = session(opt, threads)
    except Exception as e:  # noqa: BLE001
        sp, opt_err = None, first_line(e)
        if so is not None:
            return dict(r, verdict="FAIL load", fail=True, detail=opt_err)
    if so is None:
        if sp is not None:
            return dict(r, verdict="original refused, optimized loads", detail=r["orig_err"])
        same = opt_err.split("failed:", 1)[-1] == r["orig_err"].split("failed:", 1)[-1]
        return dict(r, verdict="original refused, optimized too",
                    detail=r["orig_err"] + ("" if same else f" / optimized: {opt_err}"))
    dims, fixed = parse_args(args)
    try:
        feeds = make_inputs(so, dims, fixed)
        want = so.run(None, feeds)
    except Exception as e:  # noqa: BLE001
        return dict(r, verdict="original fails to run", detail=first_line(e))
    try:
        names = [o.name for o in so.get_outputs()]
        got_names = [o.name for o in sp.get_outputs()]
        missing = [n for n in names if n not in got_names]
        if missing:
            return dict(r, verdict="FAIL outputs", fail=True, detail=f"no output {missing}")
        got = sp.run(names, {k: v for k, v in feeds.items()
                             if k in {i.name for i in sp.get_inputs()}})
    except Exception as e:  # noqa: BLE001
        return dict(r, verdict="FAIL run", fail=True, detail=first_line(e))
    worst, bad = 0.0, []
    for n, a, b in zip(names, got, want):
        ok, d = compare(a, b)
        if isinstance(d, float):
            worst = max(worst, d)
        if not ok:
            bad.append(f"{n}: {d}")
    r["diff"] = f"{worst:.3g}"
    if bad:
        return dict(r, verdict="FAIL outputs", fail=True, detail="; ".join(bad)[:400])
    return dict(r, verdict="ok")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pairs")
    ap.add_argument("--markdown", help="also write the table as Markdown here")
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    ort.set_default_logger_severity(4)  # the verdicts carry onnxruntime's errors
    rows = []
    t0 = time.time()
    with open(a.pairs) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3:
                continue
            name, orig, opt = parts[:3]
            args = parts[3] if len(parts) > 3 else ""
            r = check(name, orig, opt, args, a.threads)
            rows.append(r)
            print(f"{name:46s} {r['verdict']:24s} {r['diff']:>9s}  {r['detail']}", flush=True)
    n = len(rows)
    ok = sum(r["verdict"] == "ok" for r in rows)
    fails = [r for r in rows if r["fail"]]
    orig_loads = n - sum(r["verdict"].startswith("original refused") for r in rows)
    opt_loads = orig_loads - sum(r["verdict"] == "FAIL load" for r in rows)
    summary = (f"onnxruntime {ort.__version__}: {n} models; optimized loads where the original "
               f"does: {opt_loads} / {orig_loads}; "
               f"outputs equal: {ok}; original unusable in onnxruntime: "
               f"{sum(r['verdict'].startswith('original') for r in rows)}; "
               f"FAIL: {len(fails)} ({time.time() - t0:.1f} s)")
    print(summary)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("| model | verdict | max abs diff | detail |\n|---|---|---|---|\n")
            for r in rows:
                d = r["detail"].replace("|", "\\|")
                f.write(f"| {r['name']} | {r['verdict']} | {r['diff']} | {d} |\n")
            f.write(f"\n{summary}\n")
    if not rows:
        print("no pairs to check")
        return 1
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
