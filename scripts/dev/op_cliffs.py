#!/usr/bin/env python3
"""Developer tool: single-op models at realistic sizes, PassLab against onnxruntime, to find
kernels that fall off their fast path (a ratio far above 1: a reference loop, a scalar libm
call, a missing half-type or integer path). Not a benchmark of whole models
(scripts/dev/exec_benchmark.py is); a single-op model's time includes reading its graph
inputs and copying its outputs, which is most of it for cheap ops (docs/exec-benchmark.md,
"Session 26: single-op cliffs").

Each case is built here with onnx.helper (seeded random inputs saved as .npy, the same
for both programs); PassLab runs through tests/bench/bench_models (median of --repeat runs
after warm-up), onnxruntime 1.32 in-process with graph optimizations off; 1 thread each.
Prints case, PassLab ms, onnxruntime ms, ratio.

  /tmp/pq/bin/python scripts/dev/op_cliffs.py --bench build/tests/bench/bench_models \
      [--out /tmp/passlab-op-cliffs] [CASE...]
"""
import argparse
import os, subprocess, sys, statistics
import numpy as np, onnx
from onnx import helper as h, TensorProto as T, numpy_helper as nh
import onnxruntime as ort

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--bench", required=True, help="tests/bench/bench_models (a copy)")
ap.add_argument("--out", default="/tmp/passlab-op-cliffs", help="folder for the models and inputs")
ap.add_argument("cases", nargs="*", help="only these cases (default: all)")
args = ap.parse_args()
OUT, BENCH, ONLY = args.out, args.bench, args.cases
rng = np.random.default_rng(0)
NP = {T.FLOAT: np.float32, T.UINT8: np.uint8, T.INT8: np.int8, T.INT64: np.int64, T.FLOAT16: np.float16, T.INT32: np.int32}

def model(name, nodes, inputs, outputs, inits=(), opset=17, extra_opsets=()):
    g = h.make_graph(nodes, name, [h.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                     [h.make_tensor_value_info(n, t, None) for n, t in outputs], list(inits))
    ops = [h.make_opsetid("", opset)] + [h.make_opsetid(d, v) for d, v in extra_opsets]
    m = h.make_model(g, opset_imports=ops)
    m.ir_version = 8
    return m

def init(name, arr):
    return nh.from_array(np.asarray(arr), name)

def rnd(shape, t=T.FLOAT, lo=-1, hi=1):
    dt = NP[t]
    if np.issubdtype(dt, np.integer):
        return rng.integers(lo, hi, size=shape).astype(dt)
    return rng.uniform(lo, hi, size=shape).astype(dt)

cases = []
def case(name, nodes, inputs, outputs, inits=(), opset=17, extra=(), feeds=None):
    cases.append((name, model(name, nodes, [(n, t, list(v.shape)) for n, t, v in inputs], outputs, inits, opset, extra),
                  {n: v for n, t, v in inputs}))

F = T.FLOAT
x = rnd((1, 64, 56, 56))
case("ConvTranspose_s2_k4", [h.make_node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2], pads=[1, 1, 1, 1])],
     [("x", F, x)], [("y", F)], [init("w", rnd((64, 32, 4, 4)))])
case("ConvTranspose_grouped", [h.make_node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2], pads=[1, 1, 1, 1], group=64)],
     [("x", F, x)], [("y", F)], [init("w", rnd((64, 1, 4, 4)))])
case("Conv3D_3x3x3", [h.make_node("Conv", ["x", "w"], ["y"], pads=[1] * 6)],
     [("x", F, rnd((1, 16, 16, 56, 56)))], [("y", F)], [init("w", rnd((32, 16, 3, 3, 3)))])
case("Conv_atrous_d6", [h.make_node("Conv", ["x", "w"], ["y"], pads=[6] * 4, dilations=[6, 6])],
     [("x", F, rnd((1, 256, 33, 33)))], [("y", F)], [init("w", rnd((256, 256, 3, 3)))])
case("Conv1D_audio", [h.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1])],
     [("x", F, rnd((1, 64, 16000)))], [("y", F)], [init("w", rnd((64, 64, 3)))])
case("Conv_5x5_out8", [h.make_node("Conv", ["x", "w"], ["y"], pads=[2] * 4)],
     [("x", F, rnd((1, 32, 112, 112)))], [("y", F)], [init("w", rnd((8, 32, 5, 5)))])
