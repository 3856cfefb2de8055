#!/usr/bin/env python3
"""Write gpu-results.md from what scripts/gpu-check.sh left in its work folder.

usage: gpu_results.py WORK_DIR [--out gpu-results.md]

Reads WORK_DIR/logs: env.txt (nvidia-smi), steps.tsv (one line a step), unit_*.log (GoogleTest),
conform.log, bandwidth.json, run_MODEL_LEVEL.log and profile_MODEL.log (passlab-cli --json output,
possibly with other lines around it), anchor_eager.json and anchor_compile.json
(scripts/dev/torch_anchor.py). Whatever is missing is said so in its section; nothing here fails
on a missing or malformed file.
"""
import argparse
import collections
import datetime
import glob
import json
import os
import re


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return None


def load_json(path):
    text = read(path)
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def json_in_log(path):
    """The first JSON object in a log that has other lines around it (stderr notes)."""
    text = read(path)
    if not text:
        return None
    decoder = json.JSONDecoder()
    for m in re.finditer(r"^[{\[]", text, re.M):
        try:
            value, _ = decoder.raw_decode(text[m.start():])
            return value
        except ValueError:
            continue
    return None


def last_lines(path, n=3, width=200):
    text = read(path)
    if not text:
        return []
    lines = [l.rstrip()[:width] for l in text.splitlines() if l.strip()]
    return lines[-n:]


def fmt(v, spec=".3f"):
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (int, float)):
        return format(v, spec)
    return "-" if v is None else str(v)


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rows:
        out.append("| " + " | ".join(cell(x) for x in r) + " |")
    return out


def gpu_line(env):
    if not env:
        return "unknown (no env.txt)"
    m = re.search(r"^name, driver_version.*\n(.+)$", env, re.M)
    if m:
        return m.group(1).strip()
    if "not available" in env or "command not found" in env:
        return "none: nvidia-smi not available"
    return "unknown"


def steps_section(logs):
    lines = ["## Steps", ""]
    text = read(os.path.join(logs, "steps.tsv"))
    if not text:
        return lines + ["(no steps.tsv)", ""]
    rows = [l.split("\t") for l in text.splitlines() if l.strip()]
    counts = collections.Counter(r[1].split("(")[0] for r in rows if len(r) > 1)
    lines.append(", ".join(f"{k}: {v}" for k, v in sorted(counts.items())) + f" (of {len(rows)} steps)")
    lines.append("")
    bad = [r for r in rows if len(r) > 1 and r[1] != "ok"]
    if bad:
        lines += table(["step", "status", "s", "last line"], [r + [""] * (4 - len(r)) for r in bad])
        lines.append("")
    return lines


def unit_section(logs):
    lines = ["## CUDA unit and device tests", ""]
    files = sorted(glob.glob(os.path.join(logs, "unit_*.log")))
    if not files:
        return lines + ["(none run)", ""]
    rows = []
    for f in files:
        text = read(f) or ""

        def count(pattern):
            m = re.search(pattern, text)
            return int(m.group(1)) if m else 0

        passed = count(r"\[  PASSED  \] (\d+) test")
        failed = count(r"\[  FAILED  \] (\d+) test")
        skipped = count(r"\[  SKIPPED \] (\d+) test")
        failed_names = re.findall(r"^\[  FAILED  \] (\S+)", text, re.M)
        note = " ".join(sorted(set(n for n in failed_names if "." in n)))[:300]
        if "[==========]" not in text:
            note = ("no GoogleTest summary (crashed or killed): " + " ".join(last_lines(f, 1)) + " " + note).strip()
        rows.append([os.path.basename(f)[5:-4], passed, failed, skipped, note])
    return lines + table(["binary", "passed", "failed", "skipped", "failed tests"], rows) + [""]


def conform_section(logs):
    lines = ["## Conformance on the GPU (`conformance --device cuda`, ONNX node tests)", ""]
    path = os.path.join(logs, "conform.log")
    text = read(path)
    if text is None:
        return lines + ["(not run)", ""]
    lines.append("```")
    lines += last_lines(path, 8)
    lines += ["```", ""]
    return lines


