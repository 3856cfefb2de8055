#!/usr/bin/env python3
"""Developer tool: precision conversions on real data, PassLab next to the peer tools.

For every model (--models, from the corpus in --corpus), this script
  1. builds input sets from real data (the sample photographs and the scanned page that
     ship inside scikit-image, digits rendered with Pillow's bundled font, GPT-2 token ids)
     and writes them as ONNX TensorProto files, WORKDIR/MODEL/{eval,calib}/set_NNN/input_K.pb
     (K = graph input order, TensorProto.name = the graph input's name), so that
     `passlab-cli ... --input-dir` and the conformance tools can read them;
  2. computes the FP32 reference outputs with onnxruntime;
  3. converts with the peers: onnxconverter-common float16 (keep_io_types=True),
     onnxruntime.quantization.quantize_static (QDQ, per channel, QUInt8 activations,
     QInt8 weights; MinMax, Entropy, Percentile calibration on the calibration split)
     for the image models, and quantize_dynamic for every model;
  4. converts with PassLab: passlab-cli optimize --passes convert_to_float16 /
     convert_to_bfloat16 / quantize_dynamic / quantize_static (the last one is reported
     as "not available" when `passlab-cli passes` does not list it);
  5. runs every converted model with onnxruntime on the evaluation split: top-1 agreement
     with FP32 (classifiers), the worst output's cosine similarity and SNR in dB
     (10*log10(sum(ref^2) / sum((ref-out)^2)), each output over all evaluation sets),
     file size and the median single-thread ORT CPU latency;
  6. prints one Markdown table per model and writes the same to --out.

A conversion that fails puts its error message into its row; nothing stops the run.
Developer tooling only (PyPI packages in scripts/dev/requirements-precision.txt):
  python3 -m venv /tmp/pq && /tmp/pq/bin/pip install -r scripts/dev/requirements-precision.txt
  /tmp/pq/bin/python scripts/dev/precision_compare.py --cli build/app/cli/passlab-cli \
      [--models squeezenet,ppocr_cls,mnist,ultraface,super_resolution,gpt2_past,picodet] \
      [--images 16] \
      [--opset 13] [--out /tmp/pq-work/precision_compare.md] [--workdir /tmp/pq-work]
--opset 13 upgrades the old-opset models (squeezenet 7, mnist 8, ultraface 9, gpt2_past 11)
first: ORT's per-channel QDQ output and PassLab's quantize_dynamic need opset >= 13 / 11.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time
import traceback

import numpy as np
import onnx
from onnx import helper, numpy_helper

# --------------------------------------------------------------------------------------
# Real data
# --------------------------------------------------------------------------------------

# Sample photographs bundled in the scikit-image wheel (nothing is downloaded).
PHOTOS = ["astronaut", "chelsea", "coffee", "rocket", "motorcycle_left", "hubble_deep_field",
          "immunohistochemistry", "camera", "coins", "horse", "clock", "colorwheel",
          "brick", "grass", "gravel", "moon", "logo"]
FACE_PHOTOS = ["astronaut"]  # photos with a face in them, used first for the face detector

# GPT-2 BPE ids (the GPT-2 "r50k"/gpt2 encoding) of a few English sentences, written here once.
GPT2_SENTENCES = [
    ("The quick brown fox jumps over the lazy dog.",
     [464, 2068, 7586, 21831, 18045, 625, 262, 16931, 3290, 13]),
    ("Hello, world!", [15496, 11, 995, 0]),
]


def load_photos(names):
    """RGB float32 arrays in [0, 255] for every photo that loads (grey ones become RGB)."""
    import skimage.data as skdata

    out = []
    for name in names:
        try:
            img = np.asarray(getattr(skdata, name)())
        except Exception as e:  # noqa: BLE001 - a missing sample is not fatal
            print(f"  (photo {name} unavailable: {str(e).splitlines()[0][:80]})", file=sys.stderr)
            continue
        if img.dtype == bool:
            img = img.astype(np.uint8) * 255
        img = img.astype(np.float32)
        if img.max() <= 1.0:
            img = img * 255.0
        if img.ndim == 2:
            img = np.stack([img] * 3, axis=-1)
        out.append((name, img[..., :3]))
    return out


def variants(photos, count, seed, aspect):
    """`count` distinct views of the photos: seeded crops of 55-100% with aspect ratio
    `aspect` (width / height), half of them mirrored. Returns (label, HxWx3 array)."""
    rng = np.random.default_rng(seed)
    views = []
    for i in range(count):
        name, img = photos[i % len(photos)]
        h, w = img.shape[:2]
        frac = rng.uniform(0.55, 1.0) if i >= len(photos) else 1.0
        ch = int(min(h, w / aspect) * frac)
        cw = int(ch * aspect)
        y = rng.integers(0, h - ch + 1)
        x = rng.integers(0, w - cw + 1)
        crop = img[y:y + ch, x:x + cw]
        flip = rng.random() < 0.5
        if flip:
            crop = crop[:, ::-1]
        views.append((f"{name} crop {cw}x{ch}@{x},{y}{' flipped' if flip else ''}", crop))
    return views


def resize(img, h, w):
    from skimage.transform import resize as sk_resize

    return sk_resize(img, (h, w) + img.shape[2:], order=1, anti_aliasing=True,
                     preserve_range=True).astype(np.float32)


def data_squeezenet(count, seed):
    # winml_squeezenet is a Custom Vision export: 227x227, BGR, 0..255 (its first
    # BatchNormalization normalizes). One set: {"data": 1x3x227x227}.
    sets = []
    for label, img in variants(load_photos(PHOTOS), count, seed, 1.0):
        x = resize(img, 227, 227)[..., ::-1].transpose(2, 0, 1)[None]
        sets.append((label, {"data": np.ascontiguousarray(x, np.float32)}, None))
    return sets


def text_lines(page):
    """Row bands of a scanned page that hold one line of text (ink against a local
    background estimate, rows with enough ink, bands 10-40 rows high)."""
    from scipy.ndimage import maximum_filter, uniform_filter

    background = uniform_filter(maximum_filter(page, 15), 15)
    rows = np.where((page < background - 40).mean(axis=1) > 0.03)[0]
    bands, first = [], rows[0]
    for prev, row in zip(rows[:-1], rows[1:]):
        if row > prev + 1:
            bands.append((first, prev))
            first = row
    bands.append((first, rows[-1]))
    return [(max(0, a - 3), min(page.shape[0], b + 4)) for a, b in bands if 10 <= b - a + 1 <= 40]


def data_ppocr_cls(count, seed):
    # Text lines of skimage's scanned page ("page"), upright (label 0) or turned 180 degrees
    # (label 1). PaddleOCR's cls preprocessing: height 48, width by aspect ratio up to 192,
    # (x/255 - 0.5)/0.5, zero padding on the right.
    import skimage.data as skdata

    rng = np.random.default_rng(seed)
    page = np.asarray(skdata.page(), np.float32)
    bands = text_lines(page)
    sets = []
    for i in range(count):
        y0, y1 = bands[(i // 2) % len(bands)]
        lh = y1 - y0
        lw = int(min(page.shape[1], lh * rng.uniform(3.0, 8.0)))
        x = int(rng.integers(0, page.shape[1] - lw + 1))
        line = np.stack([page[y0:y1, x:x + lw]] * 3, axis=-1)
        turned = i % 2 == 1
        if turned:
            line = line[::-1, ::-1]
        rw = min(192, int(np.ceil(48 * lw / lh)))
        norm = (resize(line, 48, rw) / 255.0 - 0.5) / 0.5
        x_in = np.zeros((1, 3, 48, 192), np.float32)
        x_in[0, :, :, :rw] = norm.transpose(2, 0, 1)
        sets.append((f"page line rows {y0}-{y1} x {x}-{x + lw}{' turned 180' if turned else ''}",
                     {"x": x_in}, 1 if turned else 0))
    return sets


def data_mnist(count, seed):
    # Digits 0-9 rendered with Pillow's bundled font (several sizes, shifts, rotations and
    # stroke widths), white on black, 28x28, values 0..255 (mnist-8's expected range).
    from PIL import Image, ImageDraw, ImageFont

    rng = np.random.default_rng(seed)
    sets = []
    for i in range(count):
        digit = i % 10
        size = int(rng.integers(18, 25))
        font = ImageFont.load_default(size=size)
        canvas = Image.new("L", (56, 56), 0)
        draw = ImageDraw.Draw(canvas)
        draw.text((28, 28), str(digit), fill=255, font=font, anchor="mm",
                  stroke_width=int(rng.integers(0, 3)), stroke_fill=255)
        canvas = canvas.rotate(float(rng.uniform(-15, 15)), resample=Image.BILINEAR)
        box = canvas.getbbox() or (0, 0, 56, 56)
        glyph = canvas.crop(box)
        scale = 20.0 / max(glyph.size)
        glyph = glyph.resize((max(1, round(glyph.size[0] * scale)),
                              max(1, round(glyph.size[1] * scale))), Image.BILINEAR)
        out = Image.new("L", (28, 28), 0)
        dx, dy = (int(v) for v in rng.integers(-2, 3, size=2))
        out.paste(glyph, ((28 - glyph.size[0]) // 2 + dx, (28 - glyph.size[1]) // 2 + dy))
        x = np.asarray(out, np.float32)[None, None]
        sets.append((f"digit {digit} size {size}", {"Input3": x}, digit))
    return sets


def data_ultraface(count, seed):
    # Photos (faces first) at 320x240, RGB, (x - 127) / 128.
    photos = load_photos(FACE_PHOTOS + [p for p in PHOTOS if p not in FACE_PHOTOS])
    sets = []
    for label, img in variants(photos, count, seed, 4.0 / 3.0):
        x = ((resize(img, 240, 320) - 127.0) / 128.0).transpose(2, 0, 1)[None]
        sets.append((label, {"input": np.ascontiguousarray(x, np.float32)}, None))
    return sets


def data_picodet(count, seed):
    # PP-PicoDet-S (PaddleDetection's export without post-processing): 320x320, RGB,
    # x/255 then ImageNet mean [0.485, 0.456, 0.406] and std [0.229, 0.224, 0.225]
    # (its NormalizeImage with is_scale). Plain resize, as its Resize(keep_ratio=False).
    mean = np.array([0.485, 0.456, 0.406], np.float32)
    std = np.array([0.229, 0.224, 0.225], np.float32)
    sets = []
    for label, img in variants(load_photos(PHOTOS), count, seed, 1.0):
        x = ((resize(img, 320, 320) / 255.0 - mean) / std).transpose(2, 0, 1)[None]
        sets.append((label, {"image": np.ascontiguousarray(x, np.float32)}, None))
    return sets


def data_super_resolution(count, seed):
    # The Y channel (BT.601) of the photos at 224x224, scaled to [0, 1].
    sets = []
    for label, img in variants(load_photos(PHOTOS), count, seed, 1.0):
        rgb = resize(img, 224, 224) / 255.0
        y = 0.299 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2]
        sets.append((label, {"input": y[None, None].astype(np.float32)}, None))
    return sets


def data_gpt2_past(count, seed, model_path):
    # ort_gpt2_past is a tiny test GPT-2 (its vocabulary and position tables are read from
    # the model): GPT-2 ids are folded into its vocabulary (id % vocab). Each set is one
    # decoding step: the next token and the key/value cache that the FP32 model produced
    # for the tokens before it.
    import onnxruntime as ort

    model = onnx.load(model_path)
    inits = {i.name: i for i in model.graph.initializer}
    vocab = next(int(i.dims[0]) for n, i in inits.items() if "wte" in n)
    positions = next(int(i.dims[0]) for n, i in inits.items() if "wpe" in n)
    past_names = [i.name for i in model.graph.input if i.name.startswith("past_")]
    past_shape = [d.dim_value for d in
                  next(i for i in model.graph.input if i.name == past_names[0]).type.tensor_type.shape.dim]
    sess = ort.InferenceSession(model_path, providers=["CPUExecutionProvider"])
    out_names = [o.name for o in sess.get_outputs()]
    sets = []
    start = seed % 2  # calibration and evaluation walk the sentences differently
    while len(sets) < count:
        for sentence, ids in GPT2_SENTENCES[start:] + GPT2_SENTENCES[:start]:
            toks = [t % vocab for t in ids][:positions]
            past = {n: np.zeros((past_shape[0], 1, past_shape[2], 0, past_shape[4]), np.float32)
                    for n in past_names}
            for step, tok in enumerate(toks):
                feed = {"input_ids": np.array([[tok]], np.int64), **past}
                if len(sets) < count:
                    sets.append((f"'{sentence}' step {step}", feed, None))
                outs = dict(zip(out_names, sess.run(None, feed)))
                past = {n: outs[n.replace("past_", "present_")] for n in past_names}
        start = (start + 1) % len(GPT2_SENTENCES)
    return sets[:count]


# --------------------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------------------

MODELS = {
    # name: (corpus file, data function, classifier output or None, static quantization?)
    "squeezenet": ("winml_squeezenet.onnx", data_squeezenet, "loss1", True),
    "ppocr_cls": ("ppocr_cls_mobile_v2.onnx", data_ppocr_cls, "softmax_0.tmp_0", True),
    "mnist": ("mnist8_cntk.onnx", data_mnist, "Plus214_Output_0", True),
    "ultraface": ("ultraface_rfb_320.onnx", data_ultraface, None, True),
    "super_resolution": ("super_resolution.onnx", data_super_resolution, None, True),
    "picodet": ("picodet_s_320.onnx", data_picodet, None, True),
    "gpt2_past": ("ort_gpt2_past.onnx", data_gpt2_past, None, False),
}


def prepare_model(name, src, dst, opset=0):
    """The FP32 model every tool starts from. With `opset`, models below that opset are
    upgraded (onnx.version_converter; initializers listed as graph inputs, which old
    exporters wrote, leave the inputs first); the un-upgraded one is left in dst + ".orig".
    Besides, only winml_squeezenet is changed: its
    ai.onnx.ml tail (ArgMax, ArrayFeatureExtractor, ZipMap to a map of class names) is cut
    so that its output is the probability tensor `loss1`, and its identity ImageScaler
    (scale 1, bias 0; not an ONNX op since opset 10) becomes an Identity. Returns notes."""
    model = onnx.load(src)
    notes = []
    if name == "squeezenet":
        keep = "loss1"
        graph = model.graph
        nodes = [n for n in graph.node if n.op_type not in ("ArgMax", "ArrayFeatureExtractor", "ZipMap")
                 and not (n.op_type == "Constant" and n.output[0] == "ClassLabels")]
        for n in nodes:
            if n.op_type == "ImageScaler":
                attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
                if attrs.get("scale", 1.0) == 1.0 and not any(attrs.get("bias", [])):
                    n.op_type = "Identity"
                    del n.attribute[:]
        del graph.node[:]
        graph.node.extend(nodes)
        del graph.output[:]
        graph.output.append(helper.make_tensor_value_info(keep, onnx.TensorProto.FLOAT, ["N", 10]))
        kept = [o for o in model.opset_import if o.domain != "ai.onnx.ml"]
        del model.opset_import[:]
        model.opset_import.extend(kept)
        notes.append("ai.onnx.ml tail (ArgMax/ArrayFeatureExtractor/ZipMap) cut: output `loss1` "
                     "(10 class probabilities); identity ImageScaler written as Identity")
    current = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
    if opset and current < opset:
        onnx.save(model, dst + ".orig")
        from onnx import version_converter

        model = version_converter.convert_version(model, opset)
        inits = {i.name for i in model.graph.initializer}
        graph_inputs = [i for i in model.graph.input if i.name not in inits]
        del model.graph.input[:]
        model.graph.input.extend(graph_inputs)
        model.ir_version = max(model.ir_version, 7)
        notes.append(f"upgraded from opset {current} to {opset} with onnx.version_converter "
                     "(initializers removed from the graph inputs) before every tool")
    elif os.path.exists(dst + ".orig"):
        os.remove(dst + ".orig")
    onnx.save(model, dst)
    return notes


# --------------------------------------------------------------------------------------
# Step 1: input sets as TensorProto files
# --------------------------------------------------------------------------------------

def write_sets(folder, sets, input_names):
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    for k, (_, feed, _) in enumerate(sets):
        d = os.path.join(folder, f"set_{k:03d}")
        os.makedirs(d)
        for j, name in enumerate(input_names):
            t = numpy_helper.from_array(feed[name], name=name)
            with open(os.path.join(d, f"input_{j}.pb"), "wb") as f:
                f.write(t.SerializeToString())


# --------------------------------------------------------------------------------------
# Step 2 and 5: running and comparing with onnxruntime
# --------------------------------------------------------------------------------------

# ONNX Runtime's graph optimization level (--ort-level): "all" (its default) fuses QDQ node
# units into its int8 kernels, which on a CPU without VNNI (AVX2: u8 x s8 pairs summed in
# saturating int16) compute something else than a full-range QDQ file means; "basic" runs
# the file as written (DequantizeLinear -> float op -> QuantizeLinear).
ORT_LEVEL = "all"


def session(path, threads=1):
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.log_severity_level = 3
    if ORT_LEVEL == "basic":
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])


def run_all(path, sets):
    sess = session(path)
    names = [o.name for o in sess.get_outputs()]
    return names, [sess.run(None, feed) for _, feed, _ in sets]


def latency_ms(path, feed, runs):
    sess = session(path)
    for _ in range(3):
        sess.run(None, feed)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        sess.run(None, feed)
        times.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(times))


def run_all_passlab(cli, path, sets, input_names, workdir):
    """Outputs of `path` on every set from PassLab's executor (for files ONNX Runtime's CPU
    provider has no kernels for, as bfloat16 arithmetic), in the order outputs.json gives."""
    import json

    names, outs = None, []
    for k, (_, feed, _) in enumerate(sets):
        d = os.path.join(workdir, f"passlab_out_{k:03d}")
        if os.path.isdir(d):
            shutil.rmtree(d)
        args = ["run", path, "--repeat", "1", "--warmup", "0", "--threads", "1", "--save-outputs", d]
        for j, name in enumerate(input_names):
            args += ["--input", f"{name}={os.path.join(workdir, 'eval', f'set_{k:03d}', f'input_{j}.pb')}"]
        rc, out = cli_run(cli, args)
        if rc != 0:
            raise RuntimeError("passlab-cli run failed: " + out.strip()[-300:])
        with open(os.path.join(d, "outputs.json")) as f:
            listed = json.load(f)["outputs"]
        names = [o["name"] for o in listed]
        outs.append([np.load(os.path.join(d, o["file"])) for o in listed])
    return names, outs


def latency_ms_passlab(cli, path, set_dir, input_names, runs):
    args = ["run", path, "--repeat", str(runs), "--warmup", "3", "--threads", "1"]
    for j, name in enumerate(input_names):
        args += ["--input", f"{name}={os.path.join(set_dir, f'input_{j}.pb')}"]
    _, out = cli_run(cli, args)
    m = re.search(r"median ([0-9.]+) ms", out)
    return float(m.group(1)) if m else float("nan")


def compare(ref_names, ref, out, cls_index):
    """Worst cosine and SNR over the outputs (each over all sets), and top-1 agreement."""
    worst_cos, worst_snr, worst_name = 2.0, float("inf"), ""
    for k, name in enumerate(ref_names):
        r = np.concatenate([np.asarray(o[k], np.float64).ravel() for o in ref])
        o = np.concatenate([np.asarray(s[k], np.float64).ravel() for s in out])
        if r.shape != o.shape:
            raise ValueError(f"output {name}: {r.size} values, FP32 has {o.size}")
        nr, no = np.linalg.norm(r), np.linalg.norm(o)
        cos = float(r @ o / (nr * no)) if nr > 0 and no > 0 else (1.0 if nr == no else 0.0)
        err = float(np.sum((r - o) ** 2))
        snr = float("inf") if err == 0 else 10 * np.log10(max(float(np.sum(r ** 2)), 1e-300) / err)
        if snr < worst_snr or (snr == worst_snr and cos < worst_cos):
            worst_snr, worst_name = snr, name
        worst_cos = min(worst_cos, cos)
    top1 = None
    if cls_index is not None:
        same = [int(np.argmax(r[cls_index]) == np.argmax(o[cls_index])) for r, o in zip(ref, out)]
        top1 = sum(same) / len(same)
    return worst_cos, worst_snr, worst_name, top1


# --------------------------------------------------------------------------------------
# Step 3: peers
# --------------------------------------------------------------------------------------

def peer_fp16(src, dst):
    from onnxconverter_common import float16

    model = float16.convert_float_to_float16(onnx.load(src), keep_io_types=True)
    onnx.save(model, dst)


class SetsReader:
    """onnxruntime CalibrationDataReader over the calibration split."""

    def __init__(self, sets):
        self.feeds = [feed for _, feed, _ in sets]
        self.i = 0

    def get_next(self):
        if self.i >= len(self.feeds):
            return None
        self.i += 1
        return self.feeds[self.i - 1]

    def rewind(self):
        self.i = 0


def peer_static(method):
    def convert(src, dst, calib):
        from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod,
                                              QuantFormat, QuantType, quantize_static)

        reader = type("Reader", (SetsReader, CalibrationDataReader), {})(calib)
        quantize_static(src, dst, reader, quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=getattr(CalibrationMethod, method))
    return convert


def peer_dynamic(src, dst):
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(src, dst, weight_type=QuantType.QInt8)


# --------------------------------------------------------------------------------------
# Step 4: PassLab
# --------------------------------------------------------------------------------------

def cli_run(cli, args, timeout=900, tries=12):
    """Runs passlab-cli, waiting while it is missing (a build may be relinking it)."""
    for attempt in range(tries):
        if os.access(cli, os.X_OK):
            try:
                p = subprocess.run([cli] + args, capture_output=True, text=True, timeout=timeout)
            except OSError as e:  # "text file busy" while the linker writes it
                if attempt + 1 == tries:
                    raise
                print(f"  ({cli}: {e}; retrying)", file=sys.stderr)
            else:
                return p.returncode, p.stdout + p.stderr
        else:
            print(f"  ({cli} missing; retrying in 10 s)", file=sys.stderr)
        time.sleep(10)
    raise RuntimeError(f"{cli} not available after {tries} tries")


def passlab_passes(cli):
    rc, text = cli_run(cli, ["passes"])
    return {line.split()[0] for line in text.splitlines() if line and not line[0].isspace()}


def passlab_convert(cli, pass_id, available, calib_dir):
    """quantize_static calibrates on --calibration-data DIR (one subfolder per input set,
    as written by write_sets) and is checked on those sets; every other pass is checked by
    PassLab on the first evaluation set."""
    def convert(src, dst, input_dir):
        if pass_id not in available:
            raise NotAvailable(f"not available (`passlab-cli passes` has no {pass_id})")
        if os.path.exists(dst):
            os.remove(dst)
        # quantize_static: the check runs on the calibration sets (the CLI's default with
        # --calibration-data: up to 16 of them); on one image it can reject a step that is
        # within budget on the data (docs/precision.md, "A budget checked on one image").
        extra = (["--calibration-data", calib_dir] if pass_id == "quantize_static"
                 else ["--input-dir", input_dir])
        # Models below opset 13 are raised first (per-channel DequantizeLinear needs 13).
        plan = f"raise_opset,{pass_id}" if pass_id == "quantize_static" else pass_id
        rc, text = cli_run(cli, ["optimize", src, "-o", dst, "--passes", plan] + extra)
        status = ""
        for line in text.splitlines():
            m = re.match(rf"\s*\d+\s+{pass_id}\s+\S+ -> \S+\s+(.*)$", line)
            if m:
                status = re.split(r"\s{2,}", m.group(1).strip())[0]
                if "within budget" not in m.group(1) and "check" in text and "budget" in m.group(1):
                    status += " | " + m.group(1).strip()[-120:]
        if rc != 0 or not os.path.exists(dst):
            # The error line says why (a step over the budget names the output and figure);
            # the last line is only "the model was not saved".
            err = [l for l in text.splitlines() if l.startswith("error:")] or \
                [l for l in text.splitlines() if l.strip()]
            raise RuntimeError(f"passlab-cli rc {rc}: {(err[-1] if err else '')[:160]}")
        return status
    return convert


class NotAvailable(Exception):
    pass


# --------------------------------------------------------------------------------------
# Steps 5 and 6: evaluation and Markdown
# --------------------------------------------------------------------------------------

def fmt_size(n):
    return f"{n / 1e6:.2f} MB" if n >= 1e6 else f"{n / 1e3:.1f} kB"


def short(msg, n=160):
    """One table cell: no paths of the model or of ORT's sources, head and tail if long."""
    msg = " ".join(str(msg).split()).replace("|", "/")
    msg = re.sub(r"Load model from \S+ failed:", "", msg)
    msg = re.sub(r"/onnxruntime_src/\S+ [^\[]*", "", msg)
    return msg if len(msg) <= n else msg[:n // 3] + " … " + msg[-(2 * n // 3):]


def evaluate_model(name, args, available):
    file, data_fn, cls_output, static = MODELS[name]
    src = os.path.join(args.corpus, file)
    wd = os.path.join(args.workdir, name + (f"_opset{args.opset}" if args.opset else ""))
    os.makedirs(wd, exist_ok=True)
    fp32 = os.path.join(wd, "fp32.onnx")
    notes = prepare_model(name, src, fp32, args.opset)
    model = onnx.load(fp32)
    inits = {i.name for i in model.graph.initializer}
    input_names = [i.name for i in model.graph.input if i.name not in inits]

    t0 = time.time()
    if name == "gpt2_past":
        eval_sets = data_fn(args.images, 0, fp32)
        calib_sets = data_fn(args.images, 1, fp32)
    else:
        eval_sets = data_fn(args.images, 0)
        calib_sets = data_fn(args.images, 1000)
    write_sets(os.path.join(wd, "eval"), eval_sets, input_names)
    write_sets(os.path.join(wd, "calib"), calib_sets, input_names)
    print(f"[{name}] {len(eval_sets)} eval + {len(calib_sets)} calibration sets written "
          f"({time.time() - t0:.1f} s)", file=sys.stderr)

    ref_names, ref = run_all(fp32, eval_sets)
    if os.path.exists(fp32 + ".orig"):
        orig_names, orig = run_all(fp32 + ".orig", eval_sets)
        diff = max(float(np.max(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64))))
                   for o, r in zip(orig, ref) for a, b in zip(o, r))
        notes.append(f"the upgraded FP32 model differs from the original by at most {diff:.3g}")
    cls_index = ref_names.index(cls_output) if cls_output in ref_names else None
    labels = [lab for _, _, lab in eval_sets]
    if cls_index is not None and all(lab is not None for lab in labels):
        acc = np.mean([int(np.argmax(o[cls_index]) == lab) for o, lab in zip(ref, labels)])
        notes.append(f"FP32 accuracy against the known labels: {acc:.0%} ({len(labels)} sets)")
    feed0 = eval_sets[0][1]
    ref_lat = latency_ms(fp32, feed0, args.runs)
    ref_size = os.path.getsize(fp32)

    input_dir = os.path.join(wd, "eval", "set_000")
    variants_list = [("FP16", "onnxconverter-common float16", lambda s, d: peer_fp16(s, d))]
    if static:
        for method in args.calib.split(","):
            variants_list.append((f"INT8 QDQ static {method}", "ORT quantize_static",
                                  (lambda m: lambda s, d: peer_static(m)(s, d, calib_sets))(method)))
    variants_list.append(("INT8 dynamic", "ORT quantize_dynamic", peer_dynamic))
    for pass_id, label in [("convert_to_float16", "FP16"), ("convert_to_bfloat16", "BF16"),
                           ("quantize_dynamic", "INT8 dynamic"), ("quantize_static", "INT8 static")]:
        conv = passlab_convert(args.cli, pass_id, available, os.path.join(wd, "calib"))
        variants_list.append((label, f"PassLab {pass_id}",
                              (lambda c: lambda s, d: c(s, d, input_dir))(conv)))

    rows = [("FP32", "reference", "", "100%" if cls_index is not None else "–", "1", "inf",
             fmt_size(ref_size), f"{ref_lat:.2f}", "1.00x")]
    for label, tool, fn in variants_list:
        dst = os.path.join(wd, re.sub(r"[^a-z0-9]+", "_", f"{tool}_{label}".lower()) + ".onnx")
        t0 = time.time()
        try:
            status = fn(fp32, dst) or "ok"
        except NotAvailable as e:
            rows.append((label, tool, str(e), "", "", "", "", "", ""))
            continue
        except Exception as e:  # noqa: BLE001 - the error goes into the table
            print(f"[{name}] {tool} {label} failed:\n{traceback.format_exc()}", file=sys.stderr)
            rows.append((label, tool, "conversion failed: " + short(f"{type(e).__name__}: {e}"),
                         "", "", "", "", "", ""))
            continue
        conv_s = time.time() - t0
        runner = "ORT"
        try:
            try:
                names, out = run_all(dst, eval_sets)
            except Exception:  # noqa: BLE001 - PassLab's own files run on its executor instead
                if not tool.startswith("PassLab"):
                    raise
                names, out = run_all_passlab(args.cli, dst, eval_sets, input_names, wd)
                runner = "PassLab"
            if names != ref_names:
                out_map = [dict(zip(names, o)) for o in out]
                out = [[m[n] for n in ref_names] for m in out_map]
            cos, snr, worst, top1 = compare(ref_names, ref, out, cls_index)
            if runner == "ORT":
                lat = latency_ms(dst, feed0, args.runs)
            else:
                lat = latency_ms_passlab(args.cli, dst, input_dir, input_names, args.runs)
        except Exception as e:  # noqa: BLE001
            print(f"[{name}] {tool} {label} does not run:\n{traceback.format_exc()}", file=sys.stderr)
            rows.append((label, tool, "ORT run failed: " + short(f"{type(e).__name__}: {e}"),
                         "", "", "", fmt_size(os.path.getsize(dst)), "", ""))
            continue
        status = f"{short(status, 90)} ({conv_s:.1f} s)"
        if runner == "PassLab":
            status += "; ONNX Runtime has no CPU kernel for it: figures from PassLab's executor"
        worst_txt = f" (`{worst}`)" if len(ref_names) > 1 else ""
        rows.append((label, tool, status, "–" if top1 is None else f"{top1:.0%}", f"{cos:.6f}",
                     ("inf" if snr == float("inf") else f"{snr:.1f}") + worst_txt,
                     fmt_size(os.path.getsize(dst)),
                     f"{lat:.2f}" + (" (PassLab)" if runner == "PassLab" else ""),
                     f"{lat / ref_lat:.2f}x" if runner == "ORT" else "–"))
        print(f"[{name}] {tool} {label}: cos {cos:.6f} snr {snr:.1f} lat {lat:.2f} ms", file=sys.stderr)

    md = [f"### {name} (`{file}`)", ""]
    md.append(f"Inputs: {', '.join(input_names)}; {len(eval_sets)} evaluation sets "
              f"(e.g. {eval_sets[0][0]}), {len(calib_sets)} calibration sets for static quantization. "
              f"Outputs compared: {', '.join('`%s`' % n for n in ref_names[:4])}"
              f"{' …' if len(ref_names) > 4 else ''}.")
    for n in notes:
        md.append(f"{n}.")
    md.append("")
    md.append("| Variant | Tool | Status | Top-1 agree | Cosine (worst) | SNR dB (worst) | Size | "
              f"ORT latency ms (1 thread, median of {args.runs}) | vs FP32 |")
    md.append("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        md.append("| " + " | ".join(r) + " |")
    md.append("")
    return "\n".join(md)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--cli", default=os.path.join(here, "..", "..", "build", "app", "cli", "passlab-cli"))
    ap.add_argument("--corpus", default=os.path.join(here, "..", "..", "..", "shared", "corpus", "models"))
    ap.add_argument("--models",
                    default="squeezenet,ppocr_cls,mnist,ultraface,super_resolution,gpt2_past,picodet")
    ap.add_argument("--images", type=int, default=16, help="evaluation sets (as many calibration sets)")
    ap.add_argument("--calib", default="MinMax,Entropy,Percentile",
                    help="calibration methods of quantize_static")
    ap.add_argument("--opset", type=int, default=0,
                    help="upgrade models below this opset first (0: use them as they are)")
    ap.add_argument("--runs", type=int, default=20, help="timed ORT runs per model")
    ap.add_argument("--out", default="/tmp/pq-work/precision_compare.md")
    ap.add_argument("--workdir", default="/tmp/pq-work")
    ap.add_argument("--ort-level", choices=["all", "basic"], default="all",
                    help="ONNX Runtime's graph optimization level for every run (basic: no int8 "
                         "fusion, the QDQ files computed as written)")
    args = ap.parse_args()
    global ORT_LEVEL
    ORT_LEVEL = args.ort_level
    args.cli = os.path.abspath(args.cli)
    args.corpus = os.path.abspath(args.corpus)

    import onnxruntime as ort
    import onnxconverter_common
    import skimage

    versions = (f"onnxruntime {ort.__version__}, onnx {onnx.__version__}, onnxconverter-common "
                f"{onnxconverter_common.__version__}, scikit-image {skimage.__version__}, "
                f"numpy {np.__version__}")
    try:
        available = passlab_passes(args.cli)
    except Exception as e:  # noqa: BLE001
        print(f"passlab-cli unusable ({e}); its rows say so", file=sys.stderr)
        available = set()
    parts = ["## Precision conversions on real data", "",
             f"Generated by `scripts/dev/precision_compare.py` ({versions}; CPU execution provider). "
             "Cosine and SNR are those of the worst output, each output over all evaluation sets; "
             "top-1 agreement is against FP32."
             + (f" Models below opset {args.opset} were upgraded to it first." if args.opset else ""),
             "Latency: onnxruntime CPU, intra_op_num_threads=1, median of timed runs on the "
             f"first evaluation set. ONNX Runtime graph optimization level: {args.ort_level}.", ""]
    for name in args.models.split(","):
        name = name.strip()
        if name not in MODELS:
            parts.append(f"### {name}\n\nunknown model (known: {', '.join(MODELS)})\n")
            continue
        try:
            parts.append(evaluate_model(name, args, available))
        except Exception as e:  # noqa: BLE001
            print(traceback.format_exc(), file=sys.stderr)
            parts.append(f"### {name}\n\nfailed: {short(e, 300)}\n")
        print(parts[-1])
        sys.stdout.flush()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(parts) + "\n")
    print(f"written: {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