case("Resize_linear_x2", [h.make_node("Resize", ["x", "", "s"], ["y"], mode="linear")],
     [("x", F, x)], [("y", F)], [init("s", np.array([1, 1, 2, 2], np.float32))])
case("Resize_linear_align", [h.make_node("Resize", ["x", "", "s"], ["y"], mode="linear", coordinate_transformation_mode="align_corners")],
     [("x", F, x)], [("y", F)], [init("s", np.array([1, 1, 2, 2], np.float32))])
case("Resize_cubic_x2", [h.make_node("Resize", ["x", "", "s"], ["y"], mode="cubic")],
     [("x", F, rnd((1, 16, 56, 56)))], [("y", F)], [init("s", np.array([1, 1, 2, 2], np.float32))])
case("InstanceNorm", [h.make_node("InstanceNormalization", ["x", "g", "b"], ["y"])],
     [("x", F, rnd((1, 64, 112, 112)))], [("y", F)], [init("g", rnd((64,))), init("b", rnd((64,)))])
case("GroupNorm32", [h.make_node("GroupNormalization", ["x", "g", "b"], ["y"], num_groups=32)],
     [("x", F, rnd((1, 64, 112, 112)))], [("y", F)], [init("g", rnd((64,))), init("b", rnd((64,)))], opset=21)
case("LayerNorm768", [h.make_node("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1)],
     [("x", F, rnd((1, 512, 768)))], [("y", F)], [init("g", rnd((768,))), init("b", rnd((768,)))])
case("Softmax_attn", [h.make_node("Softmax", ["x"], ["y"], axis=-1)], [("x", F, rnd((12, 256, 256)))], [("y", F)])
case("Softmax_axis1", [h.make_node("Softmax", ["x"], ["y"], axis=1)], [("x", F, rnd((1, 80, 8400)))], [("y", F)])
case("LogSoftmax_vocab", [h.make_node("LogSoftmax", ["x"], ["y"], axis=-1)], [("x", F, rnd((1, 64, 32000)))], [("y", F)])
case("MatMulInteger_u8w_zp", [h.make_node("MatMulInteger", ["a", "b", "az", "bz"], ["y"])],
     [("a", T.UINT8, rnd((128, 768), T.UINT8, 0, 256))], [("y", T.INT32)],
     [init("b", rnd((768, 3072), T.UINT8, 0, 256)), init("az", np.array(128, np.uint8)), init("bz", np.array(131, np.uint8))])
case("MatMulInteger_s8w", [h.make_node("MatMulInteger", ["a", "b", "az"], ["y"])],
     [("a", T.UINT8, rnd((128, 768), T.UINT8, 0, 256))], [("y", T.INT32)],
     [init("b", rnd((768, 3072), T.INT8, -127, 128)), init("az", np.array(128, np.uint8))])
case("ConvInteger_u8w_zp", [h.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"], pads=[1] * 4)],
     [("x", T.UINT8, rnd((1, 64, 56, 56), T.UINT8, 0, 256))], [("y", T.INT32)],
     [init("w", rnd((64, 64, 3, 3), T.UINT8, 0, 256)), init("xz", np.array(128, np.uint8)), init("wz", np.array(127, np.uint8))])
case("QLinearMatMul_u8w", [h.make_node("QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"])],
     [("a", T.UINT8, rnd((128, 768), T.UINT8, 0, 256))], [("y", T.UINT8)],
     [init("as", np.array(0.02, np.float32)), init("az", np.array(128, np.uint8)), init("b", rnd((768, 3072), T.UINT8, 0, 256)),
      init("bs", np.array(0.003, np.float32)), init("bz", np.array(125, np.uint8)), init("ys", np.array(0.5, np.float32)), init("yz", np.array(120, np.uint8))])
case("QLinearConv_u8w", [h.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["y"], pads=[1] * 4)],
     [("x", T.UINT8, rnd((1, 64, 56, 56), T.UINT8, 0, 256))], [("y", T.UINT8)],
     [init("xs", np.array(0.02, np.float32)), init("xz", np.array(128, np.uint8)), init("w", rnd((64, 64, 3, 3), T.UINT8, 0, 256)),
      init("ws", np.array(0.003, np.float32)), init("wz", np.array(125, np.uint8)), init("ys", np.array(0.5, np.float32)), init("yz", np.array(120, np.uint8))])
case("QLinearConv_s8w", [h.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["y"], pads=[1] * 4)],
     [("x", T.UINT8, rnd((1, 64, 56, 56), T.UINT8, 0, 256))], [("y", T.UINT8)],
     [init("xs", np.array(0.02, np.float32)), init("xz", np.array(128, np.uint8)), init("w", rnd((64, 64, 3, 3), T.INT8, -127, 128)),
      init("ws", np.array(0.003, np.float32)), init("wz", np.array(0, np.int8)), init("ys", np.array(0.5, np.float32)), init("yz", np.array(120, np.uint8))])
