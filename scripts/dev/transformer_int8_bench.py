#!/usr/bin/env python3
"""Developer tool: transformer INT8 (static QDQ) against float32, on PassLab's executor and on
onnxruntime, the same files, with accuracy on real text.

For each model (BERT-style encoders from scripts/dev/make_bert_encoder.py, seeded random
weights; input_ids [1, S] and attention_mask [1, S]):
  1. input sets of real text: consecutive S-byte windows of a Debian text file (default
     /usr/share/common-licenses/GPL-3), each byte its token id (the vocabulary is random:
     the ids keep real text's distribution and order, not its meaning); --calib sets
     calibrate, --eval later windows evaluate;
  2. float32 = `passlab-cli optimize --level default` (the file every quantizer starts from);
  3. PassLab: `optimize --passes quantize_static --calibration-data CALIB` (QDQ; attention
     MatMuls of two activations quantized) and the same with
     `--set quantize_static.matmul_const_b_only=true` (weights only) and with
     `--set quantize_static.quantize_bias_adds=false` (bias Adds float: the placement before
     session 25, files *_nb), each then
     `--passes fuse_qdq_into_qlinear` for PassLab's executor (onnxruntime runs the QDQ file,
     which it fuses itself);
  4. onnxruntime.quantization.quantize_static on the float32 file (QDQ, MinMax, per channel,
     QUInt8 activations, QInt8 weights), MatMulConstBOnly False (its default) and True;
  5. accuracy on the evaluation sets against onnxruntime's float32 outputs: cosine and SNR
     (10 log10 sum(ref^2) / sum((ref - out)^2) over all sets);
  6. latency, 1 thread, --rounds rounds; each round runs every configuration once, in turn
     (A, B, C, A, B, C, ...), and the median of --repeat runs per configuration and round is
     printed with the load average.
  /tmp/pq/bin/python scripts/dev/transformer_int8_bench.py --cli build/app/cli/passlab-cli \
      --models /tmp/x/bert_tiny.onnx,/tmp/x/distilbert.onnx --workdir /tmp/x/work
"""
import argparse
import os
import subprocess
import sys
import time

import numpy as np
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import precision_compare as pc  # noqa: E402  (sessions, PassLab runs, set files)


def text_sets(path, seq, first, count):
    data = np.frombuffer(open(path, "rb").read(), dtype=np.uint8)
    sets = []
    for k in range(first, first + count):
        ids = data[k * seq:(k + 1) * seq].astype(np.int64).reshape(1, seq)
        feed = {"input_ids": ids, "attention_mask": np.ones((1, seq), np.int64)}
        sets.append((f"window {k}", feed, None))
    return sets


def cli(args_cli, args, timeout=3600):
    t0 = time.time()
    p = subprocess.run([args_cli] + args, capture_output=True, text=True, timeout=timeout)
    out = p.stdout + p.stderr
    if p.returncode != 0:
        raise RuntimeError(f"passlab-cli {' '.join(args[:3])}... rc {p.returncode}: {out[-600:]}")
    return out, time.time() - t0


def snr_cos(ref, out):
    r = np.concatenate([np.asarray(o[0], np.float64).ravel() for o in ref])
    o = np.concatenate([np.asarray(s[0], np.float64).ravel() for s in out])
    cos = float(r @ o / (np.linalg.norm(r) * np.linalg.norm(o)))
    snr = float(10 * np.log10((r @ r) / max(((r - o) @ (r - o)), 1e-30)))
    return cos, snr


def ort_quantize(src, dst, calib, const_b_only):
    from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat,
                                          QuantType, quantize_static)

    import onnx

    reader = type("Reader", (pc.SetsReader, CalibrationDataReader), {})(calib)
    # In the QDQ format onnxruntime 1.32 quantizes the MatMuls of two activations even with
    # MatMulConstBOnly set (measured: the same file); its weights-only form is then these
    # MatMuls excluded by name.
    exclude = []
    if const_b_only:
        g = onnx.load(src, load_external_data=False).graph
        inits = {i.name for i in g.initializer}
        exclude = [n.name for n in g.node if n.op_type == "MatMul" and n.input[1] not in inits]
    quantize_static(src, dst, reader, quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                    calibrate_method=CalibrationMethod.MinMax, nodes_to_exclude=exclude,
                    extra_options={"MatMulConstBOnly": const_b_only})


