#!/usr/bin/env python3
"""Calibration / check input sets of real text for a GPT-2-like model.

Writes a --calibration-data folder (one subfolder per set, input_K.npy in the
order of the graph inputs) for `passlab-cli optimize|precision
--calibration-data DIR`, so that the check and the precision figures of a
language model run on token ids of a real text instead of synthesized ones.

Text: a Debian file already on the machine (default
/usr/share/common-licenses/GPL-3). Token ids: GPT-2's byte-level ids
without the BPE merges. The merges and vocabulary (vocab.bpe / encoder.json)
are not on this machine (tiktoken is installed but downloads them on first
use, and nothing is downloaded here), so each byte of the text is its
single-byte GPT-2 token: ids 0-255 in GPT-2's bytes_to_unicode order (space
is 220, as in GPT-2), a valid GPT-2 encoding of the same text, only longer
than the merged one. A model whose embedding table has fewer than 256 rows
(the corpus's GPT-2 test models: 20 or 10 rows, random weights) cannot take
those ids; they are then mapped by frequency rank: the text's most frequent
byte-tokens get ids 0, 1, ... and the rest share the last row, so the ids
keep real text's skewed distribution and order, not its meaning. The output
says which mapping it used.

Models with a key/value cache (inputs past_*, outputs present_*): each set
is a real position in the text: the model is run (onnxruntime) token by
token from an empty cache over the text before it, and the set holds the
next token and the cache those runs produced. position_ids count from the
cache's length; an attention_mask is ones (2-D) or causal (4-D).

    /tmp/pq/bin/python scripts/dev/make_text_calibration.py MODEL.onnx OUT_DIR [--sets 16]
        [--text FILE] [--max-past N]
"""
import argparse
import os
import sys
from collections import Counter

import numpy as np
import onnx
import onnxruntime as ort


def bytes_to_unicode_order():
    """The bytes in the order of GPT-2's first 256 token ids."""
    bs = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("\xa1"), ord("\xac") + 1)) +
          list(range(ord("\xae"), ord("\xff") + 1)))
    return bs + [b for b in range(256) if b not in bs]


def gpt2_byte_ids(text: bytes):
    id_of = {b: i for i, b in enumerate(bytes_to_unicode_order())}
    return [id_of[b] for b in text]


def embedding_rows(model, ids_input):
    """Rows of the Gather table the ids reach (through Slice/Reshape/... ), or None."""
    init = {t.name: list(t.dims) for t in model.graph.initializer}
    reach, changed = {ids_input}, True
    passthrough = {"Slice", "Reshape", "Unsqueeze", "Squeeze", "Cast", "Flatten", "Identity"}
    while changed:
        changed = False
        for n in model.graph.node:
            if n.op_type == "Gather" and len(n.input) > 1 and n.input[1] in reach \
                    and n.input[0] in init:
                return init[n.input[0]][0]
            if n.op_type in passthrough and n.input and n.input[0] in reach:
                for o in n.output:
                    if o not in reach:
                        reach.add(o)
                        changed = True
    return None


def position_rows(model):
    for t in model.graph.initializer:
        if "wpe" in t.name or "position_embeddings" in t.name:
            return t.dims[0]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("out")
    ap.add_argument("--sets", type=int, default=16)
    ap.add_argument("--text", default="/usr/share/common-licenses/GPL-3")
    ap.add_argument("--max-past", type=int, default=0, help="longest cache (0: the model's positions - 1)")
    a = ap.parse_args()

    model = onnx.load(a.model)
    inits = {t.name for t in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in inits]
    names = [i.name for i in inputs]
    ids_name = next((n for n in names if n.endswith("input_ids") or n == "ids"), None)
    if ids_name is None:
        sys.exit(f"error: {a.model} has no input named *input_ids (inputs: {', '.join(names)})")
    known = {ids_name, "position_ids", "attention_mask"}
    pasts = [n for n in names if n.startswith("past")]
    for n in names:
        if n not in known and n not in pasts:
            sys.exit(f"error: cannot make text inputs for input '{n}' of {a.model}")
    outputs = [o.name for o in model.graph.output]
    for p in pasts:
        if p.replace("past", "present", 1) not in outputs:
            sys.exit(f"error: input '{p}' has no output '{p.replace('past', 'present', 1)}'")

    text = open(a.text, "rb").read()
    ids = gpt2_byte_ids(text)
    rows = embedding_rows(model, ids_name)
    mapping = "GPT-2 byte-level ids (no BPE merges: the merges file is not on this machine)"
    if rows is not None and rows < 256:
        ranked = [t for t, _ in Counter(ids).most_common()]
        rank = {t: min(i, rows - 1) for i, t in enumerate(ranked)}
        ids = [rank[t] for t in ids]
        mapping = (f"GPT-2 byte-level ids mapped by frequency rank onto the model's {rows} rows "
                   f"(the {rows - 1} most frequent byte-tokens keep their own id)")
    max_past = a.max_past or max(0, (position_rows(model) or 9) - 1)
    if not pasts:
        max_past = 0

    ids_type = next(i for i in inputs if i.name == ids_name).type.tensor_type.elem_type
    ids_dtype = np.int64 if ids_type == onnx.TensorProto.INT64 else np.int32
    so = ort.SessionOptions()
    so.log_severity_level = 3  # the corpus models warn about initializers listed as inputs
    sess = ort.InferenceSession(a.model, so, providers=["CPUExecutionProvider"]) if pasts else None
    past_shape = {}
    for i in inputs:
        if i.name in pasts:
            d = [x.dim_value if x.HasField("dim_value") else -1 for x in i.type.tensor_type.shape.dim]
            past_shape[i.name] = d

    def feed(token, cache, past_len, seq=1):
        f = {ids_name: np.array([[token]], dtype=ids_dtype)}
        if "position_ids" in names:
            f["position_ids"] = np.array([[past_len]], dtype=ids_dtype)
        if "attention_mask" in names:
            spec = next(i for i in inputs if i.name == "attention_mask").type.tensor_type
            rank = len(spec.shape.dim)
            dt = np.float32 if spec.elem_type == onnx.TensorProto.FLOAT else ids_dtype
            if rank == 2:
                f["attention_mask"] = np.ones((1, past_len + seq), dtype=dt)
            else:
                sz = [x.dim_value for x in spec.shape.dim]
                f["attention_mask"] = np.tril(np.ones(sz[-2:], dtype=dt)).reshape([1, 1] + sz[-2:])
        f.update(cache)
        return f

    os.makedirs(a.out, exist_ok=True)
    stride = max(1, (len(ids) - max_past - 1) // max(a.sets, 1))
    for k in range(a.sets):
        start = k * stride
        past_len = k % (max_past + 1)
        cache = {}
        for p in pasts:
            s = [1 if v == -1 else v for v in past_shape[p]]
            s[3] = 0  # [2, batch, heads, past_len, head_size]
            cache[p] = np.zeros(s, dtype=np.float32)
        for t in range(past_len):
            got = sess.run(None, feed(ids[start + t], cache, t))
            out = dict(zip(outputs, got))
            cache = {p: out[p.replace("past", "present", 1)] for p in pasts}
        f = feed(ids[start + past_len], cache, past_len)
        d = os.path.join(a.out, f"set_{k:03d}")
        os.makedirs(d, exist_ok=True)
        for j, n in enumerate(names):
            np.save(os.path.join(d, f"input_{j}.npy"), f[n])
    print(f"{a.sets} sets in {a.out} from {a.text} ({len(text)} bytes); token ids: {mapping}; "
          f"cache lengths 0-{max_past}")


if __name__ == "__main__":
    main()
