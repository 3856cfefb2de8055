#!/usr/bin/env python3
"""Writes the bundled demo models (resources/demos/*.txt) in PassLab's text format.

Weights are deterministic pseudo-random numbers, so the files only change when
this script does. Run from the repository root: scripts/dev/gen_demos.py
"""
import math
import os

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "resources", "demos")
HEADER = '<ir_version: 8, opset_import: ["" : 17]>\n'


class Rng:
    def __init__(self, seed):
        self.s = seed

    def uniform(self, lo, hi):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return lo + (hi - lo) * ((self.s >> 11) / float(1 << 53))


def tensor(name, dims, values):
    vals = ", ".join(("%.4g" % v) if isinstance(v, float) else str(v) for v in values)
    return "float[%s] %s = {%s}" % (",".join(str(d) for d in dims), name, vals)


def rand(rng, n, scale):
    return [round(rng.uniform(-scale, scale), 4) for _ in range(n)]


def write(name, text):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)


def elementwise():
    write("elementwise.txt", HEADER + """# f(x1, x2) = ln(x1) + x1 * x2 - sin(x2)
f_x1_x2 (float[N] x1, float[N] x2) => (float[N] f)
{
  [ln_x1] a = Log(x1)
  [x1_times_x2] b = Mul(x1, x2)
  [sin_x2] c = Sin(x2)
  [add] d = Add(a, b)
  [subtract] f = Sub(d, c)
}
""")


def conv_relu():
    rng = Rng(1)
    w = tensor("W", [4, 3, 3, 3], rand(rng, 108, 0.3))
    b = tensor("B", [4], rand(rng, 4, 0.1))
    write("conv_relu.txt", HEADER + """# A convolution followed by ReLU.
conv_relu (float[1,3,8,8] X) => (float[1,4,8,8] Y)
<%s,
 %s>
{
  [conv] C = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [1, 1]> (X, W, B)
  [relu] Y = Relu(C)
}
""" % (w, b))


def cnn_block():
    rng = Rng(2)
    inits = [
        tensor("conv_w", [8, 3, 3, 3], rand(rng, 216, 0.3)),
        tensor("conv_b", [8], rand(rng, 8, 0.1)),
        tensor("bn_scale", [8], [round(rng.uniform(0.8, 1.2), 4) for _ in range(8)]),
        tensor("bn_bias", [8], rand(rng, 8, 0.1)),
        tensor("bn_mean", [8], rand(rng, 8, 0.2)),
        tensor("bn_var", [8], [round(rng.uniform(0.5, 1.5), 4) for _ in range(8)]),
        tensor("fc_w", [3, 8], rand(rng, 24, 0.5)),
        tensor("fc_b", [3], rand(rng, 3, 0.1)),
    ]
    shapes = 'int64[3] flat_shape = {1, 8, 256}, int64[4] image_shape = {1, 8, 16, 16}'
    write("cnn_block.txt", HEADER + """# A CNN block with work for every kind of pass:
#   Conv -> BatchNormalization -> Relu      (fold BN into the conv, fuse the ReLU)
#   Identity, Transpose/Transpose and Reshape/Reshape pairs that cancel out
#   a constant subexpression (2 * 0.5 + 0) multiplying the activations
cnn_block (float[1,3,16,16] X) => (float[1,3] Y)
<%s,
 %s>
{
  [input_identity] x_id = Identity(X)
  [conv] c = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x_id, conv_w, conv_b)
  [bn] bn = BatchNormalization <epsilon = 1e-05> (c, bn_scale, bn_bias, bn_mean, bn_var)
  [relu] r = Relu(bn)
  [to_nhwc] t1 = Transpose <perm = [0, 2, 3, 1]> (r)
  [to_nchw] t2 = Transpose <perm = [0, 3, 1, 2]> (t1)
  [flatten_spatial] s1 = Reshape(t2, flat_shape)
  [unflatten_spatial] s2 = Reshape(s1, image_shape)
  [two] k2 = Constant <value = float {2}> ()
  [half] k05 = Constant <value = float {0.5}> ()
  [zero] k0 = Constant <value = float {0}> ()
  [two_times_half] k1 = Mul(k2, k05)
  [plus_zero] k = Add(k1, k0)
  [scale] scaled = Mul(s2, k)
  [pool] gap = GlobalAveragePool(scaled)
  [flatten] flat = Flatten <axis = 1> (gap)
  [classifier] logits = Gemm <transB = 1> (flat, fc_w, fc_b)
  [output_identity] Y = Identity(logits)
}
""" % (",\n ".join(inits), shapes))


def layer_norm(prefix, x, out, gamma, beta):
    p = prefix
    return """  ["{p}/ReduceMean"] {p2}_mean = ReduceMean <axes = [-1]> ({x})
  ["{p}/Sub"] {p2}_centered = Sub({x}, {p2}_mean)
  ["{p}/Pow"] {p2}_sq = Pow({p2}_centered, two)
  ["{p}/ReduceMean_1"] {p2}_var = ReduceMean <axes = [-1]> ({p2}_sq)
  ["{p}/Add"] {p2}_var_eps = Add({p2}_var, eps)
  ["{p}/Sqrt"] {p2}_std = Sqrt({p2}_var_eps)
  ["{p}/Div"] {p2}_norm = Div({p2}_centered, {p2}_std)
  ["{p}/Mul"] {p2}_scaled = Mul({p2}_norm, {gamma})
  ["{p}/Add_1"] {out} = Add({p2}_scaled, {beta})
""".format(p=p, p2=p.strip("/").replace("/", "_"), x=x, out=out, gamma=gamma, beta=beta)


