#!/usr/bin/env python3
"""A CNN with low-rank 1x1 convolutions for factorize_low_rank (developer tooling).

The corpus's trained 1x1 Conv weights are full rank, so the latency check of
`passlab-cli precision --pass factorize_low_rank` (a factorization slower on
this CPU stays dense) is shown on this one: 1x1 Convs whose W [M, C, 1, 1] is
a product of thin factors plus a little full-rank noise, of three sizes: one
wide (256 -> 256 at 28x28, rank 32: 4x fewer multiply-adds factorized), one
that saves little (256 -> 64 with stride 2, rank 32) and one tiny (64 -> 16 at
14x14, rank 4), with a 3x3 Conv (left alone) between them. Seeded.

    /tmp/pq/bin/python scripts/dev/make_low_rank_convnet.py OUT.onnx
"""
import argparse

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def low_rank(rng, m, c, rank, noise):
    w = rng.standard_normal((m, rank)) @ rng.standard_normal((rank, c)) / np.sqrt(c * rank)
    w += noise * rng.standard_normal((m, c)) / np.sqrt(c)
    return w.astype(np.float32).reshape(m, c, 1, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    a = ap.parse_args()
    rng = np.random.default_rng(25)
    inits = {
        "w1": low_rank(rng, 256, 256, 32, 0.01),
        "b1": (0.1 * rng.standard_normal(256)).astype(np.float32),
        "w2": low_rank(rng, 64, 256, 32, 0.01),
        "w3x3": (rng.standard_normal((64, 64, 3, 3)) / 24).astype(np.float32),
        "w3": low_rank(rng, 16, 64, 4, 0.01),
        "b3": (0.1 * rng.standard_normal(16)).astype(np.float32),
    }
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["h1"], name="pw_wide", kernel_shape=[1, 1]),
        helper.make_node("Relu", ["h1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2"], ["h2"], name="pw_stride2", kernel_shape=[1, 1],
                         strides=[2, 2]),
        helper.make_node("Relu", ["h2"], ["r2"]),
        helper.make_node("Conv", ["r2", "w3x3"], ["h3"], name="conv3x3", kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["h3"], ["r3"]),
        helper.make_node("Conv", ["r3", "w3", "b3"], ["y"], name="pw_tiny", kernel_shape=[1, 1]),
    ]
    graph = helper.make_graph(
        nodes, "low_rank_convnet",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 256, 28, 28])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16, 14, 14])],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, a.out)


if __name__ == "__main__":
    main()
