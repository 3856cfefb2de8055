#!/usr/bin/env python3
"""Developer tool: where an INT8 model's runs part, tensor by tensor.

Every node output of MODEL becomes a graph output; the model then runs on the given
input sets with PassLab's preferred kernels, with its reference kernels (`run
--reference`) and with onnxruntime, and one line per tensor says which share of its
elements differs from onnxruntime's (exactly for integer tensors, beyond 1e-5 of the
tensor's largest magnitude for float ones) and by how much at most. The first tensor
that differs in a chain is where a kernel rounds differently; the later ones show how
far that travels (docs/precision.md, "QLinear against QDQ, layer by layer").

    /tmp/pq/bin/python scripts/dev/qlinear_trace.py MODEL.onnx SET_DIR [SET_DIR ...] \
        [--cli build/app/cli/passlab-cli] [--workdir /tmp/qlinear-trace] [--all]

SET_DIR holds input_0.pb, input_1.pb, ... (TensorProto files named after the graph
inputs, as precision_compare.py writes them). Without --all only tensors that differ
somewhere are printed.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess

import numpy as np
import onnx
from onnx import numpy_helper, shape_inference


def expose_all(src, dst):
    """MODEL with every node output (not Constants) as a graph output; their names in order."""
    m = onnx.load(src)
    inferred = shape_inference.infer_shapes(m)
    known = {v.name: v for v in list(inferred.graph.value_info) + list(inferred.graph.output)}
    outputs = {o.name for o in m.graph.output}
    names = []
    for n in m.graph.node:
        if n.op_type == "Constant":
            continue
        for o in n.output:
            if not o:
                continue
            names.append((n.op_type, o))
            if o not in outputs:
                m.graph.output.append(known.get(o, onnx.ValueInfoProto(name=o)))
                outputs.add(o)
    onnx.save(m, dst)
    return names


def read_set(d):
    feed = {}
    for f in sorted(glob.glob(os.path.join(d, "input_*.pb"))):
        t = onnx.TensorProto()
        with open(f, "rb") as fh:
            t.ParseFromString(fh.read())
        feed[t.name] = (f, numpy_helper.to_array(t))
    return feed


def run_passlab(cli, model, feed, out_dir, reference):
    shutil.rmtree(out_dir, ignore_errors=True)
    args = [cli, "run", model, "--repeat", "1", "--warmup", "0", "--threads", "1",
            "--save-outputs", out_dir] + (["--reference"] if reference else [])
    for name, (path, _) in feed.items():
        args += ["--input", f"{name}={path}"]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError((p.stdout + p.stderr)[-1000:])
    with open(os.path.join(out_dir, "outputs.json")) as f:
        listed = json.load(f)["outputs"]
    return {o["name"]: np.load(os.path.join(out_dir, o["file"])) for o in listed}


def run_ort(model, feeds):
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.log_severity_level = 3
    s = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
    names = [o.name for o in s.get_outputs()]
    return [dict(zip(names, s.run(None, {k: v for k, (_, v) in f.items()}))) for f in feeds]


def differences(got, want):
    """Share of elements that differ and the largest difference."""
    g = np.concatenate([np.asarray(x, np.float64).ravel() for x in got])
    w = np.concatenate([np.asarray(x, np.float64).ravel() for x in want])
    exact = np.asarray(want[0]).dtype.kind in "iub"
    tol = 0.0 if exact else 1e-5 * (np.abs(w).max() + 1e-30)
    d = np.abs(g - w)
    return float(np.mean(d > tol)), float(d.max()) if d.size else 0.0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--cli", default=os.path.join(here, "..", "..", "build", "app", "cli", "passlab-cli"))
    ap.add_argument("--workdir", default="/tmp/qlinear-trace")
    ap.add_argument("--all", action="store_true", help="print every tensor, not only those that differ")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    exposed = os.path.join(args.workdir, "exposed.onnx")
    names = expose_all(args.model, exposed)
    feeds = [read_set(d) for d in args.sets]
    preferred, reference = [], []
    for k, feed in enumerate(feeds):
        preferred.append(run_passlab(args.cli, exposed, feed, os.path.join(args.workdir, f"p{k}"), False))
        reference.append(run_passlab(args.cli, exposed, feed, os.path.join(args.workdir, f"r{k}"), True))
    ort_out = run_ort(exposed, feeds)
    print(f"{'op':22s} {'tensor':40s} {'dtype':8s} | PassLab vs ORT: share, max | "
          "PassLab --reference vs ORT: share, max")
    for op, name in names:
        if any(name not in r for r in preferred + reference + ort_out):
            continue
        want = [r[name] for r in ort_out]
        s1, m1 = differences([r[name] for r in preferred], want)
        s2, m2 = differences([r[name] for r in reference], want)
        if args.all or s1 > 0 or s2 > 0:
            print(f"{op:22s} {name[:40]:40s} {str(want[0].dtype):8s} | {s1:.5f} {m1:9.4g} | "
                  f"{s2:.5f} {m2:9.4g}")


if __name__ == "__main__":
    main()