case("DynamicQuantizeLinear", [h.make_node("DynamicQuantizeLinear", ["x"], ["y", "s", "z"])],
     [("x", F, rnd((128, 3072)))], [("y", T.UINT8), ("s", F), ("z", T.UINT8)])
case("QuantizeLinear_big", [h.make_node("QuantizeLinear", ["x", "s", "z"], ["y"])],
     [("x", F, rnd((1, 64, 112, 112)))], [("y", T.UINT8)], [init("s", np.array(0.01, np.float32)), init("z", np.array(128, np.uint8))])
case("DequantizeLinear_perch", [h.make_node("DequantizeLinear", ["x", "s", "z"], ["y"], axis=1)],
     [("x", T.UINT8, rnd((1, 64, 112, 112), T.UINT8, 0, 256))], [("y", F)], [init("s", rnd((64,), F, 0.01, 0.02)), init("z", rnd((64,), T.UINT8, 100, 150))])
case("Einsum_qk", [h.make_node("Einsum", ["q", "k"], ["y"], equation="bhqd,bhkd->bhqk")],
     [("q", F, rnd((1, 12, 128, 64))), ("k", F, rnd((1, 12, 128, 64)))], [("y", F)])
case("MatMul_batched", [h.make_node("MatMul", ["q", "k"], ["y"])],
     [("q", F, rnd((1, 12, 128, 64))), ("k", F, rnd((1, 12, 64, 128)))], [("y", F)])
case("GridSample", [h.make_node("GridSample", ["x", "g"], ["y"])],
     [("x", F, rnd((1, 32, 64, 64))), ("g", F, rnd((1, 64, 64, 2)))], [("y", F)], opset=16)
case("TopK_large", [h.make_node("TopK", ["x", "k"], ["v", "i"])],
     [("x", F, rnd((1, 100000)))], [("v", F), ("i", T.INT64)], [init("k", np.array([100], np.int64))])
case("Gather_embed", [h.make_node("Gather", ["e", "i"], ["y"])],
     [("i", T.INT64, rng.integers(0, 30522, (1, 512)).astype(np.int64))], [("y", F)], [init("e", rnd((30522, 768)))])
case("CumSum", [h.make_node("CumSum", ["x", "a"], ["y"])], [("x", F, rnd((1, 1024, 1024)))], [("y", F)], [init("a", np.array(1, np.int64))])
case("CumSum_last", [h.make_node("CumSum", ["x", "a"], ["y"])], [("x", F, rnd((1, 1024, 1024)))], [("y", F)], [init("a", np.array(-1, np.int64))])
case("CumSum_1d", [h.make_node("CumSum", ["x", "a"], ["y"])], [("x", F, rnd((1 << 20,)))], [("y", F)], [init("a", np.array(0, np.int64))])
case("CumSum_last_3", [h.make_node("CumSum", ["x", "a"], ["y"])], [("x", F, rnd((3, 1 << 18)))], [("y", F)], [init("a", np.array(1, np.int64))])
case("CumSum_last_excl_rev", [h.make_node("CumSum", ["x", "a"], ["y"], exclusive=1, reverse=1)], [("x", F, rnd((64, 4096)))], [("y", F)],
     [init("a", np.array(1, np.int64))])
case("ReduceMean_hw", [h.make_node("ReduceMean", ["x", "a"], ["y"], keepdims=1)], [("x", F, rnd((1, 64, 112, 112)))], [("y", F)],
     [init("a", np.array([2, 3], np.int64))], opset=18)
case("ReduceSum_c", [h.make_node("ReduceSum", ["x", "a"], ["y"], keepdims=1)], [("x", F, rnd((1, 64, 112, 112)))], [("y", F)],
     [init("a", np.array([1], np.int64))])
case("ReduceMax_last", [h.make_node("ReduceMax", ["x", "a"], ["y"], keepdims=0)], [("x", F, rnd((256, 4096)))], [("y", F)],
     [init("a", np.array([-1], np.int64))], opset=18)
