#!/usr/bin/env python3
"""Estimate / actual per op of the executor's node-time estimate
(core/analysis/work_micros.h) against profiled single-thread times: the table
in docs/exec-benchmark.md, "The cost model's time, calibrated".

  for m in ../shared/corpus/models/*.onnx; do
    build/app/cli/passlab-cli profile --threads 1 --repeat 10 --json "$m" > DIR/$(basename "$m" .onnx).json
  done
  scripts/dev/work_micros_table.py DIR [--min-us 5]

The profile JSON gives each node's FLOPs and bytes (cost_model.h); this
script applies work_micros.cpp's rates to them. It is a replica: keep the
rates below equal to kWorkRates and the op lists to work_micros.cpp's. The
old column is the single formula used before (FLOPs at 50 GFLOP/s, bytes at
20 GB/s).
"""
import argparse
import collections
import glob
import json
import os
import statistics

CONTRACTION = {"Conv", "FusedConv", "ConvInteger", "QLinearConv", "ConvTranspose", "Gemm",
               "FusedGemm", "MatMul", "FusedMatMul", "MatMulInteger", "LSTM", "QLinearMatMul",
               "GRU", "RNN", "Attention"}
WINDOW = {"MaxPool", "AveragePool", "LpPool"}
VIEW = {"Reshape", "Squeeze", "Unsqueeze", "Flatten", "Identity"}
# ns per output element, and the cost model's FLOPs per output element of the op
PER_ELEMENT = {"Softmax": (5.0, 5), "LogSoftmax": (5.0, 5), "LRN": (1.4, 13), "Exp": (3.0, 1),
               "Resize": (0.4, 1), "Upsample": (0.4, 1)}
FLOPS_PER_US, CONTRACTION_BYTES_PER_US, BYTES_PER_US, WINDOW_PER_US = 100e3, 20e3, 60e3, 10e3


def new_estimate(op, flops, nbytes):
    op = op.split(".")[-1]
    if op in VIEW:
        return 0.0
    if op in CONTRACTION:
        return flops / FLOPS_PER_US + nbytes / CONTRACTION_BYTES_PER_US
    if op in WINDOW:
        return flops / WINDOW_PER_US + nbytes / BYTES_PER_US
    if op in PER_ELEMENT:
        ns, flops_per_element = PER_ELEMENT[op]
        return flops / flops_per_element * ns / 1000 + nbytes / BYTES_PER_US
    return flops / FLOPS_PER_US + nbytes / BYTES_PER_US


def old_estimate(op, flops, nbytes):
    return flops / 50e3 + nbytes / 20e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", help="folder of `profile --json` outputs")
    ap.add_argument("--min-us", type=float, default=5.0, help="nodes at least this long")
    args = ap.parse_args()
    rows = collections.defaultdict(list)
    for path in sorted(glob.glob(os.path.join(args.dir, "*.json"))):
        try:
            with open(path) as f:
                profile = json.load(f)
        except (OSError, json.JSONDecodeError):
            continue  # a model profile could not run
        for n in profile["nodes"]:
            if n["depth"] != 0 or n["flops"] is None or n["kernel"].startswith("kept"):
                continue
            actual = n["time"]["min_ms"] * 1000
            if actual < args.min_us or n["op"] in ("If", "Loop", "Scan"):
                continue
            rows[n["op"]].append((old_estimate(n["op"], n["flops"], n["bytes_moved"]),
                                  new_estimate(n["op"], n["flops"], n["bytes_moved"]), actual))
    print("| op | nodes (>= %g us) | actual us (sum) | old estimate / actual | "
          "new estimate / actual (p10-p90) |" % args.min_us)
    print("|---|---:|---:|---:|---:|")
    for op, r in sorted(rows.items(), key=lambda kv: -sum(x[2] for x in kv[1])):
        old = sorted(x[0] / x[2] for x in r)
        new = sorted(x[1] / x[2] for x in r)
        print("| %s | %d | %.0f | %.2f | %.2f (%.2f-%.2f) |" % (
            op, len(r), sum(x[2] for x in r), statistics.median(old), statistics.median(new),
            new[len(new) // 10], new[(9 * len(new)) // 10]))


if __name__ == "__main__":
    main()
