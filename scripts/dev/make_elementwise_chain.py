#!/usr/bin/env python3
"""Write an elementwise-chain ONNX model for the FusedElementwise bandwidth benchmark.

Y = Mul(Relu(Add(X, b)), c) with X float32 of the given shape and scalar initializers b and c,
so the model file stays tiny while X and Y are large. `passlab-cli optimize --passes
fuse_elementwise_chains` turns the chain into one ai.passlab FusedElementwise node, which reads X
once and writes Y once: bytes moved = 2 * X's bytes.

usage: make_elementwise_chain.py OUT.onnx [--shape 64,1024,1024]
"""
import argparse

import onnx
from onnx import TensorProto, helper


def make_model(shape):
    x = helper.make_tensor_value_info("X", TensorProto.FLOAT, shape)
    y = helper.make_tensor_value_info("Y", TensorProto.FLOAT, shape)
    b = helper.make_tensor("b", TensorProto.FLOAT, [], [0.25])
    c = helper.make_tensor("c", TensorProto.FLOAT, [], [1.5])
    nodes = [
        helper.make_node("Add", ["X", "b"], ["t0"], name="add"),
        helper.make_node("Relu", ["t0"], ["t1"], name="relu"),
        helper.make_node("Mul", ["t1", "c"], ["Y"], name="mul"),
    ]
    graph = helper.make_graph(nodes, "elementwise_chain", [x], [y], initializer=[b, c])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--shape", default="64,1024,1024", help="comma-separated dims of X")
    args = parser.parse_args()
    shape = [int(d) for d in args.shape.split(",")]
    onnx.save(make_model(shape), args.out)
    elements = 1
    for d in shape:
        elements *= d
    print(f"{args.out}: X float32{shape}, {elements * 4 / 2**20:.0f} MiB per tensor, "
          f"{2 * elements * 4 / 2**20:.0f} MiB moved by one fused pass")


if __name__ == "__main__":
    main()
