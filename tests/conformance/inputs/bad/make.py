#!/usr/bin/env python3
"""Writes the small models and .npy files of run_bad_input.sh (run once; the outputs are committed)."""
import numpy as np
import onnx
from onnx import TensorProto, helper

def save(graph, name, opsets):
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets])
    m.ir_version = 10
    onnx.save(m, name)

f = TensorProto.FLOAT
add = helper.make_graph([helper.make_node("Add", ["x", "y"], ["z"], name="add")], "add",
                        [helper.make_tensor_value_info("x", f, [2, 3]),
                         helper.make_tensor_value_info("y", f, [2, 3])],
                        [helper.make_tensor_value_info("z", f, [2, 3])])
save(add, "add.onnx", [("", 17)])
# A standard operator PassLab has no kernel for, and one of an unknown domain.
dec = helper.make_graph([helper.make_node("ImageDecoder", ["data"], ["image"], name="decode")],
                        "decoder", [helper.make_tensor_value_info("data", TensorProto.UINT8, [16])],
                        [helper.make_tensor_value_info("image", TensorProto.UINT8, None)])
save(dec, "image_decoder.onnx", [("", 20)])
frob = helper.make_graph([helper.make_node("Frobnicate", ["x"], ["y"], name="frob",
                                           domain="com.example")], "frob",
                         [helper.make_tensor_value_info("x", f, [2])],
                         [helper.make_tensor_value_info("y", f, [2])])
save(frob, "frobnicate.onnx", [("", 17), ("com.example", 3)])
# An input whose shape is not declared: run cannot make it up.
noshape = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu")], "noshape",
                            [helper.make_tensor_value_info("x", f, None)],
                            [helper.make_tensor_value_info("y", f, None)])
save(noshape, "no_shape.onnx", [("", 17)])
np.save("x_2x3.npy", np.arange(6, dtype=np.float32).reshape(2, 3))
np.save("x_3x2.npy", np.arange(6, dtype=np.float32).reshape(3, 2))
np.save("x_2x3_double.npy", np.arange(6, dtype=np.float64).reshape(2, 3))
with open("not_npy.npy", "w") as fh:
    fh.write("not a .npy file\n")