def bandwidth_section(logs):
    lines = ["## FusedElementwise bandwidth vs device-to-device copy", ""]
    b = load_json(os.path.join(logs, "bandwidth.json"))
    if not b:
        return lines + ["(no bandwidth.json)"] + [f"    {l}" for l in last_lines(os.path.join(logs, "bandwidth.log"))] + [""]
    mib = b.get("tensor_bytes", 0) / 2**20
    lines.append(f"X float32{b.get('shape')} ({mib:.0f} MiB); bytes per pass = X read + Y written "
                 f"({2 * mib:.0f} MiB). Kernel time: the profile's per-node CUDA-event median.")
    lines.append("")
    rows = []
    copy = b.get("copy")
    if copy:
        rows.append(["torch d2d copy", fmt(copy["ms"]), fmt(copy["gbps"], ".1f"), "100.0%", copy.get("device", "")])
    for key, label in (("fused", "FusedElementwise (1 kernel)"), ("original", "Add, Relu, Mul (3 kernels)")):
        e = b.get(key)
        if not e:
            rows.append([label, "-", "-", "-", b.get(key + "_error", "")[:200]])
            continue
        share = e.get("share_of_copy")
        rows.append([label, fmt(e.get("kernel_ms")), fmt(e.get("gbps_vs_2x_tensor"), ".1f"),
                     f"{100 * share:.1f}%" if share is not None else "-",
                     ", ".join(str(n.get("kernel") or n.get("op")) for n in e.get("nodes", []))])
    lines += table(["what", "ms", "GB/s", "of copy", "kernels"], rows)
    if "goal_70pct_met" in b:
        lines += ["", f"Goal FusedElementwise >= 70% of copy bandwidth: **{'met' if b['goal_70pct_met'] else 'not met'}**."]
    if b.get("copy_error"):
        lines += ["", f"copy: {b['copy_error']}"]
    return lines + [""]


def bench_section(logs):
    lines = ["## Bench programs (tests/bench/bench_cuda_*)", ""]
    files = sorted(glob.glob(os.path.join(logs, "bench_*.log")))
    if not files:
        return lines + ["(none in the bundle)", ""]
    for f in files:
        lines += [f"### {os.path.basename(f)[6:-4]}", "", "```"]
        lines += last_lines(f, 40, 220)
        lines += ["```", ""]
    return lines


def anchor_rows(logs):
    """One row a model: the eager run's (with the ORT check), then the compile run's compile
    figures; a model only in the compile run takes that run's row whole."""
    rows = {}
    for r in load_json(os.path.join(logs, "anchor_eager.json")) or []:
        rows[r.get("model", "").removesuffix(".onnx")] = dict(r)
    for r in load_json(os.path.join(logs, "anchor_compile.json")) or []:
        key = r.get("model", "").removesuffix(".onnx")
        if key not in rows or rows[key].get("eager_ms") is None:
            rows[key] = dict(r)
            continue
        for k, v in r.items():
            if k.startswith("compile") or k == "static_shapes":
                rows[key][k] = v
        if r.get("status") in ("timeout", "crashed", "skipped") and "compiled_ms" not in r:
            rows[key]["compile_error"] = f"compile run: {r.get('status')}: {r.get('error', '')}"
    return rows


def models_section(logs, anchor):
    lines = ["## Models: GPU against the CPU executor (float32: rtol 1e-3, atol 1e-4)", ""]
    runs = sorted(glob.glob(os.path.join(logs, "run_*.log")))
    if not runs:
        return lines + ["(no model runs)", ""], {}
    rows = []
    fallbacks = collections.defaultdict(lambda: {"count": 0, "models": set()})
    gpu_ms = {}
    for f in runs:
        base = os.path.basename(f)[4:-4]
        model, _, level = base.rpartition("_")
        j = json_in_log(f)
        if not isinstance(j, dict):
            rows.append([model, level, "error", "-", "-", "-", " ".join(last_lines(f, 1))[:160]])
            continue
        cmp = j.get("compare_cpu") or {}
        outs = cmp.get("outputs", [])
        worst = max((o.get("max_abs_error") or 0.0 for o in outs if o.get("compared")), default=None)
        verdict = ("equal" if cmp.get("all_within") else "DIFFERS") if cmp else "not compared"
        dev = j.get("device") or {}
        steps = f"{dev.get('device_steps', '-')}/{dev.get('fallback_steps', '-')}"
        lat = (j.get("latency_ms") or {}).get("median")
        gpu_ms[(model, level)] = lat
        for fb in dev.get("fallbacks", []):
            key = (fb.get("op", "?"), fb.get("reason", "?"))
            fallbacks[key]["count"] += 1
            fallbacks[key]["models"].add(model)
        notes = "; ".join(f"{o.get('name')}: {o.get('note')}" for o in outs if o.get("note"))[:160]
        rows.append([model, level, verdict, fmt(worst, ".2e"), steps, fmt(lat), notes])
    lines += table(["model", "level", "GPU vs CPU", "max abs err", "steps GPU/CPU-fallback",
                    "GPU median ms", "note"], rows)
    lines.append("")
    if fallbacks:
        lines += ["### Nodes that fell back to the CPU", ""]
        fb_rows = sorted(fallbacks.items(), key=lambda kv: -kv[1]["count"])
        lines += table(["op", "reason", "nodes", "models"],
                       [[k[0], k[1][:160], v["count"], ", ".join(sorted(v["models"]))[:200]] for k, v in fb_rows])
        lines.append("")
    return lines, gpu_ms


