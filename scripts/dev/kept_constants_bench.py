#!/usr/bin/env python3
"""Constant-only nodes computed once per executor (core/exec/kept_values.h)
against running them every run (`--no-keep-constants`), side by side with
ONNX Runtime (ORT_DISABLE_ALL: it runs such nodes on every run too;
ORT_ENABLE_ALL: it folds them once when the session is made). Per model,
ROUNDS rounds; each round runs the four, one process each, in an order that
rotates; each process runs `--repeat N` times after one warm-up at
`--threads T` and is measured by /usr/bin/time (maximum RSS). Prints the
median over the rounds of each process's median latency and of its RSS.

    scripts/dev/kept_constants_bench.py --cli build/app/cli/passlab-cli \
        --python /tmp/pq/bin/python [--rounds 3] [--repeat 20] [--threads 1] MODEL...
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def timed(cmd):
    """(stdout, max RSS MiB) of `cmd` under /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        r = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", t.name] + cmd,
                           capture_output=True, text=True, timeout=900, check=True)
        return r.stdout, int(t.read().strip().splitlines()[-1]) / 1024.0


def passlab(args, path, keep):
    out, rss = timed([args.cli, "run", path, "--threads", str(args.threads), "--repeat",
                      str(args.repeat), "--json"] + ([] if keep else ["--no-keep-constants"]))
    return json.loads(out)["latency_ms"]["median"], rss


def ort(args, path, optimize):
    out, rss = timed([args.python, os.path.join(HERE, "ort_bench.py"), path, "--threads",
                      str(args.threads), "--repeat", str(args.repeat), "--warmup", "1"]
                     + (["--optimize"] if optimize else []))
    fields = out.strip().split("\t")
    if fields[2] == "error":
        raise RuntimeError(fields[3])
    return float(fields[2]), rss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--python", required=True)
    ap.add_argument("--corpus", default=os.environ.get("PASSLAB_CORPUS_DIR", "/work/shared/corpus"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    runs = [("kept", lambda p: passlab(args, p, True)),
            ("every run", lambda p: passlab(args, p, False)),
            ("ORT disable all", lambda p: ort(args, p, False)),
            ("ORT enable all", lambda p: ort(args, p, True))]
    print("| model | " + " | ".join(f"{n} ms" for n, _ in runs) + " | "
          + " | ".join(f"{n} RSS MiB" for n, _ in runs) + " |")
    print("|---|" + "---:|" * (2 * len(runs)))
    for name in args.models:
        path = os.path.join(args.corpus, "models", name + ".onnx")
        ms = {n: [] for n, _ in runs}
        rss = {n: [] for n, _ in runs}
        for k in range(args.rounds):
            for n, f in runs[k % len(runs):] + runs[:k % len(runs)]:
                a, b = f(path)
                ms[n].append(a)
                rss[n].append(b)
        med = lambda v: statistics.median(v)
        print(f"| {name} | " + " | ".join(f"{med(ms[n]):.2f}" for n, _ in runs) + " | "
              + " | ".join(f"{med(rss[n]):.1f}" for n, _ in runs) + " |", flush=True)


if __name__ == "__main__":
    main()
