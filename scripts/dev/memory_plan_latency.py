#!/usr/bin/env python3
"""Latency of `passlab-cli run` on the executor's memory plan against
`--no-memory-plan`, side by side: per model, ROUNDS rounds, each running the
two one after the other (the order alternating), `--repeat N --threads 1`;
prints the median over the rounds of each run's median, and the ratio.

    scripts/dev/memory_plan_latency.py --cli build/app/cli/passlab-cli \
        [--corpus /work/shared/corpus] [--rounds 3] [--repeat 10] MODEL...
"""
import argparse
import json
import os
import statistics
import subprocess


def median_ms(cli, path, repeat, extra):
    r = subprocess.run([cli, "run", path, "--threads", "1", "--repeat", str(repeat), "--json"]
                       + extra, capture_output=True, text=True, timeout=900, check=True)
    return json.loads(r.stdout)["latency_ms"]["median"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--corpus", default=os.environ.get("PASSLAB_CORPUS_DIR", "/work/shared/corpus"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    print("| model | plan off ms | on plan ms | on / off |")
    print("|---|---:|---:|---:|")
    for name in args.models:
        path = os.path.join(args.corpus, "models", name + ".onnx")
        on, off = [], []
        for k in range(args.rounds):
            order = [True, False] if k % 2 == 0 else [False, True]
            for planned in order:
                ms = median_ms(args.cli, path, args.repeat, [] if planned else ["--no-memory-plan"])
                (on if planned else off).append(ms)
        a, b = statistics.median(off), statistics.median(on)
        print(f"| {name} | {a:.2f} | {b:.2f} | {b / a:.3f} |", flush=True)


if __name__ == "__main__":
    main()
