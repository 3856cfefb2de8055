#!/usr/bin/env python3
"""Developer tool: where a quantized model loses its accuracy, tensor by tensor.

FLOAT is the float32 model, QUANT a converted one that keeps its tensor names (the QDQ file
of `passlab-cli optimize --passes quantize_static`, where a quantized value's name is read
through its DequantizeLinear(QuantizeLinear(x)) copy, or a float16 file). Every node output
of both becomes a graph output, both run in onnxruntime with its graph optimizations off (the
QDQ form computed as written) on the input sets, and one line per tensor of FLOAT, in node
order, gives the SNR and cosine of QUANT's tensor of that name against FLOAT's, each over all
sets, and FLOAT's range. The first node whose SNR falls far below its inputs' is where the
loss starts; what follows shows how it travels (docs/precision.md, "picodet_s_320 on real
images").

    /tmp/pq/bin/python scripts/dev/qdq_layer_snr.py FLOAT.onnx QUANT.onnx SET_DIR [SET_DIR ...] \
        [--channels TENSOR[,TENSOR...]]

SET_DIR holds input_0.pb, input_1.pb, ... (TensorProto files in the order of the graph
inputs, as precision_compare.py writes them). --channels also prints, for those tensors of
FLOAT (NCHW), every channel's largest |x| and RMS over the sets: a per-tensor activation
scale serves all channels at once, so a tensor whose channels span 100x loses the small ones.
"""
import argparse
import os

import numpy as np
import onnx
from onnx import numpy_helper


def session_all_outputs(path):
    """An onnxruntime session of the model at `path` with every node output as an output."""
    import onnxruntime as ort

    model = onnx.load(path)
    have = {o.name for o in model.graph.output}
    for node in model.graph.node:
        for name in node.output:
            if name and name not in have:
                model.graph.output.append(onnx.ValueInfoProto(name=name))
                have.add(name)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.log_severity_level = 3
    return model, ort.InferenceSession(model.SerializeToString(), so,
                                       providers=["CPUExecutionProvider"])


def graph_inputs(model):
    inits = {i.name for i in model.graph.initializer}
    return [i.name for i in model.graph.input if i.name not in inits]


def read_set(folder, names):
    feed = {}
    for k, name in enumerate(names):
        path = os.path.join(folder, f"input_{k}.pb")
        if not os.path.exists(path):
            raise SystemExit(f"{folder}: no input_{k}.pb for the graph input '{name}'")
        feed[name] = numpy_helper.to_array(onnx.load_tensor(path))
    return feed


def run_sets(path, sets):
    model, sess = session_all_outputs(path)
    names = [o.name for o in sess.get_outputs()]
    feeds = [read_set(s, graph_inputs(model)) for s in sets]
    return model, [dict(zip(names, sess.run(None, f))) for f in feeds]


def quantized_copies(model):
    """x -> the output of a DequantizeLinear(QuantizeLinear(x)) in `model`."""
    producer = {o: n for n in model.graph.node for o in n.output}
    copies = {}
    for n in model.graph.node:
        q = producer.get(n.input[0]) if n.op_type == "DequantizeLinear" else None
        if q is not None and q.op_type == "QuantizeLinear":
            copies.setdefault(q.input[0], n.output[0])
    return copies


def figures(ref, got):
    r = np.concatenate([a.astype(np.float64).ravel() for a in ref])
    q = np.concatenate([a.astype(np.float64).ravel() for a in got])
    err = float(np.sum((r - q) ** 2))
    snr = float("inf") if err == 0 else 10 * np.log10(max(float(np.sum(r * r)), 1e-300) / err)
    nr, nq = np.linalg.norm(r), np.linalg.norm(q)
    cos = float(r @ q / (nr * nq)) if nr > 0 and nq > 0 else float(nr == nq)
    return snr, cos, float(r.min()), float(r.max())


def channel_table(name, runs):
    a = np.concatenate([run[name] for run in runs], 0)
    if a.ndim < 2:
        print(f"{name}: rank {a.ndim}, no channels")
        return
    per = np.moveaxis(a, 1, 0).reshape(a.shape[1], -1).astype(np.float64)
    absmax, rms = np.abs(per).max(1), np.sqrt((per ** 2).mean(1))
    print(f"{name} {list(a.shape)}: range [{a.min():.4g}, {a.max():.4g}]; "
          f"channels' largest |x| {absmax.min():.3g}-{absmax.max():.3g}, RMS {rms.min():.3g}-{rms.max():.3g}")
    for c in np.argsort(-absmax):
        print(f"  channel {c:4d}  max |x| {absmax[c]:10.4g}  RMS {rms[c]:10.4g}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("float_model")
    ap.add_argument("quant_model")
    ap.add_argument("sets", nargs="+", help="folders with input_K.pb")
    ap.add_argument("--channels", default="", help="tensors of the float model to show per channel")
    args = ap.parse_args()

    model, ref = run_sets(args.float_model, args.sets)
    quant, got = run_sets(args.quant_model, args.sets)
    copies = quantized_copies(quant)
    print(f"{len(args.sets)} input sets; SNR dB and cosine of {args.quant_model} against "
          f"{args.float_model}, each tensor over all sets")
    print("'as read': the DequantizeLinear(QuantizeLinear(x)) copy that x's readers get, where the "
          "converted model has one (its own quantization noise included)")
    print(f"{'op':18s} {'node':28s} {'SNR dB':>8s} {'cosine':>9s}  {'float range':>24s}  "
          f"{'as read':>8s}  tensor")
    for node in model.graph.node:
        for name in node.output:
            if name not in got[0] or name not in ref[0]:
                continue
            if ref[0][name].dtype != np.float32 or ref[0][name].shape != got[0][name].shape:
                continue
            snr, cos, lo, hi = figures([r[name] for r in ref], [g[name] for g in got])
            read = ""
            if name in copies:
                read = f"{figures([r[name] for r in ref], [g[copies[name]] for g in got])[0]:8.2f}"
            print(f"{node.op_type:18s} {node.name[:28]:28s} {snr:8.2f} {cos:9.5f}  "
                  f"[{lo:10.4g}, {hi:10.4g}]  {read:>8s}  {name}")
    for name in filter(None, args.channels.split(",")):
        if name not in ref[0]:
            raise SystemExit(f"--channels: the float model has no tensor '{name}'")
        channel_table(name, ref)


if __name__ == "__main__":
    main()
