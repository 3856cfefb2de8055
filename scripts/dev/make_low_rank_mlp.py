#!/usr/bin/env python3
"""A model with low-rank structure for factorize_low_rank (developer tooling).

The corpus's weights are full rank (trained dense layers), so the rank search
of `passlab-cli precision --pass factorize_low_rank` is measured on this one:
an MLP whose weights are products of thin factors plus a little full-rank
noise (what a merged adapter or a distilled head looks like), with one Gemm
with transB. Seeded: the same file every run.

    /tmp/pq/bin/python scripts/dev/make_low_rank_mlp.py OUT.onnx [--rows 64]
"""
import argparse

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def low_rank(rng, k, n, rank, noise):
    w = rng.standard_normal((k, rank)) @ rng.standard_normal((rank, n)) / np.sqrt(k * rank)
    w += noise * rng.standard_normal((k, n)) / np.sqrt(k)
    return w.astype(np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--rows", type=int, default=64)
    a = ap.parse_args()
    rng = np.random.default_rng(25)
    # (K, N, rank, noise): 1024 -> 1024 -> 512 -> 256
    w1 = low_rank(rng, 1024, 1024, 32, 0.01)
    w2 = low_rank(rng, 1024, 512, 64, 0.003)
    w3t = low_rank(rng, 512, 256, 16, 0.02).T.copy()  # Gemm B with transB
    b3 = (0.1 * rng.standard_normal(256)).astype(np.float32)
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h1"], name="fc1"),
        helper.make_node("Relu", ["h1"], ["r1"]),
        helper.make_node("MatMul", ["r1", "w2"], ["h2"], name="fc2"),
        helper.make_node("Tanh", ["h2"], ["r2"]),
        helper.make_node("Gemm", ["r2", "w3", "b3"], ["y"], name="fc3", transB=1),
    ]
    graph = helper.make_graph(
        nodes, "low_rank_mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [a.rows, 1024])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [a.rows, 256])],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2"),
         numpy_helper.from_array(w3t, "w3"), numpy_helper.from_array(b3, "b3")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, a.out)


if __name__ == "__main__":
    main()
