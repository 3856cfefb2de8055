#!/usr/bin/env python3
"""Developer tool: node counts after PassLab, onnx-simplifier, OnnxSlim and ONNX Runtime.

For every input model of the corpus (MANIFEST.tsv role == input), runs
  * passlab-cli optimize --level LEVEL --check N for each level (reads its report),
  * onnxsim.simplify and onnxslim.slim (PyPI, developer tooling only),
  * onnxruntime's basic and extended graph optimizations on the CPU provider
    (the model it writes to SessionOptions.optimized_model_filepath),
and prints a Markdown table: nodes before, after each tool, whether PassLab's
`default` level (else the first) ends at or below the smallest of onnxsim, onnxslim and ORT basic,
and PassLab's check result. Usage:
  scripts/dev/compare_simplifiers.py --cli build/app/cli/passlab-cli \
      [--corpus ../shared/corpus] [--levels basic,default] [--check 3] > docs/optimize-results.md
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time


def count_nodes(model):
    def walk(graph):
        n = 0
        for node in graph.node:
            n += 1
            for a in node.attribute:
                if a.g.node:
                    n += walk(a.g)
                for g in a.graphs:
                    n += walk(g)
        return n

    return walk(model.graph)


def run_onnxsim(path):
    try:
        import onnx
        import onnxsim

        model = onnx.load(path)
        t0 = time.time()
        out, ok = onnxsim.simplify(model)
        return count_nodes(out), time.time() - t0, "" if ok else "check failed"
    except Exception as e:  # noqa: BLE001 - report, do not stop
        return None, 0, str(e).splitlines()[0][:80]


def run_onnxslim(path):
    try:
        import onnx
        import onnxslim

        t0 = time.time()
        out = onnxslim.slim(onnx.load(path))
        return count_nodes(out), time.time() - t0, ""
    except Exception as e:  # noqa: BLE001
        return None, 0, str(e).splitlines()[0][:80]


def run_ort(path, level, tmp):
    """Nodes of the model onnxruntime writes after its `level` optimizations."""
    try:
        import onnx
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.graph_optimization_level = {
            "basic": ort.GraphOptimizationLevel.ORT_ENABLE_BASIC,
            "extended": ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED,
        }[level]
        out = os.path.join(tmp, f"ort_{level}.onnx")
        so.optimized_model_filepath = out
        ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
        return count_nodes(onnx.load(out)), ""
    except Exception as e:  # noqa: BLE001
        return None, str(e).splitlines()[0][:80]


# Inputs random values would make meaningless (as tests/cli/optimize_on_corpus.sh gives them).
CHECK_ARGS = {
    "silero_vad_v4": ["--dim", "sequence=512", "--input", "sr=16000"],
    "ppocr_cls_mobile_v2": ["--dim", "p2o.DynamicDimension.1=48", "--dim", "p2o.DynamicDimension.2=192"],
    "ort_gpt2_megatron": ["--dim", "seq_len=3", "--dim", "past_seq_len=2", "--dim", "batch_size=2"],
    "ort_tiny_gpt2_beamsearch": ["--input", "max_length=8", "--input", "min_length=1", "--input", "num_beams=2",
                                 "--input", "num_return_sequences=1", "--input", "length_penalty=1",
                                 "--input", "repetition_penalty=1"],
}
# Declared input shape contradicts its constant mask: no runtime runs it.
NOT_RUNNABLE = {"ort_attention_distilbert"}


def run_passlab(cli, path, level, check, tmp):
    out = os.path.join(tmp, "out.onnx")
    report = os.path.join(tmp, "report.json")
    cmd = [cli, "optimize", path, "-o", out, "--level", level, "--report", report]
    if level in ("ort", "fused"):  # their point is the non-standard (com.microsoft / ai.passlab) ops
        cmd.append("--allow-nonstandard")
    name = os.path.basename(path).replace(".onnx", "")
    if check and name not in NOT_RUNNABLE:
        cmd += ["--check", str(check)]
        cmd += CHECK_ARGS.get(name, CHECK_ARGS["ort_gpt2_megatron"] if name.startswith("ort_gpt2_megatron") else [])
    t0 = time.time()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.time() - t0
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return None, elapsed, last[:100]
    with open(report) as f:
        steps = json.load(f)["steps"]
    after = steps[-1]["nodes_after"] if steps else None
    checks = [s["check"]["passed"] for s in steps if "check" in s]
    status = "checked" if checks and all(checks) else ("no check" if not checks else "CHECK FAILED")
    return after, elapsed, status


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "../../../shared/corpus"))
    ap.add_argument("--levels", default="basic,default", help="comma-separated PassLab levels")
    ap.add_argument("--check", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated model names (default: every input model)")
    args = ap.parse_args()
    rows = []
    with open(os.path.join(args.corpus, "MANIFEST.tsv")) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            name = os.path.basename(r["file"]).replace(".onnx", "")
            if r["role"] == "input" and (not args.only or name in args.only.split(",")):
                rows.append(r)
    levels = args.levels.split(",")
    head = " | ".join(f"PassLab `{lv}`" for lv in levels)
    goal = levels.index("default") if "default" in levels else 0
    print(f"| model | nodes | {head} | onnxsim | onnxslim | ORT basic | ORT extended | "
          f"`{levels[goal]}` ≤ best of onnxsim, onnxslim, ORT basic | PassLab check |")
    print("|---|---:|" + "---:|" * len(levels) + "---:|---:|---:|---:|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for r in rows:
            path = os.path.join(args.corpus, r["file"])
            fmt = lambda v, e: str(v) if v is not None else f"error: {e}"  # noqa: E731
            cells, statuses = [], []
            for lv in levels:
                pl, secs, status = run_passlab(args.cli, path, lv, args.check, tmp)
                cells.append(fmt(pl, status))
                statuses.append(f"{lv}: {status} ({secs:.1f} s)")
            first = cells[goal]
            sim, _, sim_err = run_onnxsim(path)
            slim, _, slim_err = run_onnxslim(path)
            ob, ob_err = run_ort(path, "basic", tmp)
            oe, oe_err = run_ort(path, "extended", tmp)
            peers = [v for v in (sim, slim, ob) if v is not None]
            verdict = "-"
            if first.isdigit() and peers:
                best = min(peers)
                verdict = "yes" if int(first) <= best else f"no (+{int(first) - best})"
            name = os.path.basename(path).replace(".onnx", "")
            print(f"| {name} | {r['nodes_incl_subgraphs']} | {' | '.join(cells)} | {fmt(sim, sim_err)} | "
                  f"{fmt(slim, slim_err)} | {fmt(ob, ob_err)} | {fmt(oe, oe_err)} | {verdict} | "
                  f"{'; '.join(statuses)} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
