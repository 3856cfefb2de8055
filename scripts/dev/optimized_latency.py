#!/usr/bin/env python3
"""Does PassLab's optimization pay? Latency per corpus model, before and after.

For every input model of the corpus (MANIFEST role == input) prints one
Markdown row with median latencies (ms) of:
  * PassLab's executor on the original and on PassLab's optimized output
    (`passlab-cli optimize --level LEVEL`, standard ONNX only), with
    `passlab-cli run --json`;
  * onnxruntime on PassLab's output with its own graph optimizations disabled,
    against onnxruntime on the original with its basic level on
    (ORT_ENABLE_BASIC): the goal is that PassLab's standard output is at least
    as fast as what onnxruntime makes of the original by itself.
Same thread count everywhere. Developer tooling: onnxruntime comes from PyPI.

  scripts/dev/optimized_latency.py --cli build/app/cli/passlab-cli \\
      [--corpus ../shared/corpus] [--level default] [--threads 2] [--repeat 10]
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from ort_bench import make_input  # noqa: E402  (same inputs as the executor benchmark)

# Inputs random values would make meaningless (as tests/cli/optimize_on_corpus.sh).
DIMS = {
    "silero_vad_v4": ["sequence=512"],
    "ppocr_cls_mobile_v2": ["p2o.DynamicDimension.1=48", "p2o.DynamicDimension.2=192"],
}


def passlab_latency(cli, path, threads, repeat, dims):
    cmd = [cli, "run", path, "--json", "--repeat", str(repeat), "--warmup", "2", "--threads", str(threads)]
    for d in dims:
        cmd += ["--dim", d]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, (p.stderr.strip().splitlines() or ["?"])[-1][:80]
    return json.loads(p.stdout)["latency_ms"]["median"], ""


def ort_latency(path, threads, repeat, level, dims):
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.graph_optimization_level = level
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.log_severity_level = 3
    try:
        sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
        sizes = dict(d.split("=") for d in dims)
        feed = {}
        for i in sess.get_inputs():
            shape = [int(sizes.get(d, 1)) if not isinstance(d, int) else d for d in i.shape]
            i_shape = type("A", (), {"shape": shape, "type": i.type})
            feed[i.name] = make_input(i_shape)
        for _ in range(2):
            sess.run(None, feed)
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            sess.run(None, feed)
            times.append((time.perf_counter() - t) * 1000)
        return statistics.median(times), ""
    except Exception as e:  # noqa: BLE001 - a model ORT cannot run is reported
        return None, str(e).splitlines()[0][:80]


def main():
    import onnxruntime as ort

    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "../../../shared/corpus"))
    ap.add_argument("--level", default="default")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--only", nargs="*", help="model names (default: every input model)")
    args = ap.parse_args()
    with open(os.path.join(args.corpus, "MANIFEST.tsv")) as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["role"] == "input"]
    if args.only:
        rows = [r for r in rows if os.path.basename(r["file"])[:-5] in args.only]
    print(f"| model | PassLab original | PassLab `{args.level}` | speedup | ORT basic on original "
          f"| ORT (no opt) on PassLab output | PassLab output vs ORT basic |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    fmt = lambda v, e: f"{v:.2f}" if v is not None else f"error: {e}"  # noqa: E731
    ratio = lambda a, b: f"{a / b:.2f}x" if a and b else "-"  # noqa: E731
    with tempfile.TemporaryDirectory() as tmp:
        for r in rows:
            path = os.path.join(args.corpus, r["file"])
            name = os.path.basename(path)[:-5]
            dims = DIMS.get(name, [])
            out = os.path.join(tmp, name + ".opt.onnx")
            p = subprocess.run([args.cli, "optimize", path, "--level", args.level, "-o", out],
                               capture_output=True, text=True)
            if p.returncode != 0:
                print(f"| {name} | optimize failed: {(p.stderr.strip().splitlines() or ['?'])[-1][:80]} |")
                continue
            pl0, e0 = passlab_latency(args.cli, path, args.threads, args.repeat, dims)
            pl1, e1 = passlab_latency(args.cli, out, args.threads, args.repeat, dims)
            ob, eb = ort_latency(path, args.threads, args.repeat, ort.GraphOptimizationLevel.ORT_ENABLE_BASIC, dims)
            on, en = ort_latency(out, args.threads, args.repeat, ort.GraphOptimizationLevel.ORT_DISABLE_ALL, dims)
            print(f"| {name} | {fmt(pl0, e0)} | {fmt(pl1, e1)} | {ratio(pl0, pl1)} | {fmt(ob, eb)} | "
                  f"{fmt(on, en)} | {ratio(ob, on)} |", flush=True)


if __name__ == "__main__":
    main()