def count_ops(path, op):
    import onnx

    return sum(n.op_type == op for n in onnx.load(path, load_external_data=False).graph.node)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--models", required=True, help="comma-separated .onnx paths")
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--text", default="/usr/share/common-licenses/GPL-3")
    ap.add_argument("--calib", type=int, default=16)
    ap.add_argument("--eval", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--skip-convert", action="store_true", help="reuse the files in --workdir")
    ap.add_argument("--configs", default="", help="latency configurations, e.g. ort:pl_qdq,ort:ort_qdq "
                    "(default: all)")
    a = ap.parse_args()
    names = ["input_ids", "attention_mask"]
    for model in a.models.split(","):
        base = os.path.splitext(os.path.basename(model))[0]
        w = os.path.join(a.workdir, base)
        os.makedirs(w, exist_ok=True)
        import onnx

        seq = onnx.load(model, load_external_data=False).graph.input[0].type.tensor_type.shape.dim[1].dim_value
        calib = text_sets(a.text, seq, 0, a.calib)
        evals = text_sets(a.text, seq, a.calib, a.eval)
        pc.write_sets(os.path.join(w, "calib"), calib, names)
        pc.write_sets(os.path.join(w, "eval"), evals, names)
        f = {k: os.path.join(w, k + ".onnx") for k in
             ["f32", "pl_qdq", "pl_qdq_w", "pl_qdq_nb", "pl_ql", "pl_ql_w", "pl_ql_nb", "ort_qdq",
              "ort_qdq_w"]}
        if not a.skip_convert:
            cd = os.path.join(w, "calib")
            out, t = cli(a.cli, ["optimize", model, "-o", f["f32"], "--level", "default"])
            print(f"{base}: --level default {t:.1f} s")
            for key, extra in [("pl_qdq", []), ("pl_qdq_w", ["--set", "quantize_static.matmul_const_b_only=true"]),
                               ("pl_qdq_nb", ["--set", "quantize_static.quantize_bias_adds=false"])]:
                out, t = cli(a.cli, ["optimize", f["f32"], "-o", f[key], "--passes", "quantize_static",
                                     "--calibration-data", cd] + extra)
                print(f"{base}: {key} {t:.1f} s\n" + "\n".join(l for l in out.splitlines() if "quantize" in l or "SNR" in l)[-800:])
                q = key.replace("qdq", "ql")
                out, t = cli(a.cli, ["optimize", f[key], "-o", f[q], "--passes", "fuse_qdq_into_qlinear",
                                     "--calibration-data", cd])
                print(f"{base}: {q} {t:.1f} s, QLinearMatMul {count_ops(f[q], 'QLinearMatMul')}, "
                      f"MatMul {count_ops(f[q], 'MatMul')}")
            for key, cb in [("ort_qdq", False), ("ort_qdq_w", True)]:
                t0 = time.time()
                ort_quantize(f["f32"], f[key], calib, cb)
                print(f"{base}: {key} {time.time() - t0:.1f} s")
        # Accuracy on the evaluation windows.
        _, ref = pc.run_all(f["f32"], evals)
        rows = []
        for key, runner in [("pl_ql", "passlab"), ("pl_ql_w", "passlab"), ("pl_ql_nb", "passlab"),
                            ("pl_qdq", "ort"), ("pl_qdq_w", "ort"), ("pl_qdq_nb", "ort"), ("ort_qdq", "ort"),
                            ("ort_qdq_w", "ort")]:
            if runner == "ort":
                _, outs = pc.run_all(f[key], evals)
            else:
                _, outs = pc.run_all_passlab(a.cli, f[key], evals, names, w)
            cos, snr = snr_cos(ref, outs)
            rows.append((key, runner, cos, snr))
            print(f"{base}: accuracy {key} on {runner}: cosine {cos:.7f}, SNR {snr:.2f} dB")
        # Latency, alternating.
        set0 = os.path.join(w, "eval", "set_000")
        feed = evals[0][1]
        configs = [("passlab", "f32"), ("passlab", "pl_ql"), ("passlab", "pl_ql_w"),
                   ("passlab", "pl_ql_nb"), ("ort", "f32"), ("ort", "pl_qdq"), ("ort", "pl_qdq_w"),
                   ("ort", "pl_qdq_nb"), ("ort", "ort_qdq"), ("ort", "ort_qdq_w")]
        if a.configs:
            configs = [tuple(c.split(":")) for c in a.configs.split(",")]
        times = {c: [] for c in configs}
        for r in range(a.rounds):
            load = open("/proc/loadavg").read().split()[0]
            for c in configs:
                if c[0] == "passlab":
                    ms = pc.latency_ms_passlab(a.cli, f[c[1]], set0, names, a.repeat)
                else:
                    ms = pc.latency_ms(f[c[1]], feed, a.repeat)
                times[c].append(ms)
            print(f"{base}: round {r + 1} (load {load}): " +
                  ", ".join(f"{c[0]}:{c[1]} {times[c][-1]:.2f}" for c in configs), flush=True)
        print(f"\n| {base} | " + " | ".join(f"{c[0]} {c[1]}" for c in configs) + " |")
        print("| ms per round | " + " | ".join(
            "/".join(f"{x:.1f}" for x in times[c]) for c in configs) + " |")


if __name__ == "__main__":
    main()
