#!/usr/bin/env python3
"""Zero whole channel-shuffle columns of a ShuffleNet (v1) for remove_dead_channels.

Each unit's first grouped Conv feeds a channel shuffle (Reshape [N, g, C/g, H, W],
Transpose [0, 2, 1, 3, 4], Reshape back), a depthwise Conv and a grouped Conv of G
groups. remove_dead_channels removes channels there only where every shuffle group
loses the same places b and the grouped Conv after it loses as many input channels in
every group (docs/precision.md, "Channel shuffles and grouped Convs"). This zeroes
(weights and bias) the first grouped Conv's channels a * C/g + b for every group a, at
places b whose g shuffled positions fall in one input group of the grouped Conv after
it: round(fraction * n) places of each such group, n the fewest any group has.

  prune_shuffle_columns.py IN.onnx OUT.onnx FRACTION [--randomize SEED]

--randomize: seeded random weights first (He-normal for Conv/Gemm weights, N(0, 0.1)
otherwise; an initializer shared by layers gets one copy each), for the
weights-stripped corpus models (onnx_light_*, every weight 0.02). Run it on a model
after `passlab-cli optimize --level default --set fold_constants.max_growth=inf`
(BatchNormalization folded, weights stored).
"""
import argparse

import numpy as np
import onnx
from onnx import numpy_helper as nh


def attr(node, name, default=None):
    return next((onnx.helper.get_attribute_value(a) for a in node.attribute if a.name == name),
                default)


def unshare(model):
    inits = {i.name: i for i in model.graph.initializer}
    seen = {}
    for n in model.graph.node:
        for k, name in enumerate(n.input):
            if name in inits and nh.to_array(inits[name]).dtype == np.float32:
                seen[name] = seen.get(name, 0) + 1
                if seen[name] > 1:
                    copy = onnx.TensorProto()
                    copy.CopyFrom(inits[name])
                    copy.name = f"{name}_u{seen[name]}"
                    model.graph.initializer.append(copy)
                    n.input[k] = copy.name


def randomize(model, seed):
    unshare(model)
    rng = np.random.default_rng(seed)
    weights = {n.input[1]: n for n in model.graph.node
               if n.op_type in ("Conv", "Gemm") and len(n.input) > 1}
    for init in model.graph.initializer:
        a = nh.to_array(init)
        if a.dtype != np.float32:
            continue
        if init.name in weights and a.ndim >= 2:
            conv = weights[init.name].op_type == "Conv"
            fan = int(np.prod(a.shape[1:])) if conv else a.shape[-1]
            v = rng.normal(0, np.sqrt(2.0 / fan), a.shape)
        else:
            v = rng.normal(0, 0.1, a.shape)
        init.CopyFrom(nh.from_array(v.astype(np.float32), init.name))


def zero_columns(model, fraction):
    g = model.graph
    inits = {i.name: i for i in g.initializer}
    producer = {o: n for n in g.node for o in n.output}
    readers = {}
    for n in g.node:
        for i in n.input:
            readers.setdefault(i, []).append(n)
    total = 0
    for t in g.node:
        if t.op_type != "Transpose" or list(attr(t, "perm", [])) != [0, 2, 1, 3, 4]:
            continue
        split, merge = producer[t.input[0]], readers[t.output[0]][0]
        shape = nh.to_array(inits[split.input[1]])
        groups, per = int(shape[1]), int(shape[2])
        layer = producer[split.input[0]]
        while layer.op_type != "Conv":
            layer = producer[layer.input[0]]
        depthwise = readers[merge.output[0]][0]
        after = readers[depthwise.output[0]][0]
        per_input_group = groups * per // attr(after, "group", 1)
        places = {}
        for b in range(per):
            owners = {(b * groups + a) // per_input_group for a in range(groups)}
            if len(owners) == 1:
                places.setdefault(owners.pop(), []).append(b)
        if len(places) < attr(after, "group", 1):
            continue
        k = max(1, int(fraction * min(len(v) for v in places.values()) + 0.5))
        columns = sorted(b for v in places.values() for b in v[:k])
        channels = [a * per + b for a in range(groups) for b in columns]
        for i in layer.input[1:3]:
            v = nh.to_array(inits[i]).copy()
            v[channels] = 0
            inits[i].CopyFrom(nh.from_array(v, i))
        total += len(channels)
        print(f"{layer.name}: C {groups * per}, {groups} groups, places {columns}: "
              f"{len(channels)} channels zeroed")
    print(f"{total} channels zeroed")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model")
    p.add_argument("output")
    p.add_argument("fraction", type=float)
    p.add_argument("--randomize", type=int, metavar="SEED")
    args = p.parse_args()
    model = onnx.load(args.model)
    if args.randomize is not None:
        randomize(model, args.randomize)
    zero_columns(model, args.fraction)
    onnx.save(model, args.output)


if __name__ == "__main__":
    main()
