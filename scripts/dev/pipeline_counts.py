#!/usr/bin/env python3
"""Deterministic work per node of the pipeline benchmark, by size.

Wall-clock time per node on a shared machine varies by 2x between runs, and
it mixes two things: the work the passes do (instructions) and how much of
the graph still fits in the cache (misses). This runs bench_pipeline's
synthetic graph once per size under Valgrind's callgrind, counting only
inside PassManager::runAll, with a simulated cache the size of this
machine's (--ll-mib), and prints per node: instructions, first-level data
misses, last-level data misses. Instructions per node that stay flat mean
the passes do O(N) work; last-level misses per node that grow mean the graph
outgrew the cache.

    scripts/dev/pipeline_counts.py build/tests/bench/bench_pipeline \\
        --sizes 1000,10000,100000 --ll-mib 32

Needs valgrind (Debian package). About a minute per 100k nodes.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def count(bench, size, ll_mib):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", "--cache-sim=yes",
               f"--LL={ll_mib * 1024 * 1024},16,64",
               "--toggle-collect=passlab::pipeline::PassManager::runAll*",
               f"--callgrind-out-file={out}",
               bench, "--sizes", str(size), "--repeat", "1", "--synthetic-only"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed:\n{r.stderr[-2000:]}")
        m = re.search(r"Collected : ([\d ]+)", r.stderr)
        if not m:
            sys.exit("no totals in callgrind's output:\n" + r.stderr[-2000:])
        # Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
        v = [int(x) for x in m.group(1).split()]
        nodes = re.search(r"synthetic-\d+\s+(\d+)", r.stdout)
        n = int(nodes.group(1)) if nodes else size
        return n, v[0], v[4] + v[5], v[7] + v[8]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bench", help="path to bench_pipeline")
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--ll-mib", type=int, default=32,
                    help="simulated last-level cache, MiB (lscpu: L3)")
    a = ap.parse_args()
    print(f"{'size':>8} {'instructions/node':>18} {'L1 data misses/node':>20} "
          f"{'last-level misses/node':>23}")
    for s in (int(x) for x in a.sizes.split(",")):
        n, ir, d1, ll = count(a.bench, s, a.ll_mib)
        print(f"{n:>8} {ir / n:>18.0f} {d1 / n:>20.1f} {ll / n:>23.2f}", flush=True)


if __name__ == "__main__":
    main()
