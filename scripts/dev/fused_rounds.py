#!/usr/bin/env python3
"""Issue #26: PassLab's `--level fused` file on its own executor against
onnxruntime ORT_ENABLE_ALL on the original, round by round.

blocked_benchmark.py prints the medians of the rounds; on a machine other work
shares, that hides how far the ratio moves. This script logs every round (one
JSON line per model, thread count and round: each program's median of
`--repeat` runs, the load average before and after) and summarizes a log as a
Markdown table: medians and minima of the rounds, their ratios, and the ratio
of every round. The programs take turns in a rotating order (A B, B A, ...).
`--bench-old` adds a second bench_models (a binary before a change) to the
rotation, for an A/B on the same files in the same rounds. At 2 or more
threads idle threads sleep in both (OMP_WAIT_POLICY=PASSIVE; ort_bench.py
--no-spin), as in blocked_benchmark.py.

  scripts/dev/fused_rounds.py --cli build/app/cli/passlab-cli \\
      --bench build/tests/bench/bench_models --log /tmp/rounds.jsonl \\
      [--bench-old OLD/bench_models] [--threads 1 2] [--rounds 7] [--models ...]
  scripts/dev/fused_rounds.py --summary /tmp/rounds.jsonl
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def bench_ms(cmd, env, key):
    from exec_benchmark import parse
    v = parse(subprocess.run(cmd, env=env, capture_output=True, text=True).stdout).get(key)
    return float(v[0]) if v and v[0] != "error" else None


def measure(args):
    import numpy as np
    import onnxruntime as ort
    import exec_crosscheck as xc
    from blocked_benchmark import optimize
    from exec_benchmark import CNN_MODELS
    ort.set_default_logger_severity(3)
    log = open(args.log, "a")
    for name in args.models or sorted(CNN_MODELS):
        work = tempfile.mkdtemp()
        path = os.path.join(args.corpus, "models", name + ".onnx")
        ort_path = path
        if name == "starry_night_fp16":
            ort_path = xc.repaired_starry_night(path, os.path.join(work, "repaired.onnx"))
        fused = os.path.join(work, name + ".onnx")
        try:
            optimize(args.cli, path, fused)
            feeds = xc.make_inputs(name, ort.InferenceSession(
                ort_path, providers=["CPUExecutionProvider"]), 0)
        except Exception as e:  # noqa: BLE001
            print(f"{name}: {str(e).splitlines()[0][:100]}", file=sys.stderr)
            continue
        inputs = []
        for k, (iname, v) in enumerate(feeds.items()):
            f = os.path.join(work, f"in_{k}.npy")
            np.save(f, v)
            inputs += ["--input", f"{iname}={f}"]
        for threads in args.threads:
            common = ["--threads", str(threads), "--repeat", str(args.repeat),
                      "--warmup", "10"] + inputs  # 10: past the step trials (step_trials.h)
            ort_cmd = [sys.executable, os.path.join(HERE, "ort_bench.py"), "--optimize"] + common
            env = dict(os.environ)
            if threads > 1:
                ort_cmd.append("--no-spin")
                env["OMP_WAIT_POLICY"] = "PASSIVE"
            runs = [("passlab", [args.bench] + common + [fused], env, name),
                    ("ort", ort_cmd + [ort_path], None, os.path.basename(ort_path)[:-5])]
            if args.bench_old:
                runs.append(("passlab_old", [args.bench_old] + common + [fused], env, name))
            for r in range(args.rounds):
                rec = {"model": name, "threads": threads, "round": r,
                       "load_before": load_average(), "time": time.time()}
                k = r % len(runs)
                for key, cmd, e, out in runs[k:] + runs[:k]:
                    rec[key] = bench_ms(cmd, e, out)
                rec["load_after"] = load_average()
                log.write(json.dumps(rec) + "\n")
                log.flush()


def summarize(path):
    rows = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            rows[(r["model"], r["threads"])].append(r)
    old = any("passlab_old" in r for rs in rows.values() for r in rs)
    print("| model | threads | rounds | PassLab ms (median / min) | onnxruntime ms (median / min) "
          "| ratio (medians; minima) |" + (" before ms (median / min) | after / before |" if old else "")
          + " ratio per round | load |")
    print("|---|---:|---:|---:|---:|---:|" + ("---:|---:|" if old else "") + "---|---|")
    md = statistics.median
    for (m, t), rs in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        rs = [r for r in rs if r.get("passlab") and r.get("ort") and (not old or r.get("passlab_old"))]
        if not rs:
            print(f"| {m} | {t} | 0 | error | | |" + (" | |" if old else "") + " | |")
            continue
        p, o = [r["passlab"] for r in rs], [r["ort"] for r in rs]
        loads = [float(r[k]) for r in rs for k in ("load_before", "load_after")]
        line = (f"| {m} | {t} | {len(rs)} | {md(p):.2f} / {min(p):.2f} | {md(o):.2f} / {min(o):.2f} "
                f"| {md(p) / md(o):.2f}; {min(p) / min(o):.2f} |")
        if old:
            q = [r["passlab_old"] for r in rs]
            line += f" {md(q):.2f} / {min(q):.2f} | {md(p) / md(q):.3f} |"
        line += f" {' '.join(f'{a / b:.2f}' for a, b in zip(p, o))} | {min(loads):.1f}-{max(loads):.1f} |"
        print(line)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--summary", help="print the table of this log and exit")
    ap.add_argument("--cli")
    ap.add_argument("--bench")
    ap.add_argument("--bench-old")
    ap.add_argument("--log")
    ap.add_argument("--corpus", default=os.path.join(HERE, "../../../shared/corpus"))
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--models", nargs="*")
    args = ap.parse_args()
    if args.summary:
        return summarize(args.summary)
    if not (args.cli and args.bench and args.log):
        ap.error("--cli, --bench and --log are needed to measure (or --summary LOG)")
    measure(args)


if __name__ == "__main__":
    main()