case("Transpose_nhwc", [h.make_node("Transpose", ["x"], ["y"], perm=[0, 2, 3, 1])], [("x", F, rnd((1, 64, 112, 112)))], [("y", F)])
case("Transpose_heads", [h.make_node("Transpose", ["x"], ["y"], perm=[0, 2, 1, 3])], [("x", F, rnd((1, 512, 12, 64)))], [("y", F)])
case("Expand_mask", [h.make_node("Expand", ["x", "s"], ["y"])], [("x", F, rnd((1, 1, 256, 256)))], [("y", F)],
     [init("s", np.array([1, 12, 256, 256], np.int64))])
case("Where_bcast", [h.make_node("Greater", ["x", "z"], ["c"]), h.make_node("Where", ["c", "x", "n"], ["y"])],
     [("x", F, rnd((12, 256, 256)))], [("y", F)], [init("z", np.array(0, np.float32)), init("n", np.array(-1e4, np.float32))])
case("Pad_reflect", [h.make_node("Pad", ["x", "p"], ["y"], mode="reflect")], [("x", F, rnd((1, 64, 112, 112)))], [("y", F)],
     [init("p", np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64))])
case("DepthToSpace", [h.make_node("DepthToSpace", ["x"], ["y"], blocksize=2)], [("x", F, rnd((1, 256, 56, 56)))], [("y", F)])
case("SpaceToDepth", [h.make_node("SpaceToDepth", ["x"], ["y"], blocksize=2)], [("x", F, rnd((1, 64, 112, 112)))], [("y", F)])
case("LRN", [h.make_node("LRN", ["x"], ["y"], size=5)], [("x", F, rnd((1, 96, 55, 55)))], [("y", F)])
case("GRU_256", [h.make_node("GRU", ["x", "w", "r", "b"], ["y", "yh"], hidden_size=256)],
     [("x", F, rnd((50, 1, 256)))], [("y", F), ("yh", F)], [init("w", rnd((1, 768, 256), F, -.1, .1)), init("r", rnd((1, 768, 256), F, -.1, .1)), init("b", rnd((1, 1536)))])
case("Mish", [h.make_node("Mish", ["x"], ["y"])], [("x", F, rnd((1, 64, 112, 112)))], [("y", F)], opset=18)
case("Softplus", [h.make_node("Softplus", ["x"], ["y"])], [("x", F, rnd((1, 64, 112, 112)))], [("y", F)])
case("HardSwish", [h.make_node("HardSwish", ["x"], ["y"])], [("x", F, rnd((1, 64, 112, 112)))], [("y", F)])
case("Elu", [h.make_node("Elu", ["x"], ["y"])], [("x", F, rnd((1, 64, 112, 112)))], [("y", F)])
case("Exp", [h.make_node("Exp", ["x"], ["y"])], [("x", F, rnd((1, 64, 112, 112)))], [("y", F)])
case("Log", [h.make_node("Log", ["x"], ["y"])], [("x", F, rnd((1, 64, 112, 112), F, 0.1, 2))], [("y", F)])
case("Pow_sqrt", [h.make_node("Pow", ["x", "p"], ["y"])], [("x", F, rnd((1, 64, 112, 112), F, 0.1, 2))], [("y", F)], [init("p", np.array(0.5, np.float32))])
case("Div_bcast", [h.make_node("Div", ["x", "d"], ["y"])], [("x", F, rnd((1, 64, 112, 112))), ("d", F, rnd((1, 64, 1, 1), F, 1, 2))], [("y", F)])
case("Clip", [h.make_node("Clip", ["x", "lo", "hi"], ["y"])], [("x", F, rnd((1, 64, 112, 112)))], [("y", F)], [init("lo", np.array(0, np.float32)), init("hi", np.array(6, np.float32))])
case("Cast_f16", [h.make_node("Cast", ["x"], ["y"], to=T.FLOAT16)], [("x", F, rnd((1, 64, 112, 112)))], [("y", T.FLOAT16)])
case("Conv_fp16", [h.make_node("Conv", ["x", "w"], ["y"], pads=[1] * 4)],
     [("x", T.FLOAT16, rnd((1, 64, 56, 56)).astype(np.float16))], [("y", T.FLOAT16)], [init("w", rnd((64, 64, 3, 3)).astype(np.float16))])
case("MatMul_fp16", [h.make_node("MatMul", ["a", "b"], ["y"])],
     [("a", T.FLOAT16, rnd((128, 768)).astype(np.float16))], [("y", T.FLOAT16)], [init("b", rnd((768, 3072)).astype(np.float16))])
