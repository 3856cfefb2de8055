#!/usr/bin/env python3
"""merge_linear_convolutions on the cv-graphs corpus (docs/algorithm-redundancy.md).

For every model under CORPUS/cv-graphs: `passlab-cli optimize --passes
merge_linear_convolutions --check 2` at 1x3xHxW, then `passlab-cli profile
--compare` (interleaved whole-model rounds, one thread) of the original against
the result. Prints a Markdown table: nodes before/after, latency before/after
(median and min of the interleaved rounds, ms), speedup of the medians, and the
check. Usage: cv_graphs_windows.py [--cli build/app/cli/passlab-cli]
[--corpus ../shared/corpus] [--size 256] [--rounds 30] [--out DIR]

--calibrate instead measures the rates of core/analysis/window_cost.h: one-node
Conv models (depthwise over 3 channels and one channel; kh x kw of 3..13, 2-D
and 1-D) written in the text format, converted by build/tests/text_to_onnx,
profiled with one thread; prints ns per output element (minimum of the runs).
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default="build/app/cli/passlab-cli")
    ap.add_argument("--corpus", default="../shared/corpus")
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", default="/tmp/cv_graphs_windows")
    ap.add_argument("--only", default="", help="regex on the model name")
    ap.add_argument("--set", action="append", default=[], help="PASS.OPTION=VALUE for optimize")
    ap.add_argument("--calibrate", action="store_true")
    ap.add_argument("--text-to-onnx", default="build/tests/text_to_onnx")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    if a.calibrate:
        calibrate(a)
        return
    dims = ["--dim", "N=1", "--dim", f"H={a.size}", "--dim", f"W={a.size}"]
    print("| model | nodes | latency before ms (median / min) | after ms (median / min) | speedup | check |")
    print("|---|---|---|---|---|---|")
    for path in sorted(glob.glob(os.path.join(a.corpus, "cv-graphs", "*", "*.onnx"))):
        name = os.path.splitext(os.path.basename(path))[0]
        if a.only and not re.search(a.only, name):
            continue
        out = os.path.join(a.out, name + ".onnx")
        extra = ["--input", "amount=0.5"] if "unsharp" in name else []
        r = subprocess.run([a.cli, "optimize", path, "-o", out, "--passes",
                            "merge_linear_convolutions", "--check", "2"] + dims + extra +
                           [x for kv in a.set for x in ("--set", kv)],
                           capture_output=True, text=True)
        m = re.search(r"saved .*: (\d+) -> (\d+) nodes", r.stdout)
        if r.returncode != 0 or not m:
            print(f"| {name} | optimize failed: {(r.stdout + r.stderr).strip()[-200:]} | | | | |")
            continue
        check = "ok" if "outputs equal" in r.stdout else "see log"
        n0, n1 = int(m.group(1)), int(m.group(2))
        p = subprocess.run([a.cli, "profile", path, "--compare", out, "--threads", str(a.threads),
                            "--rounds", str(a.rounds), "--json"] + dims + extra,
                           capture_output=True, text=True)
        try:
            d = json.loads(p.stdout)
        except json.JSONDecodeError:
            print(f"| {name} | {n0} -> {n1} | profile failed | | | {check} |")
            continue
        b, f = d["latency_before"], d["latency_after"]
        print(f"| {name} | {n0} -> {n1} | {b['median_ms']:.3f} / {b['min_ms']:.3f} | "
              f"{f['median_ms']:.3f} / {f['min_ms']:.3f} | {d['speedup']:.2f}x | {check} |")
        sys.stdout.flush()


def conv_model_text(ch, kh, kw, size):
    vals = ", ".join(["0.01"] * (ch * kh * kw))
    group = f"<group = {ch}> " if ch > 1 else ""
    h, w = size + kh - 1, size + kw - 1
    return (f'<ir_version: 8, opset_import: ["" : 17]>\n'
            f"conv (float[1,{ch},{h},{w}] x) => (float[1,{ch},{size},{size}] y)\n"
            f"<float[{ch},1,{kh},{kw}] k = {{{vals}}}> {{\n  y = Conv {group}(x, k)\n}}\n")


def calibrate(a):
    print("| channels | kernel | MACs | ns per output element |")
    print("|---|---|---|---|")
    for ch in (1, 3):
        for k in (3, 5, 7, 9, 13):
            for kh, kw in ((k, k), (k, 1), (1, k)):
                name = f"c{ch}_{kh}x{kw}"
                txt, onnx = os.path.join(a.out, name + ".txt"), os.path.join(a.out, name + ".onnx")
                open(txt, "w").write(conv_model_text(ch, kh, kw, a.size))
                subprocess.run([a.text_to_onnx, txt, onnx], check=True)
                p = subprocess.run([a.cli, "profile", onnx, "--threads", "1", "--repeat", "40",
                                    "--json"], capture_output=True, text=True)
                d = json.loads(p.stdout)
                node = [n for n in d["nodes"] if n["op"] == "Conv"][0]
                ns = node["time"]["min_ms"] * 1e6 / (ch * a.size * a.size)
                print(f"| {ch} | {kh}x{kw} | {kh * kw} | {ns:.2f} |")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
