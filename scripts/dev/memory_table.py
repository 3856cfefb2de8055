#!/usr/bin/env python3
"""The table of docs/memory.md: per corpus model, the memory plan of
`passlab-cli run --memory-report` (planned peak, lower bound, ratio, strategy,
planned ahead or at run time), the block the executor ran on, the executor's
arena peak (after one warm-up run, which records the kernel scratch the
executor then plans with the tensors; the report plans it too, and says the
planned peak without it) and the peak resident memory (RSS) of one
`passlab-cli run` with
`--no-memory-plan` and on the plan, next to ONNX Runtime's on the same model
and inputs.

RSS is measured with /usr/bin/time -v (maximum resident set size) around a
child process: `passlab-cli run MODEL --repeat 1 --warmup 0 --threads 1`, and a
Python child that loads onnxruntime, makes a session (default optimizations,
one intra-op thread) and runs it once on the inputs passlab used (written by
`run --save-outputs`). Both include the process itself and the weights; the
ORT child also includes the Python interpreter and numpy: the row
"(baseline)" is that child importing onnxruntime and numpy and exiting.

    scripts/dev/memory_table.py --cli build/app/cli/passlab-cli \
        --python /tmp/pq/bin/python [--corpus /work/shared/corpus] \
        [--models NAME...] [--run-arg=--no-huge-pages] > table.md
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ORT_CHILD = r"""
import json, sys, numpy as np, onnxruntime as ort
model, index = sys.argv[1], sys.argv[2]
so = ort.SessionOptions()
so.intra_op_num_threads = 1
s = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
feeds = {}
if index != "-":
    d = json.load(open(index))
    base = index.rsplit("/", 1)[0]
    names = {i.name for i in s.get_inputs()}
    for e in d["inputs"]:
        if e["name"] in names and "file" in e:
            feeds[e["name"]] = np.load(base + "/" + e["file"])
s.run(None, feeds)
"""

CNN = {"mnist8_cntk", "onnx_light_bvlc_alexnet", "onnx_light_densenet121",
       "onnx_light_inception_v1", "onnx_light_inception_v2", "onnx_light_resnet50",
       "onnx_light_shufflenet", "onnx_light_squeezenet", "onnx_light_vgg19",
       "onnx_light_zfnet512", "winml_squeezenet", "starry_night_fp16", "super_resolution",
       "ultraface_rfb_320", "ultraface_rfb_320_simplified", "picodet_s_320",
       "ppocr_cls_mobile_v2"}


def kind(name):
    if name in CNN:
        return "CNN"
    if "gpt2" in name or "distilbert" in name or "attention" in name:
        return "transformer"
    return "other"


def max_rss_kib(cmd):
    """Maximum RSS (KiB) of cmd under /usr/bin/time -v, or (None, error)."""
    r = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True,
                       timeout=600)
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr)
    if r.returncode != 0 or not m:
        own = r.stderr.split("\tCommand being timed:")[0]  # what the child wrote
        lines = [l for l in own.strip().splitlines()
                 if l.strip() and not l.startswith("Command exited")] or ["?"]
        err = [l for l in lines if l.startswith("error")] or lines[-1:]
        return None, re.sub(r"\x1b\[[0-9;]*m", "", err[0]).replace("|", "/")[:110]
    return int(m.group(1)), None


def mib(n):
    return f"{n / 2**20:.1f}"


def kib(n):
    return f"{n / 2**10:,.1f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--python", default="/tmp/pq/bin/python")
    ap.add_argument("--corpus", default=os.environ.get("PASSLAB_CORPUS_DIR", "/work/shared/corpus"))
    ap.add_argument("--models", nargs="*", default=[],
                    help="only these corpus models (names without .onnx; default: all)")
    ap.add_argument("--run-arg", action="append", default=[],
                    help="one more argument for every passlab-cli run "
                         "(e.g. --run-arg=--no-huge-pages); repeatable")
    args = ap.parse_args()
    models = sorted(glob.glob(os.path.join(args.corpus, "models", "*.onnx")))
    if args.models:
        models = [m for m in models if os.path.basename(m)[:-5] in args.models]
    if not models:
        sys.exit(f"no models under {args.corpus}/models")
    tmp = tempfile.mkdtemp()
    child = os.path.join(tmp, "ort_child.py")
    open(child, "w").write(ORT_CHILD)
    base, _ = max_rss_kib([args.python, "-c", "import numpy, onnxruntime"])
    print("| model | kind | planned peak KiB | lower bound KiB | ratio | strategy | sizes | "
          "scratch KiB | planned peak KiB without scratch | "
          "executor block KiB | arena peak KiB, plan off | arena peak KiB, on plan | "
          "RSS passlab MiB, plan off | RSS passlab MiB, on plan | RSS ORT MiB |")
    print("|---|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for path in models:
        name = os.path.basename(path)[:-5]
        rep = os.path.join(tmp, name + ".json")
        io_dir = os.path.join(tmp, name + "_io")
        cmd = [args.cli, "run", path, "--repeat", "1", "--warmup", "0", "--threads", "1"]
        cmd += args.run_arg
        # The report and the arena peaks after one warm-up: the first run
        # records each step's kernel scratch, the timed run's block holds it
        # (the report plans it too). RSS below: one run, as before.
        warm = [args.cli, "run", path, "--repeat", "1", "--warmup", "1", "--threads", "1"]
        warm += args.run_arg
        r = subprocess.run(warm + ["--memory-report", rep, "--save-outputs", io_dir],
                           capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            err = [l for l in r.stderr.splitlines() if l.startswith("error")] or ["?"]
            print(f"| {name} | {kind(name)} | — | — | — | — | — | — | — | — | — | — | run failed: "
                  f"{err[0][7:100]} | — | — |")
            continue
        report = json.load(open(rep))
        t = report["totals"]
        executor = report.get("executor", {})
        block = executor.get("block_bytes") if executor.get("on_plan") else None
        off = subprocess.run(warm + ["--no-memory-plan", "--json"], capture_output=True, text=True,
                             timeout=600)
        off_peak = json.loads(off.stdout)["peak_arena_bytes"] if off.returncode == 0 else None
        rss_off, _ = max_rss_kib(cmd + ["--no-memory-plan"])
        rss, err = max_rss_kib(cmd)
        index = os.path.join(io_dir, "outputs.json")
        ort_rss, ort_err = max_rss_kib([args.python, child, path,
                                        index if os.path.exists(index) else "-"])
        print(f"| {name} | {kind(name)} | {kib(t['planned_peak_bytes'])} | "
              f"{kib(t['lower_bound_bytes'])} | {t['ratio']:.3f} | {t['strategy']} | "
              f"{'run time' if t['planned_at_run_time'] else 'ahead'} | "
              f"{kib(t.get('scratch_bytes', 0))} | "
              f"{kib(t.get('planned_peak_without_scratch_bytes', t['planned_peak_bytes']))} | "
              f"{kib(block) if block is not None else '— (sizes recorded)'} | {kib(off_peak) if off_peak is not None else 'failed'} | "
              f"{kib(t['executor_arena_peak_bytes'])} | "
              f"{mib(rss_off * 1024) if rss_off else 'failed'} | "
              f"{mib(rss * 1024) if rss else 'failed'} | "
              f"{mib(ort_rss * 1024) if ort_rss else 'failed: ' + str(ort_err)} |")
        sys.stdout.flush()
    if base:
        print(f"\n(baseline) the ORT child's Python + numpy + onnxruntime import alone: "
              f"{mib(base * 1024)} MiB RSS.")


if __name__ == "__main__":
    main()
