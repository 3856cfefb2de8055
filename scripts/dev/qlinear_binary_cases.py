#!/usr/bin/env python3
"""Random com.microsoft QLinearAdd / QLinearMul cases run by ONNX Runtime,
written as ONNX test folders (test_*/model.onnx + test_data_set_0) for
`passlab-cli conformance DIR` to compare with PassLab's kernels (8-bit
outputs: the default tolerance is below one step, so the check is exact).

    /tmp/pq/bin/python scripts/dev/qlinear_binary_cases.py OUT_DIR [--cases N]
"""
import argparse
import os

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

SHAPES = [  # (A, B): same shape, scalar, per-channel, rows, both broadcast
    ((1, 16, 9, 9), (1, 16, 9, 9)),
    ((2, 8, 7, 5), (1,)),
    ((1,), (3, 37)),
    ((1, 24, 6, 6), (1, 24, 1, 1)),
    ((1, 5, 1, 11), (1, 5, 11)),
    ((4, 1, 33), (1, 6, 1)),
    ((1, 64, 56, 56), (1, 64, 56, 56)),
]


def case(rng, op, dtype, a_shape, b_shape):
    np_t = np.uint8 if dtype == TensorProto.UINT8 else np.int8
    info = np.iinfo(np_t)
    scales = rng.uniform(0.002, 0.2, 3).astype(np.float32)
    zeros = rng.integers(info.min, info.max + 1, 3).astype(np_t)
    inits = []
    for name, s, z in zip("abc", scales, zeros):
        inits.append(numpy_helper.from_array(np.array(s, np.float32), f"s{name}"))
        inits.append(numpy_helper.from_array(np.array(z, np_t), f"z{name}"))
    node = helper.make_node(op, ["a", "sa", "za", "b", "sb", "zb", "sc", "zc"], ["c"],
                            domain="com.microsoft")
    out_shape = np.broadcast_shapes(a_shape, b_shape)
    graph = helper.make_graph(
        [node], op,
        [helper.make_tensor_value_info("a", dtype, a_shape),
         helper.make_tensor_value_info("b", dtype, b_shape)],
        [helper.make_tensor_value_info("c", dtype, out_shape)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13),
                                                    helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 8
    a = rng.integers(info.min, info.max + 1, a_shape).astype(np_t)
    b = rng.integers(info.min, info.max + 1, b_shape).astype(np_t)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    (c,) = sess.run(None, {"a": a, "b": b})
    return model, a, b, c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--cases", type=int, default=4, help="random cases per op, type and shape")
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    count = 0
    for op in ("QLinearAdd", "QLinearMul"):
        for dtype in (TensorProto.UINT8, TensorProto.INT8):
            for k, (sa, sb) in enumerate(SHAPES):
                for r in range(args.cases):
                    model, a, b, c = case(rng, op, dtype, sa, sb)
                    name = f"test_{op}_{'u8' if dtype == TensorProto.UINT8 else 's8'}_{k}_{r}"
                    d = os.path.join(args.out, name)
                    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
                    onnx.save(model, os.path.join(d, "model.onnx"))
                    for fname, arr, n in (("input_0.pb", a, "a"), ("input_1.pb", b, "b"),
                                          ("output_0.pb", c, "c")):
                        with open(os.path.join(d, "test_data_set_0", fname), "wb") as f:
                            f.write(numpy_helper.from_array(arr, n).SerializeToString())
                    count += 1
    print(f"{count} cases in {args.out}")


if __name__ == "__main__":
    main()
