#!/usr/bin/env python3
"""Random com.microsoft QGemm cases run by ONNX Runtime, written as ONNX test
folders (test_*/model.onnx + test_data_set_0) for `passlab-cli conformance
DIR` to compare with PassLab's kernels: transA / transB, B per tensor or per
column, u8 / s8 A (s8 B; u8 B with u8 A), an int32 bias or none, alpha, an
8-bit output or (no y_scale) a float one. B, the scales, zero points and the
bias are initializers, as fuse_qdq_into_qlinear writes them.

    /tmp/pq/bin/python scripts/dev/qgemm_cases.py OUT_DIR [--cases N]
"""
import argparse
import itertools
import os

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

SHAPES = [(1, 96, 80), (7, 64, 33), (16, 128, 48)]  # (M, K, N)


def np_type(t):
    return np.uint8 if t == TensorProto.UINT8 else np.int8


def case(rng, m, k, n, trans_a, trans_b, per_column, a_type, b_type, y_type, bias, alpha):
    a_np, b_np = np_type(a_type), np_type(b_type)
    a_info = np.iinfo(a_np)
    b = rng.integers(0 if b_np == np.uint8 else -127, 256 if b_np == np.uint8 else 128,
                     (n, k) if trans_b else (k, n)).astype(b_np)
    cols = n if per_column else 1
    bs = rng.uniform(0.003, 0.009, cols).astype(np.float32)
    bz = np.full(cols, 128 if b_np == np.uint8 else 0, b_np)
    shape = () if cols == 1 else (cols,)
    a_scale = np.float32(0.02)
    a_zero = a_np(121 if a_np == np.uint8 else -7)
    inits = [numpy_helper.from_array(b, "b"),
             numpy_helper.from_array(np.array(a_scale), "as"),
             numpy_helper.from_array(np.array(a_zero), "az"),
             numpy_helper.from_array(bs.reshape(shape), "bs"),
             numpy_helper.from_array(bz.reshape(shape), "bz")]
    inputs = ["a", "as", "az", "b", "bs", "bz", "c" if bias else ""]
    if bias:
        inits.append(numpy_helper.from_array(rng.integers(-6000, 6001, n).astype(np.int32), "c"))
    out_type = TensorProto.FLOAT
    if y_type is not None:
        y_np = np_type(y_type)
        ys = np.float32(alpha * 0.02 * 0.006 * np.sqrt(k) * 128)
        inits.append(numpy_helper.from_array(np.array(ys), "ys"))
        inits.append(numpy_helper.from_array(np.array(y_np(110 if y_np == np.uint8 else 5)), "yz"))
        inputs += ["ys", "yz"]
        out_type = y_type
    while inputs[-1] == "":
        inputs.pop()
    node = helper.make_node("QGemm", inputs, ["y"], domain="com.microsoft", alpha=float(alpha),
                            transA=int(trans_a), transB=int(trans_b))
    graph = helper.make_graph(
        [node], "qgemm", [helper.make_tensor_value_info("a", a_type, (k, m) if trans_a else (m, k))],
        [helper.make_tensor_value_info("y", out_type, (m, n))], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13),
                                                    helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 8
    a = rng.integers(a_info.min, a_info.max + 1, (k, m) if trans_a else (m, k)).astype(a_np)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.intra_op_num_threads = 1
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    (y,) = sess.run(None, {"a": a})
    return model, a, y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--cases", type=int, default=1, help="random cases per form")
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    u8, s8 = TensorProto.UINT8, TensorProto.INT8
    # onnxruntime 1.32 has no kernel for a u8 A with an s8 output.
    types = [(u8, s8, u8), (s8, s8, s8), (u8, u8, u8), (u8, s8, None), (s8, s8, None)]
    count = skipped = 0
    for (si, (m, k, n)), (ta, tb), pc, (at, bt, yt), bias, alpha in itertools.product(
            enumerate(SHAPES), [(0, 0), (0, 1), (1, 0)], [False, True], types, [True, False],
            [1.0, 0.5]):
        if bias and alpha != 1.0:
            continue  # fuse_qdq_into_qlinear writes alpha only without a bias
        for r in range(args.cases):
            try:
                model, a, y = case(rng, m, k, n, ta, tb, pc, at, bt, yt, bias, alpha)
            except Exception as e:  # a form onnxruntime has no kernel for
                print(f"skipped (onnxruntime): M,K,N={m},{k},{n} trans={ta}{tb} "
                      f"per_column={pc} types={at},{bt},{yt} bias={bias} alpha={alpha}: "
                      f"{str(e).splitlines()[0][:120]}")
                skipped += 1
                continue
            yname = "f32" if yt is None else ("u8" if yt == u8 else "s8")
            name = (f"test_qgemm_{si}_t{ta}{tb}_{'col' if pc else 'tensor'}_"
                    f"{'u8' if at == u8 else 's8'}{'u8' if bt == u8 else 's8'}{yname}_"
                    f"{'bias' if bias else 'nobias'}_a{alpha}_{r}")
            d = os.path.join(args.out, name)
            os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
            onnx.save(model, os.path.join(d, "model.onnx"))
            for fname, arr, nm in (("input_0.pb", a, "a"), ("output_0.pb", y, "y")):
                with open(os.path.join(d, "test_data_set_0", fname), "wb") as f:
                    f.write(numpy_helper.from_array(arr, nm).SerializeToString())
            count += 1
    print(f"{count} cases in {args.out}, {skipped} skipped")


if __name__ == "__main__":
    main()