case("ArgMax_seg", [h.make_node("ArgMax", ["x"], ["y"], axis=1)], [("x", F, rnd((1, 21, 256, 256)))], [("y", T.INT64)])
case("MaxPool_3x3s2_pad", [h.make_node("MaxPool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2], pads=[1] * 4)],
     [("x", F, rnd((1, 64, 112, 112)))], [("y", F)])
case("MaxPool_ceil", [h.make_node("MaxPool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1)],
     [("x", F, rnd((1, 96, 111, 111)))], [("y", F)])
case("AvgPool_ceil_exclpad", [h.make_node("AveragePool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2], pads=[1] * 4, ceil_mode=1)],
     [("x", F, rnd((1, 64, 111, 111)))], [("y", F)])
case("LpPool", [h.make_node("LpPool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2])], [("x", F, rnd((1, 64, 112, 112)))], [("y", F)])
case("NMS", [h.make_node("NonMaxSuppression", ["b", "s", "m", "iou", "st"], ["y"])],
     [("b", F, np.sort(rnd((1, 3000, 4), F, 0, 1).reshape(1, 3000, 2, 2), axis=2).reshape(1, 3000, 4)), ("s", F, rnd((1, 80, 3000), F, 0, 1))],
     [("y", T.INT64)], [init("m", np.array([100], np.int64)), init("iou", np.array([0.5], np.float32)), init("st", np.array([0.3], np.float32))])
case("ScatterND", [h.make_node("ScatterND", ["x", "i", "u"], ["y"])],
     [("x", F, rnd((1, 512, 768))), ("u", F, rnd((1, 64, 768)))], [("y", F)],
     [init("i", np.stack([np.zeros(64, np.int64), rng.choice(512, 64, replace=False)], -1).reshape(1, 64, 2))])
case("Concat_ch", [h.make_node("Concat", ["a", "b"], ["y"], axis=1)], [("a", F, rnd((1, 64, 112, 112))), ("b", F, rnd((1, 64, 112, 112)))], [("y", F)])
case("Split_ch", [h.make_node("Split", ["x"], ["a", "b"], axis=1, num_outputs=2)], [("x", F, rnd((1, 128, 112, 112)))], [("a", F), ("b", F)], opset=18)
case("Slice_step2", [h.make_node("Slice", ["x", "s", "e", "a", "st"], ["y"])], [("x", F, rnd((1, 64, 224, 224)))], [("y", F)],
     [init("s", np.array([0, 0], np.int64)), init("e", np.array([224, 224], np.int64)), init("a", np.array([2, 3], np.int64)), init("st", np.array([2, 2], np.int64))])
case("Tile", [h.make_node("Tile", ["x", "r"], ["y"])], [("x", F, rnd((1, 64, 56, 56)))], [("y", F)], [init("r", np.array([1, 1, 2, 2], np.int64))])
case("Gemm_classifier", [h.make_node("Gemm", ["x", "w", "b"], ["y"], transB=1)], [("x", F, rnd((1, 2048)))], [("y", F)],
     [init("w", rnd((1000, 2048))), init("b", rnd((1000,)))])
case("Attention_ms", [h.make_node("Attention", ["x", "w", "b"], ["y"], domain="com.microsoft", num_heads=12)],
     [("x", F, rnd((1, 128, 768)))], [("y", F)], [init("w", rnd((768, 2304), F, -.05, .05)), init("b", rnd((2304,)))], extra=[("com.microsoft", 1)])

# float16 (what convert_to_float16 leaves the executor)
F16 = T.FLOAT16
def r16(shape, lo=-1, hi=1): return rnd(shape, T.FLOAT, lo, hi).astype(np.float16)
x = r16((1, 64, 112, 112))
case("f16_Add", [h.make_node("Add", ["x", "y"], ["z"])], [("x", F16, x), ("y", F16, r16((1, 64, 112, 112)))], [("z", F16)])
case("f16_AddBias", [h.make_node("Add", ["x", "b"], ["z"])], [("x", F16, x)], [("z", F16)], [init("b", r16((1, 64, 1, 1)))])
case("f16_Relu", [h.make_node("Relu", ["x"], ["z"])], [("x", F16, x)], [("z", F16)])
case("f16_Sigmoid", [h.make_node("Sigmoid", ["x"], ["z"])], [("x", F16, x)], [("z", F16)])
case("f16_Mul", [h.make_node("Mul", ["x", "x"], ["z"])], [("x", F16, x)], [("z", F16)])
case("f16_Softmax", [h.make_node("Softmax", ["x"], ["y"], axis=-1)], [("x", F16, r16((12, 256, 256)))], [("y", F16)])
case("f16_LayerNorm", [h.make_node("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1)],
     [("x", F16, r16((1, 512, 768)))], [("y", F16)], [init("g", r16((768,))), init("b", r16((768,)))])
case("f16_MaxPool", [h.make_node("MaxPool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2], pads=[1] * 4)], [("x", F16, x)], [("y", F16)])
case("f16_GAP", [h.make_node("GlobalAveragePool", ["x"], ["y"])], [("x", F16, x)], [("y", F16)])
case("f16_Concat", [h.make_node("Concat", ["a", "b"], ["y"], axis=1)], [("a", F16, x), ("b", F16, x)], [("y", F16)])
case("f16_Resize", [h.make_node("Resize", ["x", "", "s"], ["y"], mode="nearest")], [("x", F16, r16((1, 64, 56, 56)))], [("y", F16)], [init("s", np.array([1, 1, 2, 2], np.float32))])
case("f16_BatchNorm", [h.make_node("BatchNormalization", ["x", "g", "b", "m", "v"], ["y"])], [("x", F16, x)], [("y", F16)],
     [init("g", r16((64,))), init("b", r16((64,))), init("m", r16((64,))), init("v", r16((64,), 0.5, 1))])
case("f16_Conv1x1", [h.make_node("Conv", ["x", "w"], ["y"])], [("x", F16, r16((1, 64, 56, 56)))], [("y", F16)], [init("w", r16((64, 64, 1, 1)))])
case("f16_Transpose", [h.make_node("Transpose", ["x"], ["y"], perm=[0, 2, 1, 3])], [("x", F16, r16((1, 512, 12, 64)))], [("y", F16)])
case("f16_Gelu_erf", [h.make_node("Erf", ["x"], ["y"])], [("x", F16, r16((1, 128, 3072)))], [("y", F16)])
case("f16_ReduceMean", [h.make_node("ReduceMean", ["x", "a"], ["y"])], [("x", F16, r16((1, 512, 768)))], [("y", F16)], [init("a", np.array([-1], np.int64))], opset=18)
case("f16_Tanh", [h.make_node("Tanh", ["x"], ["z"])], [("x", F16, x)], [("z", F16)])
case("f16_Clip", [h.make_node("Clip", ["x", "lo", "hi"], ["y"])], [("x", F16, x)], [("y", F16)], [init("lo", np.array(0, np.float16)), init("hi", np.array(6, np.float16))])


def ort_time(path, feeds, reps):
    so = ort.SessionOptions(); so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.intra_op_num_threads = 1; so.inter_op_num_threads = 1
    s = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    import time
    for _ in range(3): s.run(None, feeds)
    ts = []
    for _ in range(reps):
        t = time.perf_counter(); s.run(None, feeds); ts.append((time.perf_counter() - t) * 1e3)
    return statistics.median(ts)

os.makedirs(OUT, exist_ok=True)
print("case\tpasslab_ms\tort_ms\tratio")
for name, m, feeds in cases:
    if ONLY and name not in ONLY: continue
    p = f"{OUT}/{name}.onnx"; onnx.save(m, p)
    args = [BENCH, "--threads", "1", "--repeat", "20"]
    for k, v in feeds.items():
        np.save(f"{OUT}/{name}.{k}.npy", v); args += ["--input", f"{k}={OUT}/{name}.{k}.npy"]
    try:
        r = subprocess.run(args + [p], capture_output=True, text=True, timeout=300)
        pl = float(r.stdout.strip().split("\t")[2]) if r.returncode == 0 and r.stdout.strip() else float("nan")
        if r.returncode != 0: print(f"# {name}: passlab failed: {(r.stdout + r.stderr)[-200:]}", flush=True)
    except Exception as e:
        pl = float("nan"); print(f"# {name}: passlab {e}")
    try:
        o = ort_time(p, feeds, 20)
    except Exception as e:
        o = float("nan"); print(f"# {name}: ort {str(e)[:150]}")
    print(f"{name}\t{pl:.3f}\t{o:.3f}\t{pl / o if o == o and o > 0 else float('nan'):.2f}", flush=True)