def transformer_block():
    rng = Rng(3)
    d, heads, hd, ff = 16, 2, 8, 32
    inits = [
        tensor("ln1_gamma", [d], [round(rng.uniform(0.9, 1.1), 4) for _ in range(d)]),
        tensor("ln1_beta", [d], rand(rng, d, 0.05)),
        tensor("ln2_gamma", [d], [round(rng.uniform(0.9, 1.1), 4) for _ in range(d)]),
        tensor("ln2_beta", [d], rand(rng, d, 0.05)),
    ]
    for n in ("q", "k", "v", "o"):
        inits.append(tensor("w_" + n, [d, d], rand(rng, d * d, 0.25)))
        inits.append(tensor("b_" + n, [d], rand(rng, d, 0.05)))
    inits += [
        tensor("w_fc1", [d, ff], rand(rng, d * ff, 0.25)),
        tensor("b_fc1", [ff], rand(rng, ff, 0.05)),
        tensor("w_fc2", [ff, d], rand(rng, ff * d, 0.18)),
        tensor("b_fc2", [d], rand(rng, d, 0.05)),
        "float two = {2}",
        "float eps = {1e-05}",
        "float half = {0.5}",
        "float one = {1}",
        "float sqrt2 = {%.7g}" % math.sqrt(2.0),
        "float sqrt_head_dim = {%.7g}" % math.sqrt(hd),
        "int64[4] heads_shape = {1, 8, %d, %d}" % (heads, hd),
        "int64[3] model_shape = {1, 8, %d}" % d,
    ]
    body = layer_norm("/block/ln1", "X", "ln1", "ln1_gamma", "ln1_beta")
    for n in ("q", "k", "v"):
        body += '  ["/block/attn/%s_proj/MatMul"] %s_mm = MatMul(ln1, w_%s)\n' % (n, n, n)
        body += '  ["/block/attn/%s_proj/Add"] %s_lin = Add(%s_mm, b_%s)\n' % (n, n, n, n)
        body += '  ["/block/attn/%s_split/Reshape"] %s_heads = Reshape(%s_lin, heads_shape)\n' % (n, n, n)
    body += """  ["/block/attn/q_split/Transpose"] q_t = Transpose <perm = [0, 2, 1, 3]> (q_heads)
  ["/block/attn/k_split/Transpose"] k_t = Transpose <perm = [0, 2, 3, 1]> (k_heads)
  ["/block/attn/v_split/Transpose"] v_t = Transpose <perm = [0, 2, 1, 3]> (v_heads)
  ["/block/attn/scores/MatMul"] scores = MatMul(q_t, k_t)
  ["/block/attn/scores/Div"] scores_scaled = Div(scores, sqrt_head_dim)
  ["/block/attn/Softmax"] probs = Softmax <axis = -1> (scores_scaled)
  ["/block/attn/context/MatMul"] context = MatMul(probs, v_t)
  ["/block/attn/merge/Transpose"] context_t = Transpose <perm = [0, 2, 1, 3]> (context)
  ["/block/attn/merge/Reshape"] context_m = Reshape(context_t, model_shape)
  ["/block/attn/o_proj/MatMul"] o_mm = MatMul(context_m, w_o)
  ["/block/attn/o_proj/Add"] attn_out = Add(o_mm, b_o)
  ["/block/residual_1/Add"] res1 = Add(X, attn_out)
"""
    body += layer_norm("/block/ln2", "res1", "ln2", "ln2_gamma", "ln2_beta")
    body += """  ["/block/mlp/fc1/MatMul"] fc1_mm = MatMul(ln2, w_fc1)
  ["/block/mlp/fc1/Add"] fc1 = Add(fc1_mm, b_fc1)
  ["/block/mlp/gelu/Div"] gelu_div = Div(fc1, sqrt2)
  ["/block/mlp/gelu/Erf"] gelu_erf = Erf(gelu_div)
  ["/block/mlp/gelu/Add"] gelu_add = Add(gelu_erf, one)
  ["/block/mlp/gelu/Mul"] gelu_mul = Mul(fc1, gelu_add)
  ["/block/mlp/gelu/Mul_1"] gelu = Mul(gelu_mul, half)
  ["/block/mlp/fc2/MatMul"] fc2_mm = MatMul(gelu, w_fc2)
  ["/block/mlp/fc2/Add"] mlp_out = Add(fc2_mm, b_fc2)
  ["/block/residual_2/Add"] Y = Add(res1, mlp_out)
"""
    write("transformer_block.txt", HEADER + """# One pre-norm transformer block (hidden 16, 2 heads, sequence 8) as exporters write it:
# each layer norm decomposed into ReduceMean/Sub/Pow/ReduceMean/Add/Sqrt/Div/Mul/Add,
# GELU in its erf form 0.5 * x * (1 + erf(x / sqrt(2))).
transformer_block (float[1,8,16] X) => (float[1,8,16] Y)
<%s>
{
%s}
""" % (",\n ".join(inits), body))


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    elementwise()
    conv_relu()
    cnn_block()
    transformer_block()
