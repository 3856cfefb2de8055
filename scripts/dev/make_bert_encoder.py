#!/usr/bin/env python3
"""Developer tool: a BERT-style encoder as an ONNX file, seeded random weights, no download.

torch is not installable on this machine (no access to its wheel index), so the graph a
TorchScript export of transformers' BertModel / DistilBertModel writes at opset 17 is built
here op by op: token and position embeddings (Gather, Add, LayerNormalization); per layer
the Q, K, V projections (MatMul + Add), Reshape to heads and Transpose, scores
MatMul(q, k^T) (k transposed by a second Transpose as the export does), Div by sqrt(head
size), an additive mask from `attention_mask` (1 keeps, 0 masks: (1 - m) * -10000),
Softmax, MatMul(probs, v), Transpose and Reshape back, the output projection, residual Add,
LayerNormalization, the feed-forward MatMul + Add, exact GELU (Erf), MatMul + Add, residual
Add, LayerNormalization; output `last_hidden_state` [1, S, hidden]. Weights N(0, 0.02) as
transformers initializes them, LayerNorm gains 1 and biases 0 except a small seeded bias.
At that scale the attention of a random model is nearly uniform (score std about
hidden * 0.02^2 = 0.3), unlike a trained model's; --score-std S draws the Q and K weights
with std sqrt(S / hidden) so that the scores spread with std about S (peaked softmax rows).

  python3 scripts/dev/make_bert_encoder.py OUT.onnx [--layers 6 --hidden 768 --heads 12
      --ffn 3072 --seq 128 --vocab 30522 --seed 0 --score-std 0]
(defaults: distilbert-base's config; bert_tiny: --layers 2 --hidden 128 --heads 2 --ffn 512)
"""
import argparse

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def build(layers, hidden, heads, ffn, seq, vocab, seed, score_std=0.0):
    rng = np.random.default_rng(seed)
    nodes, inits = [], []
    head = hidden // heads

    def const(name, array):
        inits.append(numpy_helper.from_array(np.asarray(array), name=name))
        return name

    def weight(name, shape, std=0.02):
        return const(name, rng.normal(0, std, shape).astype(np.float32))

    def node(op, ins, name, **attrs):
        nodes.append(helper.make_node(op, ins, [name], name=name + "_node", **attrs))
        return name

    qk_std = np.sqrt(score_std / hidden) if score_std > 0 else 0.02

    def linear(x, name, n_in, n_out, std=0.02):
        y = node("MatMul", [x, weight(name + ".weight", (n_in, n_out), std)], name + "_mm")
        b = const(name + ".bias", rng.normal(0, 0.02, n_out).astype(np.float32))
        return node("Add", [y, b], name + "_out")

    def layer_norm(x, name):
        g = const(name + ".gamma", np.ones(hidden, np.float32))
        b = const(name + ".beta", np.zeros(hidden, np.float32))
        return node("LayerNormalization", [x, g, b], name + "_out", axis=-1, epsilon=1e-12)

    const("heads_shape", np.array([1, seq, heads, head], np.int64))
    const("hidden_shape", np.array([1, seq, hidden], np.int64))
    const("sqrt_head", np.array(np.sqrt(head), np.float32))
    const("one", np.array(1.0, np.float32))
    const("mask_value", np.array(-10000.0, np.float32))
    const("half", np.array(0.5, np.float32))
    const("sqrt2", np.array(np.sqrt(2.0), np.float32))
    const("positions", np.arange(seq, dtype=np.int64).reshape(1, seq))

    tok = node("Gather", [weight("word_embeddings", (vocab, hidden)), "input_ids"], "tok_emb")
    pos = node("Gather", [weight("position_embeddings", (seq, hidden)), "positions"], "pos_emb")
    h = layer_norm(node("Add", [tok, pos], "emb_sum"), "emb_ln")
    m = node("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)
    m = node("Unsqueeze", [m, const("mask_axes", np.array([1, 2], np.int64))], "mask_4d")
    m = node("Mul", [node("Sub", ["one", m], "mask_inv"), "mask_value"], "mask_add")

    for i in range(layers):
        p = f"layer{i}"

        def heads_of(x, name, perm):
            r = node("Reshape", [x, "heads_shape"], name + "_heads")
            return node("Transpose", [r], name + "_t", perm=perm)

        q = heads_of(linear(h, p + ".q", hidden, hidden, qk_std), p + ".q", [0, 2, 1, 3])
        k = heads_of(linear(h, p + ".k", hidden, hidden, qk_std), p + ".k", [0, 2, 1, 3])
        k = node("Transpose", [k], p + ".k_tt", perm=[0, 1, 3, 2])
        v = heads_of(linear(h, p + ".v", hidden, hidden), p + ".v", [0, 2, 1, 3])
        s = node("MatMul", [q, k], p + ".scores")
        s = node("Div", [s, "sqrt_head"], p + ".scaled")
        s = node("Add", [s, m], p + ".masked")
        a = node("Softmax", [s], p + ".probs", axis=-1)
        c = node("MatMul", [a, v], p + ".context")
        c = node("Transpose", [c], p + ".context_t", perm=[0, 2, 1, 3])
        c = node("Reshape", [c, "hidden_shape"], p + ".context_r")
        o = linear(c, p + ".o", hidden, hidden)
        h = layer_norm(node("Add", [o, h], p + ".res1"), p + ".ln1")
        f = linear(h, p + ".ffn1", hidden, ffn)
        g = node("Erf", [node("Div", [f, "sqrt2"], p + ".gelu_div")], p + ".gelu_erf")
        g = node("Mul", [node("Mul", [f, node("Add", [g, "one"], p + ".gelu_add")], p + ".gelu_mul"),
                         "half"], p + ".gelu")
        f = linear(g, p + ".ffn2", ffn, hidden)
        h = layer_norm(node("Add", [f, h], p + ".res2"), p + ".ln2")

    nodes.append(helper.make_node("Identity", [h], ["last_hidden_state"], name="output"))
    graph = helper.make_graph(
        nodes, "bert_encoder",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, [1, seq]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, [1, seq])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [1, seq, hidden])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="passlab make_bert_encoder.py")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--layers", type=int, default=6)
    ap.add_argument("--hidden", type=int, default=768)
    ap.add_argument("--heads", type=int, default=12)
    ap.add_argument("--ffn", type=int, default=3072)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--vocab", type=int, default=30522)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--score-std", type=float, default=0.0)
    a = ap.parse_args()
    model = build(a.layers, a.hidden, a.heads, a.ffn, a.seq, a.vocab, a.seed, a.score_std)
    onnx.save(model, a.out)
    print(f"{a.out}: {len(model.graph.node)} nodes, {a.layers} layers of {a.hidden} "
          f"({a.heads} heads), ffn {a.ffn}, sequence {a.seq}")


if __name__ == "__main__":
    main()
