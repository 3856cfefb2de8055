#!/usr/bin/env python3
"""Issue #26, the blocked layout: PassLab's `--level fused` output on its own
executor against onnxruntime with all its graph optimizations on
(ORT_ENABLE_ALL, which has the NCHWc transformer), on the original model.

For each model: optimizes it with `passlab-cli optimize --level fused
--allow-nonstandard`, and once more with the same passes minus
convert_to_blocked_layout (the recipe of the first run, replayed without it),
makes the inputs scripts/dev/exec_crosscheck.py uses, then alternates
bench_models on both PassLab files and scripts/dev/ort_bench.py --optimize on
the original, `--rounds` times per thread count (the two PassLab files in
turn first), and prints one Markdown row
per model and thread count with the medians of the rounds' medians (ms).
At 2 or more threads idle threads sleep in both, as in docs/exec-benchmark.md
(OMP_WAIT_POLICY=PASSIVE for PassLab's OpenMP, which oneDNN shares;
ort_bench.py --no-spin): on a machine other work shares, spinning threads
measure the load more than the model.

  scripts/dev/blocked_benchmark.py --cli build/app/cli/passlab-cli \\
      --bench build/tests/bench/bench_models [--threads 1 2] [--rounds 5] [--models ...]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np
import onnxruntime as ort

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import exec_crosscheck as xc  # noqa: E402
from exec_benchmark import CNN_MODELS, parse  # noqa: E402


def optimize(cli, src, out, recipe_in=None, recipe_out=None):
    cmd = [cli, "optimize", src, "--allow-nonstandard", "-o", out]
    cmd += ["--recipe", recipe_in] if recipe_in else ["--level", "fused"]
    if recipe_out:
        cmd += ["--save-recipe", recipe_out]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError((p.stderr.strip().splitlines() or ["?"])[-1][:120])


def without_blocked(recipe_path, out_path):
    with open(recipe_path) as f:
        r = json.load(f)
    steps = r.get("steps") or r.get("passes")
    key = "steps" if "steps" in r else "passes"
    r[key] = [s for s in steps
              if (s.get("pass") or s.get("id") if isinstance(s, dict) else s)
              != "convert_to_blocked_layout"]
    with open(out_path, "w") as f:
        json.dump(r, f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--corpus", default=os.path.join(HERE, "../../../shared/corpus"))
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--models", nargs="*")
    args = ap.parse_args()
    ort.set_default_logger_severity(3)
    names = args.models or sorted(CNN_MODELS)
    print("| model | threads | PassLab fused, blocked ms | PassLab fused, NCHW ms | "
          "onnxruntime ORT_ENABLE_ALL ms | blocked / onnxruntime |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in names:
        path = os.path.join(args.corpus, "models", name + ".onnx")
        with tempfile.TemporaryDirectory() as work:
            ort_path = path
            if name == "starry_night_fp16":
                ort_path = xc.repaired_starry_night(path, os.path.join(work, "repaired.onnx"))
            try:
                blocked = os.path.join(work, name + ".onnx")
                nchw = os.path.join(work, name + "_nchw.onnx")
                recipe = os.path.join(work, "recipe.json")
                optimize(args.cli, path, blocked, recipe_out=recipe)
                without_blocked(recipe, recipe + ".nchw")
                optimize(args.cli, path, nchw, recipe_in=recipe + ".nchw")
                sess = ort.InferenceSession(ort_path, providers=["CPUExecutionProvider"])
                feeds = xc.make_inputs(name, sess, 0)
            except Exception as e:  # noqa: BLE001
                print(f"| {name} | - | error: {str(e).splitlines()[0][:100]} | | | |", flush=True)
                continue
            input_args = []
            for k, (iname, v) in enumerate(feeds.items()):
                f = os.path.join(work, f"in_{k}.npy")
                np.save(f, v)
                input_args += ["--input", f"{iname}={f}"]
            for threads in args.threads:
                common = ["--threads", str(threads), "--repeat", str(args.repeat),
                          "--warmup", "10"] + input_args  # 10: past the step trials (9, step_trials.h)
                ort_cmd = [sys.executable, os.path.join(HERE, "ort_bench.py"), "--optimize"] + common
                env = dict(os.environ)
                if threads > 1:
                    ort_cmd.append("--no-spin")
                    env["OMP_WAIT_POLICY"] = "PASSIVE"
                pb, pn, on = [], [], []
                for r in range(args.rounds):
                    # The two PassLab files in turn first (A B, B A, ...):
                    # whatever the process before leaves behind (onnxruntime's
                    # exit, a busy core) falls on each alike.
                    pair = ((pb, blocked), (pn, nchw))
                    for out, model in pair if r % 2 == 0 else pair[::-1]:
                        v = parse(subprocess.run([args.bench] + common + [model], env=env,
                                                 capture_output=True, text=True).stdout)
                        v = v.get(os.path.basename(model)[:-5])
                        if v and v[0] != "error":
                            out.append(float(v[0]))
                    v = parse(subprocess.run(ort_cmd + [ort_path], capture_output=True,
                                             text=True).stdout).get(os.path.basename(ort_path)[:-5])
                    if v and v[0] != "error":
                        on.append(float(v[0]))

                def med(v):
                    return statistics.median(v) if v else None

                def ms(v):
                    return f"{v:.2f}" if v is not None else "error"

                b, n, o = med(pb), med(pn), med(on)
                ratio = f"{b / o:.2f}" if b and o else "-"
                print(f"| {name} | {threads} | {ms(b)} | {ms(n)} | {ms(o)} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()