def profile_section(logs, anchor, gpu_ms):
    lines = ["## Latency on the GPU: original vs fused (profile --compare), PyTorch anchor", ""]
    files = sorted(glob.glob(os.path.join(logs, "profile_*.log")))
    models = {os.path.basename(f)[8:-4]: f for f in files}
    names = sorted(set(models) | set(anchor))
    if not names:
        return lines + ["(no profiles, no anchor)", ""], []
    rows = []
    groups = []
    for name in names:
        j = json_in_log(models[name]) if name in models else None
        before = after = speedup = None
        if isinstance(j, dict):
            before = (j.get("latency_before") or {}).get("median_ms")
            after = (j.get("latency_after") or {}).get("median_ms")
            speedup = j.get("speedup")
            for g in j.get("groups", []):
                if g.get("kind") != "unchanged":
                    groups.append((name, g))
        a = anchor.get(name, {})
        eager = a.get("eager_ms")
        compiled = a.get("compiled_ms")
        ratio = after / eager if (after and eager) else None
        note = a.get("error") or a.get("compile_error") or ""
        if a.get("prepare_error"):
            note += f" (prepared: {a['prepare_error']})"
        if name in models and not isinstance(j, dict):
            note = ("profile: " + " ".join(last_lines(models[name], 1)) + "; " + note).strip("; ")
        rows.append([name, fmt(before), fmt(after), fmt(speedup, ".2f"), fmt(eager), fmt(compiled),
                     fmt(ratio, ".2f"), cell(note[:140])])
    lines += table(["model", "original ms", "fused ms", "speedup", "torch eager ms",
                    "torch.compile ms", "fused / eager", "note"], rows)
    lines += ["", "fused / eager <= 1.00: PassLab's fused model on the GPU is no slower than PyTorch "
              "eager on the same model (the goal for the CNNs and GPT-2).", ""]
    return lines, groups


def groups_section(groups):
    lines = ["## Fused vs original per fused node on the GPU", ""]
    if not groups:
        return lines + ["(no fused groups)", ""]
    groups.sort(key=lambda mg: -abs(mg[1].get("saved_ms") or 0.0))
    rows = []
    for model, g in groups[:60]:
        rows.append([model, g.get("kind"), "+".join(g.get("original_ops", []))[:60],
                     "+".join(g.get("new_ops", []))[:40], fmt(g.get("before_ms")),
                     fmt(g.get("after_ms")), fmt(g.get("speedup"), ".2f"),
                     "REGRESSION" if g.get("regression") else ""])
    lines += table(["model", "kind", "original ops", "fused op", "before ms", "after ms", "speedup", ""], rows)
    if len(groups) > 60:
        lines.append(f"({len(groups) - 60} more groups in details.tar.gz)")
    return lines + [""]


def anchor_section(anchor):
    lines = ["## PyTorch anchor (onnx2torch; float32; median of 20 after 5 warm-ups)", ""]
    if not anchor:
        return lines + ["(not run)", ""]
    rows = []
    for name, r in sorted(anchor.items()):
        rows.append([name, r.get("status"), fmt(r.get("eager_ms")), fmt(r.get("compiled_ms")),
                     fmt(r.get("compile_s"), ".1f"), fmt(r.get("max_abs_diff_vs_ort"), ".2e"),
                     ", ".join(r.get("prepared", []) or []),
                     ((r.get("error") or r.get("compile_error") or "")
                      + (f" (prepared: {r['prepare_error']})" if r.get("prepare_error") else ""))[:200]])
    return lines + table(["model", "status", "eager ms", "compile ms", "compile s",
                          "max abs diff vs ORT", "prepared", "note"], rows) + [""]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("work")
    parser.add_argument("--out", default="gpu-results.md")
    args = parser.parse_args()
    logs = os.path.join(args.work, "logs")
    env = read(os.path.join(logs, "env.txt"))
    manifest = read(os.path.join(args.work, "passlab-gpu", "MANIFEST.txt")) or ""
    commit = re.search(r"^commit: (.+)$", manifest, re.M)
    repo = re.search(r"^repo: (.+)$", env or "", re.M)

    out = ["# GPU results", ""]
    out.append(f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}")
    out.append(f"- GPU, driver, memory: {gpu_line(env)}")
    cuda = re.search(r"CUDA Version: ([0-9.]+)", env or "")
    out.append(f"- CUDA (driver's): {cuda.group(1) if cuda else 'unknown'}")
    out.append(f"- bundle built from: {commit.group(1) if commit else 'unknown'}; scripts from: "
               f"{repo.group(1) if repo else 'unknown'}")
    out.append("")
    anchor = anchor_rows(logs)
    out += steps_section(logs)
    out += unit_section(logs)
    out += conform_section(logs)
    out += bandwidth_section(logs)
    out += bench_section(logs)
    model_lines, gpu_ms = models_section(logs, anchor)
    out += model_lines
    prof_lines, groups = profile_section(logs, anchor, gpu_ms)
    out += prof_lines
    out += groups_section(groups)
    out += anchor_section(anchor)
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
