#!/usr/bin/env python3
"""PyTorch anchor: eager and torch.compile latency of ONNX models converted with onnx2torch.

usage: torch_anchor.py MODEL.onnx... [--device cuda] [--runs 20] [--warmup 3] [--no-compile]
                       [--json FILE] [--timeout 120] [--budget S] [--dim NAME=VALUE]...
                       [--check-ort]

Each model is converted (onnx2torch), given seeded random float32 inputs (symbolic dims 1 unless
--dim names them; integer inputs small non-negative values), and timed in float32: `--warmup`
untimed runs, then the median of `--runs` timed runs, each ended by torch.cuda.synchronize on a
GPU. torch.compile (Inductor) is timed the same way after its first, compiling call (whose
seconds are reported apart). Every model runs in a child process under --timeout seconds (or,
with --in-process, in this one under an alarm), so a model onnx2torch cannot convert, one that
fails to compile, or one that crashes is reported in its row and the others still run. A model onnx2torch refuses as it is is retried once prepared:
constants folded by ONNX Runtime's basic level (standard ops only), Constant nodes made
initializers, the opset raised to --opset, shapes inferred (the row lists the steps). For
torch.compile, onnx2torch's Reshape/Expand/Tile read their shape tensor as Python ints (Dynamo
cannot build torch.Size from a fake tensor). Prints a table, then the rows as JSON (also to
--json FILE).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import traceback


def _parse_dims(items):
    dims = {}
    for item in items or []:
        name, _, value = item.partition("=")
        if not value:
            raise SystemExit(f"--dim expects NAME=VALUE, got '{item}'")
        dims[name] = int(value)
    return dims


def shapes_from_logs(folder, model_name):
    """The input shapes PassLab's GPU run of this model used, from gpu-check's run logs
    (run_MODEL_LEVEL.log: `passlab-cli run --json`, whose "inputs" read "NAME TYPE[d,...]: ...")."""
    import glob
    import re

    decoder = json.JSONDecoder()
    for path in sorted(glob.glob(os.path.join(folder, f"run_{model_name}_*.log"))):
        try:
            with open(path, errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        for m in re.finditer(r"^\{", text, re.M):
            try:
                value, _ = decoder.raw_decode(text[m.start():])
            except ValueError:
                continue
            shapes = {}
            for line in value.get("inputs", []) if isinstance(value, dict) else []:
                found = re.match(r"^(\S+) \w+\[([0-9,]*)\]", line)
                if found:
                    dims = found.group(2)
                    shapes[found.group(1)] = [int(d) for d in dims.split(",")] if dims else []
            if shapes:
                return shapes
    return {}


def _make_inputs(model, dims, seed, device, shapes=None):
    import numpy as np
    import torch
    from onnx import TensorProto

    dtypes = {
        TensorProto.FLOAT: np.float32,
        TensorProto.DOUBLE: np.float64,
        TensorProto.FLOAT16: np.float16,
        TensorProto.INT64: np.int64,
        TensorProto.INT32: np.int32,
        TensorProto.INT8: np.int8,
        TensorProto.UINT8: np.uint8,
        TensorProto.BOOL: np.bool_,
    }
    rng = np.random.default_rng(seed)
    initializers = {t.name for t in model.graph.initializer}
    arrays = []
    names = []
    for value in model.graph.input:
        if value.name in initializers:
            continue
        tensor_type = value.type.tensor_type
        elem = tensor_type.elem_type
        if elem not in dtypes:
            raise RuntimeError(f"input '{value.name}' has element type {elem}, not handled")
        shape = []
        for d in tensor_type.shape.dim:
            if d.HasField("dim_value") and d.dim_value > 0:
                shape.append(d.dim_value)
            else:
                shape.append(dims.get(d.dim_param, 1))
        if shapes and value.name in shapes and len(shapes[value.name]) == len(shape):
            shape = shapes[value.name]
        np_type = dtypes[elem]
        if np.issubdtype(np_type, np.floating):
            array = rng.uniform(-1.0, 1.0, size=shape).astype(np_type)
        elif np_type is np.bool_:
            array = np.ones(shape, dtype=np.bool_)
        else:
            array = rng.integers(0, 10, size=shape).astype(np_type)
        arrays.append(array)
        names.append(value.name)
    tensors = [torch.from_numpy(a).to(device) for a in arrays]
    return names, arrays, tensors


def prepare(path, opset):
    """The model made convertible: constants folded, opset raised, shapes inferred."""
    import tempfile

    import onnx
    import onnxruntime as ort

    steps = []
    model = onnx.load(path)
    # Initializers listed as graph inputs (IR < 4) are weights, not inputs: drop them from the
    # inputs so that ONNX Runtime treats them as constants and folds what they feed.
    names = {t.name for t in model.graph.initializer}
    inputs = [v for v in model.graph.input if v.name not in names]
    if len(inputs) != len(model.graph.input):
        del model.graph.input[:]
        model.graph.input.extend(inputs)
        steps.append("initializers are not inputs")
    if model.ir_version < 4:
        model.ir_version = 4
    with tempfile.TemporaryDirectory() as tmp:
        cleaned = os.path.join(tmp, "cleaned.onnx")
        folded = os.path.join(tmp, "folded.onnx")
        onnx.save(model, cleaned)
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = folded
        ort.InferenceSession(cleaned, options, providers=["CPUExecutionProvider"])
        model = onnx.load(folded)
        steps.append("ort-basic")
    # Constant nodes become initializers (onnx2torch reads weights from initializers only).
    kept = []
    for node in model.graph.node:
        if node.op_type == "Constant" and len(node.attribute) == 1 and node.attribute[0].name == "value":
            tensor = onnx.TensorProto()
            tensor.CopyFrom(node.attribute[0].t)
            tensor.name = node.output[0]
            model.graph.initializer.append(tensor)
        else:
            kept.append(node)
    if len(kept) != len(model.graph.node):
        del model.graph.node[:]
        model.graph.node.extend(kept)
        steps.append("constants->initializers")
    current = max((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), default=0)
    if current and current < opset:
        try:
            model = onnx.version_converter.convert_version(model, opset)
            steps.append(f"opset {current}->{opset}")
        except Exception as exc:  # noqa: BLE001
            steps.append(f"opset {current} kept ({type(exc).__name__})")
    del model.graph.value_info[:]
    model = onnx.shape_inference.infer_shapes(model)
    steps.append("shapes inferred")
    return model, steps


class _StaticReshape:
    """Reshape to a shape known when converting (ONNX: 0 copies the input's dim, -1 is inferred)."""

    @staticmethod
    def make(shape):
        import torch

        class StaticReshape(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.shape = tuple(shape)

            def forward(self, x, *unused):
                dims = [x.shape[i] if d == 0 else d for i, d in enumerate(self.shape)]
                return torch.reshape(x, dims)

        return StaticReshape()


def _static_module(kind, values):
    import torch

    if kind == "OnnxReshape":
        return _StaticReshape.make(values)

    class StaticExpand(torch.nn.Module):
        def forward(self, x, *unused):
            return x * torch.ones(values, dtype=x.dtype, device=x.device)

    class StaticTile(torch.nn.Module):
        def forward(self, x, *unused):
            return x.repeat(values)

    return StaticExpand() if kind == "OnnxExpand" else StaticTile()


def specialize_shapes(module):
    """onnx2torch's Reshape, Expand and Tile build torch.Size from a shape tensor, which
    torch.compile cannot trace (a fake tensor there); where that tensor is a constant of the
    module, the node is given a module holding the shape as Python ints. Returns the count."""
    import torch

    graph = getattr(module, "graph", None)
    if graph is None:
        return 0
    changed = 0
    for node in list(graph.nodes):
        if node.op != "call_module" or len(node.args) < 2:
            continue
        target = module.get_submodule(node.target)
        kind = type(target).__name__
        if kind not in ("OnnxReshape", "OnnxExpand", "OnnxTile"):
            continue
        shape_arg = node.args[1]
        if getattr(shape_arg, "op", None) != "get_attr":
            continue
        value = module
        for part in shape_arg.target.split("."):
            value = getattr(value, part)
        if not isinstance(value, torch.Tensor) or value.dim() != 1:
            continue
        values = [int(v) for v in value.tolist()]
        name = f"{node.target.replace('.', '_')}_static"
        module.add_submodule(name, _static_module(kind, values))
        node.target = name
        node.args = (node.args[0],)
        changed += 1
    if changed:
        graph.eliminate_dead_code()
        module.recompile()
    return changed


def patch_for_compile():
    """onnx2torch's Reshape, Expand and Tile pass a shape tensor to torch.Size, which Dynamo
    cannot trace (a fake tensor there): read the shape as Python ints instead (a graph break
    where the shape is computed, not an error). Eager timing is done before this patch."""
    import torch
    from onnx2torch.node_converters import expand, reshape, tile

    def do_reshape(input_tensor, shape):
        dims = [int(d) for d in shape.tolist()]
        dims = [input_tensor.shape[i] if d == 0 else d for i, d in enumerate(dims)]
        return torch.reshape(input_tensor, dims)

    def expand_forward(self, input_tensor, shape):
        dims = [int(d) for d in shape.tolist()]
        return input_tensor * torch.ones(dims, dtype=input_tensor.dtype, device=input_tensor.device)

    def tile_forward(self, input_tensor, repeats):
        return input_tensor.repeat([int(d) for d in repeats.tolist()])

    reshape.OnnxReshape._do_reshape = staticmethod(do_reshape)
    expand.OnnxExpand.forward = expand_forward
    tile.OnnxTile.forward = tile_forward


def _time_ms(fn, args, warmup, runs, device):
    import torch

    sync = torch.cuda.synchronize if device.startswith("cuda") else (lambda: None)
    for _ in range(warmup):
        fn(*args)
    sync()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn(*args)
        sync()
        samples.append((time.perf_counter() - start) * 1e3)
    return statistics.median(samples), min(samples)


def _flatten(out):
    import torch

    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (list, tuple)):
        flat = []
        for item in out:
            flat.extend(_flatten(item))
        return flat
    if isinstance(out, dict):
        flat = []
        for item in out.values():
            flat.extend(_flatten(item))
        return flat
    return []


def run_one(path, args):
    """Times one model in this process; returns its row (a dict)."""
    row = {"model": os.path.basename(path), "path": path, "status": "ok", "device": args.device}
    try:
        import onnx
        import torch
    except Exception as exc:  # noqa: BLE001 - reported in the row
        row.update(status="error", stage="import", error=f"{type(exc).__name__}: {exc}")
        return row
    row["torch"] = torch.__version__
    # float32 as PassLab computes it: no TF32 in cuDNN's convolutions (on by default in torch)
    # nor in matrix products, unless --tf32.
    torch.backends.cudnn.allow_tf32 = bool(args.tf32)
    torch.backends.cuda.matmul.allow_tf32 = bool(args.tf32)
    row["tf32"] = bool(args.tf32)
    try:
        model = onnx.load(path)
    except Exception as exc:  # noqa: BLE001
        row.update(status="error", stage="load", error=f"{type(exc).__name__}: {exc}")
        return row
    try:
        from onnx2torch import convert
    except Exception as exc:  # noqa: BLE001
        row.update(status="error", stage="import", error=f"{type(exc).__name__}: {exc}")
        return row
    module = None
    first_error = None
    try:
        module = convert(model).eval()
    except Exception as exc:  # noqa: BLE001
        first_error = f"{type(exc).__name__}: {exc}"
    if module is None and not args.no_prepare:
        # onnx2torch wants weights as initializers, typed values and recent opsets: fold the
        # constants with ONNX Runtime's basic level (standard ops only), raise the opset, infer.
        try:
            model, steps = prepare(path, args.opset)
            row["prepared"] = steps
            module = convert(model).eval()
        except Exception as exc:  # noqa: BLE001
            row["prepare_error"] = f"{type(exc).__name__}: {exc}"
    if module is None:
        row.update(status="unconverted", stage="onnx2torch", error=first_error)
        return row
    try:
        module = module.to(args.device)
    except Exception as exc:  # noqa: BLE001
        row.update(status="error", stage="to-device", error=f"{type(exc).__name__}: {exc}")
        return row
    try:
        shapes = {}
        if args.shapes_from_logs:
            shapes = shapes_from_logs(args.shapes_from_logs, os.path.basename(path).removesuffix(".onnx"))
            if shapes:
                row["shapes_from"] = "passlab run"
        names, arrays, inputs = _make_inputs(model, _parse_dims(args.dim), args.seed, args.device,
                                             shapes)
        row["inputs"] = [f"{n}{list(a.shape)}:{a.dtype}" for n, a in zip(names, arrays)]
        with torch.inference_mode():
            eager_out = module(*inputs)
            if not args.compile_only:
                row["eager_ms"], row["eager_min_ms"] = _time_ms(
                    module, inputs, args.warmup, args.runs, args.device
                )
    except Exception as exc:  # noqa: BLE001
        row.update(status="error", stage="eager", error=f"{type(exc).__name__}: {exc}")
        return row
    if args.check_ort:
        try:
            import numpy as np
            import onnxruntime as ort

            session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
            accepted = {i.name for i in session.get_inputs()}
            feeds = {n: a for n, a in zip(names, arrays) if n in accepted}
            expected = session.run(None, feeds)
            got = [t.detach().float().cpu().numpy() for t in _flatten(eager_out)]
            worst = 0.0
            for e, g in zip(expected, got):
                if e.dtype.kind == "f" and e.shape == g.shape:
                    worst = max(worst, float(np.max(np.abs(e.astype(np.float32) - g))) if e.size else 0.0)
            row["max_abs_diff_vs_ort"] = worst
        except Exception as exc:  # noqa: BLE001
            row["ort_check"] = f"{type(exc).__name__}: {exc}"
    if not args.no_compile:
        try:
            row["static_shapes"] = specialize_shapes(module)
            patch_for_compile()
            compiled = torch.compile(module)
            with torch.inference_mode():
                start = time.perf_counter()
                compiled_out = compiled(*inputs)
                if args.device.startswith("cuda"):
                    torch.cuda.synchronize()
                row["compile_s"] = time.perf_counter() - start
                worst = 0.0
                for e, g in zip(_flatten(eager_out), _flatten(compiled_out)):
                    if e.is_floating_point() and e.shape == g.shape and e.numel():
                        worst = max(worst, float((e.float() - g.float()).abs().max()))
                row["compiled_max_abs_diff_vs_eager"] = worst
                row["compiled_ms"], row["compiled_min_ms"] = _time_ms(
                    compiled, inputs, args.warmup, args.runs, args.device
                )
        except Exception as exc:  # noqa: BLE001
            row["compile_error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    return row


def _fmt(value, spec=".3f"):
    return format(value, spec) if isinstance(value, (int, float)) else "-"


def print_table(rows):
    print(f"{'model':42} {'status':12} {'eager ms':>10} {'compile ms':>11} {'compile s':>10}  note")
    for r in rows:
        note = r.get("error") or r.get("compile_error") or ""
        if r.get("prepare_error"):
            note += f" (prepared: {r['prepare_error']})"
        if "max_abs_diff_vs_ort" in r:
            note = (f"max|diff| vs ORT {r['max_abs_diff_vs_ort']:.2e}  " + note).strip()
        print(
            f"{r['model'][:42]:42} {r['status']:12} {_fmt(r.get('eager_ms')):>10} "
            f"{_fmt(r.get('compiled_ms')):>11} {_fmt(r.get('compile_s'), '.1f'):>10}  {note[:120]}"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="+")
    parser.add_argument("--device", default=None, help="cuda (default when available) or cpu")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-compile", action="store_true", help="eager only")
    parser.add_argument("--check-ort", action="store_true",
                        help="compare the eager outputs with ONNX Runtime (CPU) on the same inputs")
    parser.add_argument("--dim", action="append", help="NAME=VALUE for a symbolic dim")
    parser.add_argument("--shapes-from-logs", metavar="DIR",
                        help="take each model's input shapes from DIR/run_MODEL_*.log (gpu-check's "
                             "`passlab-cli run --json` logs), so both run the same shapes")
    parser.add_argument("--no-prepare", action="store_true",
                        help="do not retry a model onnx2torch refuses after folding its constants "
                             "(ONNX Runtime, basic level) and raising its opset")
    parser.add_argument("--opset", type=int, default=13, help="opset a refused model is raised to")
    parser.add_argument("--json", help="also write the rows to FILE")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds per model")
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds for all models: no model is started after it is spent "
                             "(reported as skipped), and none runs past it")
    parser.add_argument("--in-process", action="store_true",
                        help="all models in this process (one import of torch; a model that "
                             "crashes the process loses the rows after it)")
    parser.add_argument("--compile-only", action="store_true",
                        help="time torch.compile only (the eager module runs once, for the check)")
    parser.add_argument("--tf32", action="store_true",
                        help="let cuDNN and cuBLAS use TF32 for float32 (off by default: PassLab's "
                             "float32 kernels do not)")
    parser.add_argument("--single", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.device is None:
        try:
            import torch

            args.device = "cuda" if torch.cuda.is_available() else "cpu"
        except Exception:  # noqa: BLE001
            args.device = "cpu"

    if args.single:
        try:
            row = run_one(args.models[0], args)
        except Exception as exc:  # noqa: BLE001
            row = {"model": os.path.basename(args.models[0]), "status": "error",
                   "error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()}
        print("ANCHOR_ROW " + json.dumps(row), flush=True)
        return 0

    rows = []
    begun = time.perf_counter()
    if args.in_process:
        import signal

        class _Timeout(Exception):
            pass

        def _alarm(signum, frame):
            raise _Timeout()

        signal.signal(signal.SIGALRM, _alarm)
    for path in args.models:
        spent = time.perf_counter() - begun
        if args.budget is not None and spent > args.budget - 5:
            rows.append({"model": os.path.basename(path), "status": "skipped",
                         "error": f"time budget of {args.budget:.0f} s spent"})
            continue
        timeout = args.timeout
        if args.budget is not None:
            timeout = min(timeout, max(10.0, args.budget - spent))
        if args.in_process:
            started = time.perf_counter()
            signal.alarm(max(1, int(timeout)))
            try:
                row = run_one(path, args)
            except _Timeout:
                row = {"model": os.path.basename(path), "status": "timeout",
                       "error": f"no result within {timeout:.0f} s"}
            except Exception as exc:  # noqa: BLE001
                row = {"model": os.path.basename(path), "status": "error",
                       "error": f"{type(exc).__name__}: {exc}"}
            finally:
                signal.alarm(0)
            row["wall_s"] = round(time.perf_counter() - started, 1)
            rows.append(row)
            print(f"# {row['model']}: {row['status']} ({row['wall_s']} s)", file=sys.stderr, flush=True)
            continue
        cmd = [sys.executable, os.path.abspath(__file__), path, "--single", "--device", args.device,
               "--runs", str(args.runs), "--warmup", str(args.warmup), "--seed", str(args.seed)]
        for item in args.dim or []:
            cmd += ["--dim", item]
        if args.no_compile:
            cmd.append("--no-compile")
        if args.compile_only:
            cmd.append("--compile-only")
        if args.check_ort:
            cmd.append("--check-ort")
        if args.no_prepare:
            cmd.append("--no-prepare")
        if args.shapes_from_logs:
            cmd += ["--shapes-from-logs", args.shapes_from_logs]
        if args.tf32:
            cmd.append("--tf32")
        cmd += ["--opset", str(args.opset)]
        started = time.perf_counter()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            found = [l for l in proc.stdout.splitlines() if l.startswith("ANCHOR_ROW ")]
            if found:
                row = json.loads(found[-1][len("ANCHOR_ROW "):])
            else:
                tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
                row = {"model": os.path.basename(path), "status": "crashed",
                       "error": f"exit {proc.returncode}: {' | '.join(tail)}"}
        except subprocess.TimeoutExpired:
            row = {"model": os.path.basename(path), "status": "timeout",
                   "error": f"no result within {timeout:.0f} s"}
        row["wall_s"] = round(time.perf_counter() - started, 1)
        rows.append(row)
        print(f"# {row['model']}: {row['status']} ({row['wall_s']} s)", file=sys.stderr, flush=True)

    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    else:
        print(json.dumps(rows, indent=1))
    print_table(rows)
    counts = {}
    for r in rows:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    compiled = sum(1 for r in rows if r.get("compiled_ms") is not None)
    print(f"anchor: {len(rows)} models: "
          + ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
          + ("" if args.no_compile else f"; {compiled} compiled"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
