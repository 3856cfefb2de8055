#!/usr/bin/env python3
"""onnxruntime's latency on corpus models, for docs/exec-benchmark.md.

Prints one tab-separated line per model: name, threads, median ms, min ms.
Inputs are arange(n)/n reshaped to each input's shape (symbolic dims = 1;
bench_models plans its own shapes as `passlab-cli run` does: give both the same
files to compare), or read from .npy files (--input NAME=FILE). Developer tooling: onnxruntime comes from
PyPI and is never a runtime dependency of PassLab.

  scripts/dev/ort_bench.py --threads 2 --repeat 20 MODEL.onnx...
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np
import onnxruntime as ort

DTYPES = {
    "tensor(float)": np.float32, "tensor(float16)": np.float16, "tensor(double)": np.float64,
    "tensor(int64)": np.int64, "tensor(int32)": np.int32, "tensor(bool)": np.bool_,
    "tensor(uint8)": np.uint8, "tensor(int8)": np.int8,
}


def make_input(arg):
    shape = [d if isinstance(d, int) and d >= 0 else 1 for d in arg.shape]
    n = int(np.prod(shape)) if shape else 1
    dtype = DTYPES[arg.type]
    if np.issubdtype(dtype, np.floating):
        data = (np.arange(n, dtype=np.float64) / max(n, 1)).astype(dtype)
    else:
        data = np.arange(n).astype(dtype)
    return data.reshape(shape)


def bench(path, threads, repeat, warmup, optimize, files, spin=True):
    so = ort.SessionOptions()
    so.graph_optimization_level = (ort.GraphOptimizationLevel.ORT_ENABLE_ALL if optimize
                                   else ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    if not spin:  # idle pool threads sleep instead of spinning (as OMP_WAIT_POLICY=passive)
        so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    feed = {i.name: np.load(files[i.name]) if i.name in files else make_input(i)
            for i in sess.get_inputs()}
    for _ in range(warmup):
        sess.run(None, feed)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        sess.run(None, feed)
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="+")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--optimize", action="store_true", help="ORT_ENABLE_ALL instead of DISABLE_ALL")
    ap.add_argument("--input", action="append", default=[], help="NAME=FILE.npy")
    ap.add_argument("--no-spin", action="store_true", help="intra-op threads do not spin")
    args = ap.parse_args()
    files = dict(spec.split("=", 1) for spec in args.input)
    ort.set_default_logger_severity(3)
    for path in args.models:
        name = path.rsplit("/", 1)[-1].removesuffix(".onnx")
        try:
            med, low = bench(path, args.threads, args.repeat, args.warmup, args.optimize, files,
                             not args.no_spin)
            print(f"{name}\t{args.threads}\t{med:.3f}\t{low:.3f}", flush=True)
        except Exception as e:  # a model ORT cannot run is reported, not fatal
            print(f"{name}\t{args.threads}\terror\t{str(e).splitlines()[0]}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
