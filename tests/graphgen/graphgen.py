#!/usr/bin/env python3
"""Random valid ONNX graphs for differential testing (NNSmith-style).

A graph is built op by op. Each generator in OPS knows its op's type and shape
rules: it picks operands among the values built so far that satisfy them (or
makes a constant that does), emits the node(s), and records the result's dtype
and shape. Shapes are therefore known exactly at every step; the result is
checked once more with onnx.checker (full_check) and strict shape inference,
and a graph that fails either is a generator bug (make() raises GeneratorBug).

Besides single ops, some generators emit the patterns PassLab's passes look
for, so every level has work: Conv+BatchNormalization, Mul by 1 / Add 0,
Transpose pairs, Identity chains, duplicate subexpressions (CSE), constant
subgraphs (folding), the Gelu Erf formula, Softmax / LayerNormalization.

Reproducible: make(seed, index) builds the same graph on every run (numpy's
Generator seeded with [seed, index]); inputs(model, seed, index) the same
inputs (float32 uniform in [-1, 1)).

  graphgen.py SEED INDEX OUT.onnx     write one graph (developer use)
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F32 = TensorProto.FLOAT
I64 = TensorProto.INT64
BOOL = TensorProto.BOOL
OPSETS = (13, 17, 18, 20, 21)  # 20+: Gelu exists, fuse_gelu runs


class GeneratorBug(Exception):
    pass


class Skip(Exception):
    """An op generator found no operand it can use; another op is tried."""


class Builder:
    def __init__(self, rng, opset):
        self.rng = rng
        self.opset = opset
        self.nodes, self.inits, self.inputs = [], [], []
        self.values = {}  # name -> (elem type, shape tuple)
        self.order = []  # value names in creation order
        self.used = set()
        self.n = 0
        self.ops = []  # op types emitted

    # --- names, values ---------------------------------------------------
    def fresh(self, stem):
        self.n += 1
        return f"{stem}_{self.n}"

    def add_value(self, name, et, shape):
        self.values[name] = (et, tuple(int(d) for d in shape))
        self.order.append(name)
        return name

    def const(self, arr, stem="c"):
        name = self.fresh(stem)
        self.inits.append(numpy_helper.from_array(np.asarray(arr), name))
        arr = np.asarray(arr)
        et = helper.np_dtype_to_tensor_dtype(arr.dtype)
        self.values[name] = (et, arr.shape)
        return name

    def i64(self, vals):
        return self.const(np.array(vals, dtype=np.int64), "i")

    def node(self, op, ins, et, shape, attrs=None, nout=1, shapes=None):
        outs = [self.fresh(op.lower()) for _ in range(nout)]
        self.nodes.append(helper.make_node(op, ins, outs, name=self.fresh("n_" + op), **(attrs or {})))
        self.ops.append(op)
        for i in ins:
            if i:
                self.used.add(i)
        for k, o in enumerate(outs):
            self.add_value(o, et, shapes[k] if shapes else shape)
        return outs if nout > 1 else outs[0]

    def pick(self, pred=lambda et, s: True, et=F32):
        cands = [v for v in self.order if self.values[v][0] == et and pred(et, self.values[v][1])]
        if not cands:
            raise Skip()
        # Prefer recent values: deeper graphs.
        w = np.arange(1, len(cands) + 1, dtype=np.float64) ** 2
        return cands[self.rng.choice(len(cands), p=w / w.sum())]

    def shape(self, v):
        return self.values[v][1]

    def rand(self, shape, lo=-1.0, hi=1.0):
        return self.rng.uniform(lo, hi, size=shape).astype(np.float32)

    def ri(self, lo, hi):  # inclusive
        return int(self.rng.integers(lo, hi + 1))

    def coin(self, p=0.5):
        return bool(self.rng.random() < p)


def bcast_shape(a, b):
    r = max(len(a), len(b))
    a = (1,) * (r - len(a)) + tuple(a)
    b = (1,) * (r - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            return None
        out.append(max(x, y))
    return tuple(out)


def partner_shape(b, s):
    """A shape that broadcasts with s to s: s itself, s with some dims 1, a suffix, a scalar."""
    k = b.ri(0, 3)
    if k == 0:
        return s
    if k == 1:
        return tuple(d if b.coin() else 1 for d in s)
    if k == 2 and len(s) > 0:
        return s[b.ri(0, len(s) - 1):]
    return ()


# --- op generators: each takes the Builder, emits, or raises Skip ----------
UNARY = ["Relu", "Sigmoid", "Tanh", "Abs", "Neg", "Exp", "Floor", "Ceil", "Erf", "Sin", "Cos",
         "Softplus", "Elu", "LeakyRelu", "HardSigmoid", "Round", "Sign", "Reciprocal1", "Sqrt1", "Log1"]


STEP = ("Floor", "Ceil", "Round", "Sign")  # discontinuous: only on inputs, whose values are exact


def g_unary(b):
    op = UNARY[b.ri(0, len(UNARY) - 1)]
    x = b.pick(lambda et, s: True) if op not in STEP else b.inputs[b.ri(0, len(b.inputs) - 1)].name
    s = b.shape(x)
    if op == "Exp":  # keep values bounded: Exp(Tanh(x))
        x = b.node("Tanh", [x], F32, s)
    if op in ("Reciprocal1", "Sqrt1", "Log1"):  # domain: Abs(x) + 1
        a = b.node("Abs", [x], F32, s)
        x = b.node("Add", [a, b.const(np.float32(1.0))], F32, s)
        op = op[:-1]
    attrs = {"alpha": float(b.rng.uniform(0.05, 0.5))} if op in ("Elu", "LeakyRelu") else None
    return b.node(op, [x], F32, s, attrs)


BINARY = ["Add", "Sub", "Mul", "Div", "Max", "Min", "Pow"]


def g_binary(b):
    x = b.pick()
    s = b.shape(x)
    op = BINARY[b.ri(0, len(BINARY) - 1)]
    # A second operand among the values, or a constant.
    others = [v for v in b.order if b.values[v][0] == F32 and v != x and bcast_shape(s, b.shape(v))]
    if others and b.coin(0.6):
        y = others[b.ri(0, len(others) - 1)]
    else:
        y = b.const(b.rand(partner_shape(b, s)))
    if b.coin(0.3):
        x, y = y, x
    out = bcast_shape(b.shape(x), b.shape(y))
    if op == "Div":  # denominator Abs(y) + 0.5
        a = b.node("Abs", [y], F32, b.shape(y))
        y = b.node("Add", [a, b.const(np.float32(0.5))], F32, b.shape(y))
    if op == "Pow":  # base Abs(x) + 0.1, small exponent
        a = b.node("Abs", [x], F32, b.shape(x))
        x = b.node("Add", [a, b.const(np.float32(0.1))], F32, b.shape(x))
        y = b.node("Tanh", [y], F32, b.shape(y))
    return b.node(op, [x, y], F32, out)


def g_matmul(b):
    x = b.pick(lambda et, s: len(s) >= 1)
    s = b.shape(x)
    n = b.ri(1, 6)
    if len(s) == 1:
        w = b.const(b.rand((s[0], n)) * 0.5)
        return b.node("MatMul", [x, w], F32, (n,))
    if b.coin(0.7):
        w = b.const(b.rand((s[-1], n)) * 0.5)
        return b.node("MatMul", [x, w], F32, s[:-1] + (n,))
    # Batched with a value of matching batch dims: x @ Transpose(y) style
    w = b.const(b.rand(s[:-2] + (s[-1], n)) * 0.5)
    return b.node("MatMul", [x, w], F32, s[:-1] + (n,))


def g_gemm(b):
    x = b.pick(lambda et, s: len(s) == 2)
    m, k = b.shape(x)
    n = b.ri(1, 6)
    tb = b.coin()
    w = b.const(b.rand((n, k) if tb else (k, n)) * 0.5)
    ins = [x, w]
    if b.coin(0.8):
        ins.append(b.const(b.rand(((n,), (1, n), (m, n), ())[b.ri(0, 3)])))
    attrs = {"transB": int(tb)}
    if b.coin(0.3):
        attrs["alpha"] = float(b.rng.uniform(0.5, 2))
        attrs["beta"] = float(b.rng.uniform(0.5, 2))
    return b.node("Gemm", ins, F32, (m, n), attrs)


def to4d(b):
    """A rank-4 float value, making one by Reshape when none exists."""
    try:
        return b.pick(lambda et, s: len(s) == 4 and min(s[2:]) >= 2)
    except Skip:
        x = b.pick(lambda et, s: int(np.prod(s)) >= 4)
        total = int(np.prod(b.shape(x)))
        h = next(d for d in (4, 3, 2, 1) if total % d == 0 and total // d >= 2) if total >= 4 else 1
        shape = (1, total // (h * h) if total % (h * h) == 0 else total // h, h if total % (h * h) == 0 else 1, h)
        if int(np.prod(shape)) != total or min(shape[2:]) < 1:
            raise Skip()
        return b.node("Reshape", [x, b.i64(list(shape))], F32, shape)


def conv_geometry(b, h, w):
    k = (b.ri(1, min(3, h)), b.ri(1, min(3, w)))
    st = (b.ri(1, 2), b.ri(1, 2))
    dl = (1, 1) if b.coin(0.7) else (b.ri(1, 2), b.ri(1, 2))
    pads = [b.ri(0, k[0] - 1), b.ri(0, k[1] - 1), b.ri(0, k[0] - 1), b.ri(0, k[1] - 1)]
    eff = [(k[i] - 1) * dl[i] + 1 for i in range(2)]
    oh = (h + pads[0] + pads[2] - eff[0]) // st[0] + 1
    ow = (w + pads[1] + pads[3] - eff[1]) // st[1] + 1
    if oh < 1 or ow < 1:
        raise Skip()
    return k, st, dl, pads, (oh, ow)


def g_conv(b, then_bn=False):
    x = to4d(b)
    n, c, h, w = b.shape(x)
    k, st, dl, pads, (oh, ow) = conv_geometry(b, h, w)
    group = c if (c > 1 and b.coin(0.2)) else 1
    m = group * b.ri(1, 3) if group > 1 else b.ri(1, 6)
    wt = b.const(b.rand((m, c // group) + k) * 0.5)
    ins = [x, wt] + ([b.const(b.rand((m,)))] if b.coin(0.7) else [])
    y = b.node("Conv", ins, F32, (n, m, oh, ow),
               {"kernel_shape": list(k), "strides": list(st), "dilations": list(dl), "pads": pads,
                "group": group})
    if then_bn or b.coin(0.3):
        y = bn(b, y)
        if b.coin(0.5):
            y = b.node("Relu", [y], F32, b.shape(y))
    return y


def bn(b, x):
    s = b.shape(x)
    c = s[1]
    ins = [x, b.const(b.rand((c,), 0.5, 1.5)), b.const(b.rand((c,))), b.const(b.rand((c,))),
           b.const(b.rand((c,), 0.5, 2.0))]
    return b.node("BatchNormalization", ins, F32, s, {"epsilon": 1e-5})


def g_bn(b):
    return bn(b, b.pick(lambda et, s: len(s) >= 2))


def g_conv_transpose(b):
    x = to4d(b)
    n, c, h, w = b.shape(x)
    m = b.ri(1, 4)
    k = (b.ri(1, 3), b.ri(1, 3))
    st = (b.ri(1, 2), b.ri(1, 2))
    pads = [b.ri(0, k[0] - 1), b.ri(0, k[1] - 1), b.ri(0, k[0] - 1), b.ri(0, k[1] - 1)]
    oh = st[0] * (h - 1) + k[0] - pads[0] - pads[2]
    ow = st[1] * (w - 1) + k[1] - pads[1] - pads[3]
    if oh < 1 or ow < 1:
        raise Skip()
    wt = b.const(b.rand((c, m) + k) * 0.5)
    return b.node("ConvTranspose", [x, wt], F32, (n, m, oh, ow),
                  {"kernel_shape": list(k), "strides": list(st), "pads": pads})


def g_pool(b):
    x = to4d(b)
    n, c, h, w = b.shape(x)
    op = ("MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool")[b.ri(0, 3)]
    if op.startswith("Global"):
        return b.node(op, [x], F32, (n, c, 1, 1))
    k = (b.ri(1, min(3, h)), b.ri(1, min(3, w)))
    st = (b.ri(1, 2), b.ri(1, 2))
    pads = [b.ri(0, k[0] - 1), b.ri(0, k[1] - 1), b.ri(0, k[0] - 1), b.ri(0, k[1] - 1)]
    oh = (h + pads[0] + pads[2] - k[0]) // st[0] + 1
    ow = (w + pads[1] + pads[3] - k[1]) // st[1] + 1
    attrs = {"kernel_shape": list(k), "strides": list(st), "pads": pads}
    if op == "AveragePool":
        attrs["count_include_pad"] = b.ri(0, 1)
    return b.node(op, [x], F32, (n, c, oh, ow), attrs)


def g_reshape(b):
    x = b.pick(lambda et, s: len(s) >= 1)
    s = b.shape(x)
    total = int(np.prod(s))
    divs = [d for d in range(1, total + 1) if total % d == 0]
    kind = b.ri(0, 2)
    if kind == 0:
        d = divs[b.ri(0, len(divs) - 1)]
        shape = (d, total // d)
        spec = [d, -1] if b.coin() else [d, total // d]
    elif kind == 1:
        shape, spec = (total,), [-1]
    else:  # copy a dim with 0 (allowzero off)
        d = divs[b.ri(0, len(divs) - 1)]
        if total % (s[0] * d) or s[0] * d == 0:
            raise Skip()
        shape = (s[0], d, total // (s[0] * d))
        spec = [0, d, -1]
    return b.node("Reshape", [x, b.i64(spec)], F32, shape)


def g_flatten(b):
    x = b.pick(lambda et, s: len(s) >= 1)
    s = b.shape(x)
    ax = b.ri(0, len(s))
    return b.node("Flatten", [x], F32, (int(np.prod(s[:ax])), int(np.prod(s[ax:]))), {"axis": ax})


def g_transpose(b, pair=False):
    x = b.pick(lambda et, s: len(s) >= 2)
    s = b.shape(x)
    perm = list(b.rng.permutation(len(s)))
    y = b.node("Transpose", [x], F32, tuple(s[p] for p in perm), {"perm": [int(p) for p in perm]})
    if pair or b.coin(0.3):  # a pair that cancels (or composes)
        inv = list(np.argsort(perm)) if b.coin(0.7) else list(b.rng.permutation(len(s)))
        y = b.node("Transpose", [y], F32, tuple(b.shape(y)[p] for p in inv), {"perm": [int(p) for p in inv]})
    return y


def g_squeeze(b):
    x = b.pick(lambda et, s: 1 <= len(s) <= 4)
    s = b.shape(x)
    ax = b.ri(0, len(s))
    u = b.node("Unsqueeze", [x, b.i64([ax if b.coin() else ax - len(s) - 1])], F32, s[:ax] + (1,) + s[ax:])
    if b.coin(0.6):
        ones = [i for i, d in enumerate(b.shape(u)) if d == 1]
        a = ones[b.ri(0, len(ones) - 1)]
        su = b.shape(u)
        return b.node("Squeeze", [u, b.i64([a])], F32, su[:a] + su[a + 1:])
    return u


def g_concat(b):
    x = b.pick(lambda et, s: len(s) >= 1)
    s = b.shape(x)
    ax = b.ri(0, len(s) - 1)
    parts = [x]
    for _ in range(b.ri(1, 2)):
        same = [v for v in b.order if b.values[v][0] == F32 and len(b.shape(v)) == len(s)
                and all(b.shape(v)[i] == s[i] for i in range(len(s)) if i != ax)]
        if same and b.coin(0.6):
            parts.append(same[b.ri(0, len(same) - 1)])
        else:
            cs = list(s)
            cs[ax] = b.ri(1, 3)
            parts.append(b.const(b.rand(tuple(cs))))
    out = list(s)
    out[ax] = sum(b.shape(p)[ax] for p in parts)
    return b.node("Concat", parts, F32, tuple(out), {"axis": ax - len(s) if b.coin(0.3) else ax})


def g_split(b):
    x = b.pick(lambda et, s: len(s) >= 1 and max(s) >= 2)
    s = b.shape(x)
    ax = [i for i, d in enumerate(s) if d >= 2][0] if b.coin() else b.ri(0, len(s) - 1)
    if s[ax] < 2:
        raise Skip()
    cut = b.ri(1, s[ax] - 1)
    sizes = [cut, s[ax] - cut]
    shapes = [s[:ax] + (z,) + s[ax + 1:] for z in sizes]
    outs = b.node("Split", [x, b.i64(sizes)], F32, None, {"axis": ax}, nout=2, shapes=shapes)
    return outs[b.ri(0, 1)]


def g_slice(b):
    x = b.pick(lambda et, s: len(s) >= 1 and max(s) >= 2)
    s = list(b.shape(x))
    ax = b.ri(0, len(s) - 1)
    d = s[ax]
    if b.coin(0.25) and d >= 2:  # negative step: reverse part
        start, end, step = d - 1, -d - 1 if b.coin() else 0, -1
        n = len(range(start, end if end >= 0 else -1, -1))
    else:
        start = b.ri(0, d - 1)
        end = b.ri(start + 1, d)
        step = b.ri(1, 2)
        n = len(range(start, end, step))
        if b.coin(0.3):
            end = 2 ** 62  # "to the end" idiom
            n = len(range(start, d, step))
        if b.coin(0.3):
            start -= d  # negative start
    s[ax] = n
    ins = [x, b.i64([start]), b.i64([end]), b.i64([ax]), b.i64([step])]
    return b.node("Slice", ins, F32, tuple(s))


def g_gather(b):
    x = b.pick(lambda et, s: len(s) >= 1)
    s = b.shape(x)
    ax = b.ri(0, len(s) - 1)
    ishape = ((), (b.ri(1, 3),), (2, 2))[b.ri(0, 2)]
    idx = b.rng.integers(-s[ax], s[ax], size=ishape).astype(np.int64)
    return b.node("Gather", [x, b.const(idx, "idx")], F32, s[:ax] + ishape + s[ax + 1:], {"axis": ax})


def g_pad(b):
    x = b.pick(lambda et, s: 1 <= len(s) <= 4)
    s = b.shape(x)
    mode = ("constant", "reflect", "edge")[b.ri(0, 2)]
    r = len(s)
    lim = [(d - 1 if mode == "reflect" else 2) for d in s]
    pads = [b.ri(0, min(2, lim[i])) for i in range(r)] + [b.ri(0, min(2, lim[i])) for i in range(r)]
    out = tuple(s[i] + pads[i] + pads[i + r] for i in range(r))
    ins = [x, b.i64(pads)]
    if mode == "constant" and b.coin():
        ins.append(b.const(np.float32(b.rng.uniform(-1, 1))))
    return b.node("Pad", ins, F32, out, {"mode": mode})


REDUCE = ["ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL2",
          "ReduceSumSquare", "ReduceLogSumExp"]


def g_reduce(b):
    x = b.pick(lambda et, s: len(s) >= 1)
    s = b.shape(x)
    op = REDUCE[b.ri(0, len(REDUCE) - 1)]
    axes = sorted(set(int(a) for a in b.rng.choice(len(s), size=b.ri(1, len(s)), replace=True)))
    keep = b.ri(0, 1)
    out = tuple((1 if i in axes else d) for i, d in enumerate(s) if keep or i not in axes)
    axes_in = axes if b.coin(0.7) else [a - len(s) for a in axes]
    as_input = op == "ReduceSum" or b.opset >= 18
    if as_input:
        return b.node(op, [x, b.i64(axes_in)], F32, out, {"keepdims": keep})
    return b.node(op, [x], F32, out, {"keepdims": keep, "axes": axes_in})


def g_softmax(b):
    x = b.pick(lambda et, s: len(s) >= 1)
    s = b.shape(x)
    op = ("Softmax", "LogSoftmax")[b.ri(0, 1)]
    ax = b.ri(-len(s), len(s) - 1)
    return b.node(op, [x], F32, s, {"axis": ax})


def g_layernorm(b):
    if b.opset < 17:
        raise Skip()
    x = b.pick(lambda et, s: len(s) >= 1)
    s = b.shape(x)
    ax = b.ri(-len(s), len(s) - 1)
    ns = s[ax:]
    ins = [x, b.const(b.rand(ns, 0.5, 1.5))] + ([b.const(b.rand(ns))] if b.coin(0.7) else [])
    return b.node("LayerNormalization", ins, F32, s, {"axis": ax, "epsilon": 1e-5})


def g_layernorm_pattern(b):
    """The decomposed LayerNormalization that fusion passes look for."""
    x = b.pick(lambda et, s: len(s) >= 1 and s[-1] >= 2)
    s = b.shape(x)
    rs = s[:-1] + (1,)
    mean = b.node("ReduceMean", [x] + ([b.i64([-1])] if b.opset >= 18 else []), F32, rs,
                  {} if b.opset >= 18 else {"axes": [-1]})
    d = b.node("Sub", [x, mean], F32, s)
    sq = b.node("Pow", [d, b.const(np.float32(2.0))], F32, s)
    var = b.node("ReduceMean", [sq] + ([b.i64([-1])] if b.opset >= 18 else []), F32, rs,
                 {} if b.opset >= 18 else {"axes": [-1]})
    ve = b.node("Add", [var, b.const(np.float32(1e-5))], F32, rs)
    sd = b.node("Sqrt", [ve], F32, rs)
    n = b.node("Div", [d, sd], F32, s)
    m = b.node("Mul", [n, b.const(b.rand((s[-1],), 0.5, 1.5))], F32, s)
    return b.node("Add", [m, b.const(b.rand((s[-1],)))], F32, s)


def g_gelu_pattern(b):
    x = b.pick()
    s = b.shape(x)
    d = b.node("Div", [x, b.const(np.float32(1.4142135))], F32, s)
    e = b.node("Erf", [d], F32, s)
    a = b.node("Add", [e, b.const(np.float32(1.0))], F32, s)
    m = b.node("Mul", [x, a], F32, s)
    return b.node("Mul", [m, b.const(np.float32(0.5))], F32, s)


def g_cast(b):
    x = b.pick()
    s = b.shape(x)
    k = b.ri(0, 2)
    if k == 0:  # through double
        y = b.node("Cast", [x], TensorProto.DOUBLE, s, {"to": TensorProto.DOUBLE})
        return b.node("Cast", [y], F32, s, {"to": F32})
    if k == 1:  # through float16 (rounding: compared with tolerance)
        y = b.node("Cast", [x], TensorProto.FLOAT16, s, {"to": TensorProto.FLOAT16})
        return b.node("Cast", [y], F32, s, {"to": F32})
    c = b.node("Greater", [x, b.const(np.float32(0.0))], BOOL, s)
    return b.node("Cast", [c], F32, s, {"to": F32})


def g_where(b):
    x = b.pick()
    s = b.shape(x)
    op = ("Greater", "Less", "GreaterOrEqual", "LessOrEqual")[b.ri(0, 3)]
    # Against a constant away from the values' ties.
    c = b.node(op, [x, b.const(b.rand(partner_shape(b, s)))], BOOL, s)
    if b.coin(0.3):
        c = b.node("Not", [c], BOOL, s)
    y = b.const(b.rand(partner_shape(b, s)))
    if b.coin():
        x, y = y, x
    return b.node("Where", [c, x, y], F32, bcast_shape(s, bcast_shape(b.shape(x), b.shape(y))))


def g_resize(b):
    x = to4d(b)
    n, c, h, w = b.shape(x)
    mode = ("nearest", "linear")[b.ri(0, 1)]
    sc = (float(b.ri(1, 2)), float(b.ri(1, 2)))
    attrs = {"mode": mode}
    if mode == "linear":
        attrs["coordinate_transformation_mode"] = ("half_pixel", "asymmetric", "align_corners")[b.ri(0, 2)]
    else:
        attrs["coordinate_transformation_mode"] = "asymmetric"
        attrs["nearest_mode"] = "floor"
    scales = b.const(np.array([1, 1, sc[0], sc[1]], dtype=np.float32))
    return b.node("Resize", [x, "", scales], F32, (n, c, int(h * sc[0]), int(w * sc[1])), attrs)


def g_clip(b):
    x = b.pick()
    lo = float(b.rng.uniform(-1, 0))
    ins = [x, b.const(np.float32(lo))]
    if b.coin(0.7):
        ins.append(b.const(np.float32(lo + b.rng.uniform(0.1, 2))))
    elif b.coin():
        ins = [x, "", b.const(np.float32(b.rng.uniform(0, 1)))]
    return b.node("Clip", ins, F32, b.shape(x))


def g_identity_chain(b):
    x = b.pick()
    for _ in range(b.ri(1, 3)):
        x = b.node("Identity", [x], F32, b.shape(x))
    return x


def g_noop_arith(b):
    x = b.pick()
    s = b.shape(x)
    op, val = (("Mul", 1.0), ("Add", 0.0), ("Sub", 0.0), ("Div", 1.0))[b.ri(0, 3)]
    shape = () if b.coin() else tuple(1 for _ in s)
    return b.node(op, [x, b.const(np.full(shape, val, dtype=np.float32))], F32, bcast_shape(s, shape))


def g_duplicate(b):
    """Emit a node that repeats an earlier one on the same inputs (CSE has work)."""
    cands = [n for n in b.nodes if len(n.output) == 1 and b.values[n.output[0]][0] == F32]
    if not cands:
        raise Skip()
    n = cands[b.ri(0, len(cands) - 1)]
    et, s = b.values[n.output[0]]
    out = b.node(n.op_type, list(n.input), et, s, {a.name: helper.get_attribute_value(a) for a in n.attribute})
    other = n.output[0]
    return b.node("Add", [out, other], F32, s)


def g_const_subgraph(b):
    """Ops on constants only (folding has work), then joined with a value."""
    x = b.pick()
    s = b.shape(x)
    c = b.const(b.rand(partner_shape(b, s)))
    cs = b.shape(c)
    for _ in range(b.ri(1, 3)):
        op = ("Relu", "Neg", "Tanh", "Abs")[b.ri(0, 3)]
        c = b.node(op, [c], F32, cs)
    if b.coin():
        c2 = b.const(b.rand(cs))
        c = b.node("Mul", [c, c2], F32, cs)
    return b.node(("Add", "Mul")[b.ri(0, 1)], [x, c], F32, bcast_shape(s, cs))


def g_shape_reshape(b):
    """Shape arithmetic feeding a Reshape: Shape -> Gather -> Unsqueeze -> Concat(-1) -> Reshape."""
    x = b.pick(lambda et, s: len(s) >= 2)
    s = b.shape(x)
    sh = b.node("Shape", [x], I64, (len(s),))
    g = b.node("Gather", [sh, b.i64(0)], I64, ())
    u = b.node("Unsqueeze", [g, b.i64([0])], I64, (1,))
    c = b.node("Concat", [u, b.i64([-1])], I64, (2,), {"axis": 0})
    return b.node("Reshape", [x, c], F32, (s[0], int(np.prod(s[1:]))))


def g_expand_tile(b):
    x = b.pick(lambda et, s: 1 <= len(s) <= 3)
    s = b.shape(x)
    if b.coin():
        to = tuple((b.ri(1, 3) if d == 1 else d) for d in s)
        if b.coin(0.3):
            to = (2,) + to
        return b.node("Expand", [x, b.i64(list(to))], F32, to)
    reps = [b.ri(1, 2) for _ in s]
    return b.node("Tile", [x, b.i64(reps)], F32, tuple(d * r for d, r in zip(s, reps)))


def g_einsum(b):
    x = b.pick(lambda et, s: len(s) == 2 or len(s) == 3)
    s = b.shape(x)
    n = b.ri(1, 5)
    if len(s) == 2:
        w = b.const(b.rand((s[1], n)) * 0.5)
        return b.node("Einsum", [x, w], F32, (s[0], n), {"equation": "ij,jk->ik"})
    w = b.const(b.rand((s[2], n)) * 0.5)
    return b.node("Einsum", [x, w], F32, (s[0], s[1], n), {"equation": "bij,jk->bik"})


def g_matmul_add(b):
    y = g_matmul(b)
    s = b.shape(y)
    return b.node("Add", [y, b.const(b.rand(s[-1:]))], F32, s)


def g_variadic(b):
    x = b.pick()
    s = b.shape(x)
    ins = [x] + [b.const(b.rand(partner_shape(b, s))) for _ in range(b.ri(1, 2))]
    out = s
    for i in ins[1:]:
        out = bcast_shape(out, b.shape(i))
    return b.node(("Sum", "Mean", "Max", "Min")[b.ri(0, 3)], ins, F32, out)


def g_log_softmax_pattern(b):
    x = b.pick(lambda et, s: len(s) >= 1)
    s = b.shape(x)
    sm = b.node("Softmax", [x], F32, s, {"axis": -1})
    return b.node("Log", [sm], F32, s)


INT_OPS = ["Add", "Sub", "Mul", "Div", "Mod", "ModF", "Max", "Min", "Abs", "Neg"]


def g_int_chain(b):
    """Integer arithmetic (Div truncates toward zero, Mod takes the divisor's sign), from an input
    (exact values: Cast(input * 10) is the same everywhere), on a constant half the time (folding
    then computes it), then back to float."""
    if b.coin():
        x = b.inputs[b.ri(0, len(b.inputs) - 1)].name
        s = b.shape(x)
        m = b.node("Mul", [x, b.const(np.float32(10.0))], F32, s)
        v = b.node("Cast", [m], I64, s, {"to": I64})
    else:
        s = tuple(b.ri(1, 4) for _ in range(b.ri(1, 2)))
        v = b.const(b.rng.integers(-20, 21, size=s).astype(np.int64), "ic")
    for _ in range(b.ri(1, 3)):
        op = INT_OPS[b.ri(0, len(INT_OPS) - 1)]
        if op in ("Abs", "Neg"):
            v = b.node(op, [v], I64, s)
            continue
        c = b.rng.integers(-7, 8, size=partner_shape(b, s)).astype(np.int64)
        if op in ("Div", "Mod", "ModF"):
            c[c == 0] = 3
        attrs = {"fmod": 1} if op == "ModF" else None
        v = b.node("Mod" if op == "ModF" else op, [v, b.const(c, "ic")], I64, s, attrs)
    return b.node("Cast", [v], F32, s, {"to": F32})


OPS = {  # name -> (generator, weight)
    "unary": (g_unary, 6), "binary": (g_binary, 6), "matmul": (g_matmul, 3), "gemm": (g_gemm, 2),
    "conv": (g_conv, 3), "conv_bn": (lambda b: g_conv(b, True), 2), "conv_transpose": (g_conv_transpose, 1),
    "pool": (g_pool, 2), "batchnorm": (g_bn, 1), "reshape": (g_reshape, 2), "flatten": (g_flatten, 1),
    "transpose": (g_transpose, 2), "transpose_pair": (lambda b: g_transpose(b, True), 1),
    "squeeze": (g_squeeze, 2), "concat": (g_concat, 2), "split": (g_split, 1), "slice": (g_slice, 2),
    "gather": (g_gather, 2), "pad": (g_pad, 1), "reduce": (g_reduce, 3), "softmax": (g_softmax, 2),
    "layernorm": (g_layernorm, 1), "layernorm_pattern": (g_layernorm_pattern, 1),
    "gelu_pattern": (g_gelu_pattern, 1), "cast": (g_cast, 1), "where": (g_where, 2),
    "resize": (g_resize, 1), "clip": (g_clip, 1), "identity_chain": (g_identity_chain, 1),
    "noop_arith": (g_noop_arith, 2), "duplicate": (g_duplicate, 2), "const_subgraph": (g_const_subgraph, 2),
    "shape_reshape": (g_shape_reshape, 1), "expand_tile": (g_expand_tile, 1), "einsum": (g_einsum, 1),
    "matmul_add": (g_matmul_add, 1), "variadic": (g_variadic, 1), "log_softmax_pattern": (g_log_softmax_pattern, 1),
    "int_chain": (g_int_chain, 2),
}

MAX_ELEMS = 4096  # keep every tensor small: fast runs, readable failures


def make(seed, index, nops=None, only=None):
    """The graph (seed, index): an onnx.ModelProto. `only` restricts the op generators."""
    rng = np.random.default_rng([seed, index])
    opset = OPSETS[int(rng.integers(0, len(OPSETS)))]
    b = Builder(rng, opset)
    for i in range(int(rng.integers(1, 3))):
        r = int(rng.integers(1, 5))
        shape = tuple(int(rng.integers(1, 6)) for _ in range(r))
        if r == 4 and rng.random() < 0.7:
            shape = (1, int(rng.integers(1, 4)), int(rng.integers(3, 8)), int(rng.integers(3, 8)))
        name = f"x{i}"
        b.inputs.append(helper.make_tensor_value_info(name, F32, shape))
        b.add_value(name, F32, shape)
    names = sorted(OPS) if only is None else sorted(only)
    w = np.array([OPS[n][1] for n in names], dtype=np.float64)
    target = nops if nops is not None else int(rng.integers(3, 13))
    made, tries = 0, 0
    while made < target and tries < target * 20:
        tries += 1
        g = names[rng.choice(len(names), p=w / w.sum())]
        mark = (len(b.nodes), len(b.inits), list(b.order), dict(b.values), set(b.used), list(b.ops))
        try:
            out = OPS[g][0](b)
            if int(np.prod(b.shape(out))) > MAX_ELEMS or any(
                    int(np.prod(b.values[v][1])) > MAX_ELEMS for v in b.order):
                raise Skip()
            made += 1
        except Skip:
            del b.nodes[mark[0]:]
            del b.inits[mark[1]:]
            b.order, b.values, b.used, b.ops = mark[2], mark[3], mark[4], mark[5]
    # Outputs: every float value nobody reads (at least the last one), at most 4.
    produced = [o for n in b.nodes for o in n.output]
    leaves = [v for v in produced if v not in b.used and b.values[v][0] == F32]
    if not leaves:
        leaves = [produced[-1]] if produced else [b.order[0]]
    leaves = leaves[-4:]
    # Sometimes an intermediate value is an output too (a fusion must then keep it).
    inner = [v for v in produced if v in b.used and b.values[v][0] == F32 and v not in leaves]
    if inner and rng.random() < 0.5:
        leaves.append(inner[int(rng.integers(0, len(inner)))])
    # Sometimes the first input's dim 0 is symbolic ("N"; its value in metadata graphgen.dims);
    # the graph stays valid for that value, and the outputs then declare only their rank.
    dims = {}
    d0 = b.inputs[0].type.tensor_type.shape.dim
    if len(d0) and rng.random() < 0.3:
        dims["N"] = d0[0].dim_value
        d0[0].dim_param = "N"
    outputs = [helper.make_tensor_value_info(
        v, b.values[v][0], [None] * len(b.values[v][1]) if dims else b.values[v][1])
               for v in leaves]
    graph = helper.make_graph(b.nodes, f"graphgen_{seed}_{index}", b.inputs, outputs, b.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="passlab-graphgen")
    model.ir_version = 8
    for k, v in dims.items():
        model.metadata_props.add(key="graphgen.dim." + k, value=str(v))
    try:
        onnx.checker.check_model(model, full_check=True)
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    except Exception as e:  # noqa: BLE001
        raise GeneratorBug(f"graph ({seed}, {index}) is invalid: {e}") from e
    for o in inferred.graph.output if not dims else []:
        dims = tuple(d.dim_value for d in o.type.tensor_type.shape.dim)
        if dims != b.values[o.name][1]:
            raise GeneratorBug(f"graph ({seed}, {index}): {o.name} has shape {dims}, "
                               f"the generator thought {b.values[o.name][1]}")
    return model


def sym_dims(model):
    """{symbolic dim name: the value the graph was built for}."""
    return {p.key[len("graphgen.dim."):]: int(p.value) for p in model.metadata_props
            if p.key.startswith("graphgen.dim.")}


def inputs(model, seed, index):
    rng = np.random.default_rng([seed, index, 1])
    feeds = {}
    dims = sym_dims(model)
    for i in model.graph.input:
        shape = tuple(dims[d.dim_param] if d.dim_param else d.dim_value for d in i.type.tensor_type.shape.dim)
        feeds[i.name] = rng.uniform(-1, 1, size=shape).astype(np.float32)
    return feeds


def to_float16(model):
    """The same graph in float16: float initializers, inputs, outputs and Cast targets."""
    g = model.graph
    keep = {n.input[2] for n in g.node if n.op_type == "Resize" and len(n.input) > 2}  # scales: float
    for t in g.initializer:
        if t.data_type == F32 and t.name not in keep:
            t.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(t).astype(np.float16), t.name))
    for v in list(g.input) + list(g.output):
        if v.type.tensor_type.elem_type == F32:
            v.type.tensor_type.elem_type = TensorProto.FLOAT16
    for n in g.node:
        for a in n.attribute:
            if a.name == "to" and a.i == F32:
                a.i = TensorProto.FLOAT16
    try:
        onnx.checker.check_model(model, full_check=True)
    except Exception as e:  # noqa: BLE001
        raise GeneratorBug(f"{g.name} in float16 is invalid: {e}") from e
    return model


def ops_of(model):
    return sorted({n.op_type for n in model.graph.node})


if __name__ == "__main__":
    m = make(int(sys.argv[1]), int(sys.argv[2]))
    onnx.save(m, sys.argv[3])
    print(f"opset {m.opset_import[0].version}, {len(m.graph.node)} nodes: {', '.join(ops_of(m))}")
