#!/usr/bin/env python3
"""Random com.microsoft QLinearSoftmax cases run by ONNX Runtime and by PassLab's
executor (`passlab-cli run --input x=X.npy --save-outputs`), with the float
DQ -> Softmax -> Q reference (numpy, float64): prints, per case, the largest
difference in steps and the share of elements that differ, PassLab against
onnxruntime and each against the float reference.

ONNX Runtime multiplies by floor(1 / y_scale) and does not saturate int8 (its
qlinear_softmax.cc); PassLab's lookup-table kernel uses 1 / y_scale exactly and
saturates, so at y_scale = 1/256 both are expected equal up to float32 rounding,
at other scales within one step.

    /tmp/pq/bin/python scripts/dev/qlinear_softmax_cases.py --cli build/app/cli/passlab-cli \
        --workdir /tmp/qsm
"""
import argparse
import os
import subprocess

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

SHAPES = [(4, 128), (2, 2, 128, 128), (3, 7, 33), (1, 12, 128, 128)]


def model_of(dtype, shape, sx, zx, sy, zy):
    np_t = np.uint8 if dtype == TensorProto.UINT8 else np.int8
    inits = [numpy_helper.from_array(np.array(sx, np.float32), "sx"),
             numpy_helper.from_array(np.array(zx, np_t), "zx"),
             numpy_helper.from_array(np.array(sy, np.float32), "sy"),
             numpy_helper.from_array(np.array(zy, np_t), "zy")]
    node = helper.make_node("QLinearSoftmax", ["x", "sx", "zx", "sy", "zy"], ["y"],
                            domain="com.microsoft", opset=13, axis=-1)
    g = helper.make_graph([node], "qsm", [helper.make_tensor_value_info("x", dtype, shape)],
                          [helper.make_tensor_value_info("y", dtype, shape)], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13),
                                            helper.make_opsetid("com.microsoft", 1)])
    m.ir_version = 8
    return m


def reference(x, sx, zx, sy, zy, np_t):
    f = (x.astype(np.float64) - zx) * sx
    e = np.exp(f - f.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    info = np.iinfo(np_t)
    return np.clip(np.rint(p / sy) + zy, info.min, info.max)


def steps(a, b):
    d = np.abs(a.astype(np.int64) - b.astype(np.int64))
    return int(d.max()), float((d != 0).mean())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    rng = np.random.default_rng(3)
    print("case | PassLab vs ORT (max steps, share) | PassLab vs float | ORT vs float")
    for dtype, np_t, zy in ((TensorProto.UINT8, np.uint8, 0), (TensorProto.INT8, np.int8, -128)):
        for k, shape in enumerate(SHAPES):
            for sy in (1 / 256, 0.7 / 255):
                info = np.iinfo(np_t)
                sx = float(rng.uniform(0.02, 0.15))
                zx = int(rng.integers(info.min, info.max + 1))
                m = model_of(dtype, shape, sx, zx, sy, zy)
                x = rng.integers(info.min, info.max + 1, shape).astype(np_t)
                path = os.path.join(args.workdir, "m.onnx")
                onnx.save(m, path)
                np.save(os.path.join(args.workdir, "x.npy"), x)
                so = ort.SessionOptions()
                so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
                so.intra_op_num_threads = 1
                (yo,) = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"]).run(
                    None, {"x": x})
                out = os.path.join(args.workdir, "out")
                subprocess.run([args.cli, "run", path, "--input", "x=" + os.path.join(args.workdir, "x.npy"),
                                "--repeat", "1", "--save-outputs", out], check=True, capture_output=True)
                yp = np.load(os.path.join(out, "output_0.npy"))
                ref = reference(x, sx, zx, sy, zy, np_t)
                name = f"{'u8' if np_t is np.uint8 else 's8'} {shape} sy={sy:.6f}"
                print(f"{name} | {steps(yp, yo)} | {steps(yp, ref)} | {steps(yo, ref)}")


if __name__ == "__main__":
    main()
