#!/usr/bin/env bash
# The GPU check: runs on a bare GPU machine (CUDA toolkit, Python with PyTorch, onnx, onnxruntime;
# none of PassLab's Debian packages, no network) from the repository root, with gpu-bundle/ made
# here by scripts/dev/gpu_bundle.sh and carried over. Writes to ${OUT:-/tmp/gpu-out}.
#
#   scripts/gpu-check.sh                  (GPU_CHECK_BUDGET_S=450 by default: stops starting
#                                          steps when the budget is spent, so the whole run
#                                          ends in under 8 minutes)
#
# Steps, each under its own timeout, none stopping the run when it fails:
#   setup      unpack the bundle, wrappers in $WORK/run that give PassLab's programs their
#              LD_LIBRARY_PATH (bundle libs, the CUDA toolkit, then the torch wheel's
#              nvidia/*/lib for cuDNN/cuBLAS when the toolkit lacks them), nvidia-smi
#   devices    passlab-cli devices
#   conform    passlab-cli conformance --device cuda on the ONNX node tests (in the background,
#              beside the two steps below, which time nothing)
#   unit       the CUDA test binaries in the bundle (device tests)
#   optimize   each corpus model at default and fused_gpu (in parallel, CPU only)
#   bandwidth  the bench_cuda_* binaries in the bundle; FusedElementwise on [64,1024,1024]
#              float32 vs a torch device-to-device copy (scripts/dev/gpu_fused_bandwidth.py)
#   models     each model: run --device cuda --compare-cpu at default and fused (float32 rtol 1e-3
#              atol 1e-4), profile original vs fused on cuda (per-node times from CUPTI's kernel
#              spans); then the first model profiled with CUDA events only (PASSLAB_CUDA_CUPTI=off)
#              and run on the stream pool instead of the planned block (PASSLAB_CUDA_ARENA=off)
#   anchor     scripts/dev/torch_anchor.py: PyTorch eager, then torch.compile, same models
#   results    $OUT/gpu-results.md (date, GPU, driver, tables)
#
# $OUT gets at most 8 files (what the GPU tool brings back): summary.txt (one line a step),
# steps.log (every step's output, appended as it runs, so it survives a kill), gpu-results.md,
# details.tar.gz (each step's own log and JSON), env.txt.
# Environment: GPU_CHECK_MODELS (space-separated model names without .onnx, instead of the
# default list), GPU_CHECK_SKIP (space-separated step names to skip), GPU_CHECK_WORK (unpack
# folder, default /tmp/passlab-gpu-check), PASSLAB_GPU_BUNDLE (the archive).
set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-/tmp/gpu-out}
BUDGET=${GPU_CHECK_BUDGET_S:-450}
WORK=${GPU_CHECK_WORK:-/tmp/passlab-gpu-check}
ARCHIVE=${PASSLAB_GPU_BUNDLE:-$ROOT/gpu-bundle/passlab-gpu.tar.xz}
SKIP=" ${GPU_CHECK_SKIP:-} "
START=$(date +%s)
rm -rf "$WORK/logs" "$WORK/models" "$WORK/run" # a rerun on the same machine starts clean
mkdir -p "$OUT" "$WORK/logs"
LOGS=$WORK/logs
SUMMARY=$OUT/summary.txt
STEPSLOG=$OUT/steps.log
: > "$SUMMARY"
: > "$STEPSLOG"
: > "$LOGS/steps.tsv"

elapsed() { echo $(($(date +%s) - START)); }
remaining() { echo $((BUDGET - $(elapsed))); }

# record NAME STATUS SECONDS NOTE: one summary line (stdout, summary.txt, steps.tsv)
record() {
  local line
  line=$(printf '%-44s %-8s %6ss  %s' "$1" "$2" "$3" "$4")
  echo "$line"
  echo "$line" >> "$SUMMARY"
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >> "$LOGS/steps.tsv"
}

# step_note LOG: what a summary line says of a step: for passlab-cli --json output its verdict,
# else the log's last line that is not JSON punctuation.
step_note() {
  local log=$1 within fb med speed
  within=$(grep -o '"all_within": [a-z]*' "$log" | head -1 | awk '{print $2}')
  if [[ -n $within ]]; then
    fb=$(grep -o '"fallback_steps": [0-9]*' "$log" | head -1 | awk '{print $2}')
    med=$(grep -o '"median": [0-9.e+-]*' "$log" | head -1 | awk '{print $2}')
    echo "GPU vs CPU within tolerance: $within; CPU fallback steps: ${fb:-?}; median ${med:-?} ms"
    return
  fi
  speed=$(grep -o '^  "speedup": [0-9.e+-]*' "$log" | tail -1 | awk '{print $2}')
  if [[ -n $speed ]]; then
    echo "fused vs original on the GPU: speedup $speed"
    return
  fi
  grep -v -E '^[[:space:]]*$|^[][{},[:space:]]*$' "$log" | tail -1 | cut -c1-150
}

# step NAME TIMEOUT CMD...: runs CMD under min(TIMEOUT, the budget left), its output in
# $LOGS/NAME.log and appended to steps.log; never fails the script. Returns CMD's status.
step() {
  local name=$1 limit=$2
  shift 2
  local left
  left=$(($(remaining) - 3))
  if [[ $SKIP == *" ${name%%:*} "* ]]; then
    record "$name" skipped 0 "GPU_CHECK_SKIP"
    return 99
  fi
  if ((left < 5)); then
    record "$name" skipped 0 "time budget spent (GPU_CHECK_BUDGET_S=$BUDGET)"
    return 98
  fi
  ((limit > left)) && limit=$left
  local log=$LOGS/${name//[^A-Za-z0-9_.-]/_}.log
  local t0=$SECONDS
  timeout -k 5 "$limit" "$@" > "$log" 2>&1
  local rc=$?
  local secs=$((SECONDS - t0))
  local status=ok
  if ((rc == 124 || rc == 137)); then
    status=TIMEOUT
  elif ((rc != 0)); then
    status="FAIL($rc)"
  fi
  record "$name" "$status" "$secs" "$(step_note "$log")"
  {
    echo "=== $name: $status, ${secs}s (limit ${limit}s): $*"
    if (($(wc -c < "$log") > 200000)); then
      head -c 100000 "$log"
      echo "... [cut: $(wc -c < "$log") bytes; whole log in details.tar.gz]"
      tail -c 50000 "$log"
    else
      cat "$log"
    fi
    echo
  } >> "$STEPSLOG"
  return $rc
}

pack_details() {
  tar -C "$WORK" -czf "$WORK/details.tar.gz" logs 2>/dev/null &&
    cp -f "$WORK/details.tar.gz" "$OUT/details.tar.gz"
}
trap pack_details EXIT
# checkpoint: details.tar.gz and gpu-results.md as they stand, so a run killed at its limit
# still brings back what it had.
checkpoint() {
  pack_details
  "${PY:-python3}" "$ROOT/scripts/dev/gpu_results.py" "$WORK" --out "$OUT/gpu-results.md" \
    > /dev/null 2>&1 || true
}

# --- setup ----------------------------------------------------------------------------------
echo "gpu-check: $(date -u +%Y-%m-%dT%H:%M:%SZ), budget ${BUDGET}s, out $OUT"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(uname -a)"
  echo "repo: $(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
  nvidia-smi 2>&1 || echo "nvidia-smi: not available"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1
  command -v nvcc >/dev/null && nvcc --version | tail -2
} > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"
cp "$OUT/env.txt" "$LOGS/env.txt"

PY=${PYTHON:-python3}
B=$WORK/passlab-gpu
if [[ -f $ARCHIVE ]]; then
  rm -rf "$B"
  if command -v xz > /dev/null; then
    step setup:unpack 60 tar -C "$WORK" -xJf "$ARCHIVE"
  else # no xz: Python's lzma
    step setup:unpack 90 "$PY" -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
      "$ARCHIVE" "$WORK"
  fi
else
  record setup:unpack FAIL 0 "no bundle at $ARCHIVE (run scripts/dev/gpu_bundle.sh here, carry gpu-bundle)"
fi
CLI=$WORK/run/passlab-cli
export PASSLAB_CORPUS_DIR=$B/corpus
export PASSLAB_CACHE_DIR=$WORK/cache
CORPUS=$B/corpus

# Library folders: the bundle's, the CUDA toolkit's, then the torch wheel's nvidia/*/lib (cuDNN,
# cuBLAS) for what the toolkit lacks.
libdirs=("$B/lib")
for d in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib \
  /usr/local/cuda/extras/CUPTI/lib64; do
  [[ -d $d ]] && libdirs+=("$d")
done
wheel_libs=$($PY - <<'EOF' 2>/dev/null
import glob, os, site, sys
roots = set(site.getsitepackages() + [site.getusersitepackages()] + [p for p in sys.path if p.endswith("site-packages")])
dirs = sorted({d for r in roots for d in glob.glob(os.path.join(r, "nvidia", "*", "lib")) + glob.glob(os.path.join(r, "nvidia", "cu*", "lib"))})
print("\n".join(dirs))
EOF
)
while IFS= read -r d; do [[ -n $d ]] && libdirs+=("$d"); done <<< "$wheel_libs"
# Only PassLab's programs get this path (through the wrappers in $WORK/run): Python keeps its
# own, so torch loads its wheel's CUDA libraries, not the toolkit's.
PASSLAB_LD=$(IFS=:; echo "${libdirs[*]}")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$WORK/run"
for real in "$B"/bin/*; do
  [[ -f $real ]] || continue
  printf '#!/bin/sh\nLD_LIBRARY_PATH="%s" exec "%s" "$@"\n' "$PASSLAB_LD" "$real" \
    > "$WORK/run/$(basename "$real")"
  chmod +x "$WORK/run/$(basename "$real")"
done
CLI=$WORK/run/passlab-cli
{
  echo "LD_LIBRARY_PATH (PassLab's programs)=$PASSLAB_LD"
  if [[ -x $CLI ]]; then
    echo "ldd passlab-cli:"
    LD_LIBRARY_PATH=$PASSLAB_LD ldd "$B/bin/passlab-cli"
    # libraries the programs open at run time (cuBLASLt and NVRTC themselves:
    # core/exec/cuda/cublaslt_api.h, nvrtc_api.h; cuDNN's engines, NVRTC's builtins)
    for lib in libcublasLt.so.13 libnvrtc.so.13 libcudnn_graph.so.9 libcudnn_engines_precompiled.so.9 libnvrtc-builtins.so.13 libcupti.so.13; do
      found=$(for d in "${libdirs[@]}"; do ls "$d"/$lib* 2>/dev/null; done | head -1)
      echo "runtime-opened $lib: ${found:-NOT FOUND}"
    done
  fi
} > "$LOGS/libraries.log" 2>&1
if [[ -x $CLI ]]; then
  if grep -q 'not found' "$LOGS/libraries.log"; then
    record setup:libraries FAIL 0 "$(grep 'not found' "$LOGS/libraries.log" | awk '{print $1}' | tr '\n' ' ')"
  else
    record setup:libraries ok 0 "$(grep -cE 'libcu|libnvrtc' "$LOGS/libraries.log") CUDA libraries resolved"
  fi
  if grep -q 'NOT FOUND' "$LOGS/libraries.log"; then
    record setup:runtime-libraries FAIL 0 "$(grep 'NOT FOUND' "$LOGS/libraries.log" | awk '{print $2}' | tr '\n' ' ')"
  fi
  grep -E 'libcu|libnvrtc|runtime-opened|LD_LIBRARY' "$LOGS/libraries.log"
  cat "$LOGS/libraries.log" >> "$STEPSLOG"
else
  record setup:libraries FAIL 0 "no passlab-cli in the bundle"
fi

has_flag() { # has_flag SUBCOMMAND FLAG
  [[ -x $CLI ]] && "$CLI" "$1" --help 2>/dev/null | grep -q -- "$2"
}

# --- devices --------------------------------------------------------------------------------
if [[ -x $CLI ]] && "$CLI" --help 2>/dev/null | grep -qE '^ +devices'; then
  step devices 30 "$CLI" devices
else
  record devices missing 0 "passlab-cli has no 'devices' subcommand"
fi

# --- conformance --device cuda (in the background: it overlaps the unit tests and optimizing,
# which time nothing; it is waited for before the first timed step) ---------------------------
conform_pid=
if [[ ! -d $CORPUS/onnx-node-tests ]]; then
  record conform missing 0 "no onnx-node-tests in the bundle"
elif has_flag conformance --device; then
  kf=()
  here=$ROOT/tests/conformance
  [[ -f $here/corpus.tolerances ]] && kf+=(--tolerances "$here/corpus.tolerances")
  [[ -f $here/corpus.known_failures ]] && kf+=(--known-failures "$here/corpus.known_failures")
  step conform 120 "$CLI" conformance --device cuda --suite corpus --timeout 20 --threads 1 \
    "${kf[@]}" "$CORPUS/onnx-node-tests" &
  conform_pid=$!
else
  record conform missing 0 "passlab-cli conformance has no --device flag"
fi

# --- unit: the CUDA test binaries (device tests) ---------------------------------------------
shopt -s nullglob
tests=("$WORK"/run/test_*)
if ((${#tests[@]} == 0)); then
  record unit missing 0 "no CUDA test binaries in the bundle"
fi
for t in "${tests[@]}"; do
  # test_cuda_runner also plans every corpus model's device memory on the host (~10 s here)
  limit=60
  [[ $(basename "$t") == test_cuda_runner ]] && limit=90
  step "unit:$(basename "$t")" $limit "$t" --gtest_brief=1
done

# --- models: the list, optimized (CPU work, overlapping conformance) -------------------------
# In order of importance (the budget may cut the tail): the goal's CNNs and GPT-2 first.
default_models="onnx_light_resnet50 ort_gpt2_megatron onnx_light_squeezenet ultraface_rfb_320
super_resolution ppocr_cls_mobile_v2 ort_gpt2_past onnx_light_inception_v1 onnx_light_vgg19
onnx_light_bvlc_alexnet onnx_light_zfnet512 onnx_light_densenet121 onnx_light_inception_v2
onnx_light_shufflenet ort_gpt2_past_mask_one_layer winml_squeezenet mnist8_cntk picodet_s_320"
# (ort_attention_distilbert is left out: it fails on the CPU too, tests/conformance/run_args.txt)
models=${GPU_CHECK_MODELS:-$default_models}
ARGS_FILE=$ROOT/tests/conformance/run_args.txt
# model_args NAME: the model's --dim/--input arguments from tests/conformance/run_args.txt
model_args() {
  local line rest
  line=$(grep -E "^$1( |$)" "$ARGS_FILE" 2>/dev/null | head -1)
  rest=${line#"$1"}
  rest=${rest# }
  [[ $rest == '!error'* ]] && rest=""
  echo "${rest//@/$ROOT/tests/conformance/inputs/$1}"
}
mkdir -p "$WORK/models"
run_ok=0
has_flag run --compare-cpu && has_flag run --device && run_ok=1
prof_ok=0
has_flag profile --device && prof_ok=1
((run_ok)) || record models:run missing 0 "passlab-cli run lacks --device or --compare-cpu"
anchor_models=()
present=()
for name in $models; do
  if [[ -f $CORPUS/models/$name.onnx ]]; then
    present+=("$name")
    anchor_models+=("$CORPUS/models/$name.onnx")
  else
    record "model:$name" missing 0 "not in the bundle"
  fi
done
# Optimizing is CPU work: all models at both levels in parallel, one step. default: standard
# ONNX only (as `optimize --level default`); fused: with the ai.passlab fused ops.
optimize_all() {
  local name level optlevel extra pids=()
  for name in "${present[@]}"; do
    # shellcheck disable=SC2207
    local margs=($(model_args "$name"))
    for level in default fused; do
      extra=()
      # The fused models use level fused_gpu: fused without the CPU's blocked layout, whose
      # reorders have no GPU kernels (docs/gpu.md).
      [[ $level == fused ]] && extra=(--allow-nonstandard)
      optlevel=$level
      [[ $level == fused ]] && "$CLI" passes 2>/dev/null | grep -q fused_gpu && optlevel=fused_gpu
      while (($(jobs -rp | wc -l) >= 12)); do wait -n; done
      (
        timeout -k 5 60 "$CLI" optimize "$CORPUS/models/$name.onnx" --level "$optlevel" "${extra[@]}" \
          "${margs[@]}" -o "$WORK/models/$name.$level.onnx" > "$LOGS/optimize_${name}_$level.log" 2>&1
        echo "$? $name $level" >> "$LOGS/optimize.rc"
      ) &
      pids+=($!)
    done
  done
  wait "${pids[@]}"
}
: > "$LOGS/optimize.rc"
t0=$SECONDS
if ((${#present[@]})) && ((run_ok || prof_ok)); then
  optimize_all
  failed=$(awk '$1 != 0 {printf "%s:%s(rc %s) ", $2, $3, $1}' "$LOGS/optimize.rc")
  record optimize "$([[ -z $failed ]] && echo ok || echo FAIL)" $((SECONDS - t0)) \
    "$(wc -l < "$LOGS/optimize.rc") optimized${failed:+; failed: $failed}"
  for f in "$LOGS"/optimize_*.log; do echo "=== $(basename "$f")"; tail -3 "$f"; done >> "$STEPSLOG"
fi
[[ -n $conform_pid ]] && wait "$conform_pid"

# --- bandwidth: FusedElementwise vs device-to-device copy -----------------------------------
for bench in "$WORK"/run/bench_*; do
  step "bench:$(basename "$bench")" 60 "$bench"
done
if has_flag profile --device; then
  step bandwidth 90 "$PY" "$ROOT/scripts/dev/gpu_fused_bandwidth.py" --cli "$CLI" \
    --work "$WORK/bandwidth" --json "$LOGS/bandwidth.json"
else
  record bandwidth missing 0 "passlab-cli profile has no --device flag"
fi

checkpoint

# --- models: GPU runs against the CPU, profiles ---------------------------------------------
for name in "${present[@]}"; do
  m=$CORPUS/models/$name.onnx
  # shellcheck disable=SC2207
  margs=($(model_args "$name"))
  if ((run_ok)); then
    # GPU against the CPU executor on the optimized models (the default level has the standard
    # ops, the fused level the ai.passlab ones); GPU_CHECK_RUN_ORIGINAL=1 adds the original.
    levels="default fused"
    [[ -n ${GPU_CHECK_RUN_ORIGINAL:-} ]] && levels="original default fused"
    for level in $levels; do
      f=$m
      [[ $level != original ]] && f=$WORK/models/$name.$level.onnx
      [[ -f $f ]] || continue
      step "run:$name:$level" 60 "$CLI" run "$f" --device cuda --compare-cpu --rtol 1e-3 \
        --atol 1e-4 --explain-fallback --json --repeat 10 --warmup 2 "${margs[@]}"
    done
  fi
  if ((prof_ok)) && [[ -f $WORK/models/$name.fused.onnx ]]; then
    step "profile:$name" 90 "$CLI" profile "$m" --compare "$WORK/models/$name.fused.onnx" \
      --device cuda --json --warmup 3 --repeat 10 --rounds 5 --top 0 "${margs[@]}"
  fi
done

# --- timing and memory: the first model's profile with CUDA events only (CUPTI's kernel spans
# are the default: compare its profile step), and a run on the stream pool instead of the
# planned block (core/exec/cuda/device_memory.h) against the CPU ----------------------------
if ((${#present[@]} > 0)); then
  first=${present[0]}
  # shellcheck disable=SC2207
  fargs=($(model_args "$first"))
  if ((prof_ok)); then
    step "profile-events:$first" 45 env PASSLAB_CUDA_CUPTI=off "$CLI" profile \
      "$CORPUS/models/$first.onnx" --device cuda --json --warmup 3 --repeat 10 --top 0 "${fargs[@]}"
  fi
  if ((run_ok)); then
    step "run-pool:$first" 45 env PASSLAB_CUDA_ARENA=off "$CLI" run "$CORPUS/models/$first.onnx" \
      --device cuda --compare-cpu --rtol 1e-3 --atol 1e-4 --json --repeat 10 --warmup 2 "${fargs[@]}"
  fi
fi

checkpoint

# --- anchor: PyTorch eager, then torch.compile ----------------------------------------------
wheel=$(ls "$B"/wheels/onnx2torch-*.whl 2>/dev/null | head -1)
if [[ -n $wheel ]] && ! $PY -c 'import onnx2torch' 2>/dev/null; then
  $PY -m pip install -q --no-index --no-deps --no-compile --target "$WORK/site" "$wheel" \
    > "$LOGS/pip.log" 2>&1 && export PYTHONPATH=$WORK/site${PYTHONPATH:+:$PYTHONPATH}
fi
if ! $PY -c 'import onnx2torch, torch' > "$LOGS/anchor_import.log" 2>&1; then
  record anchor missing 0 "python: $(tail -1 "$LOGS/anchor_import.log")"
elif ((${#anchor_models[@]})); then
  dims=()
  for m in "${anchor_models[@]}"; do
    for a in $(model_args "$(basename "$m" .onnx)"); do
      [[ $a == *=* && $a != *@* && $a != */* ]] && dims+=("$a")
    done
  done
  dimargs=()
  for d in $(printf '%s\n' "${dims[@]}" | sort -u); do dimargs+=(--dim "$d"); done
  left=$(($(remaining) - 20))
  eager_budget=$((left / 3))
  ((eager_budget > 90)) && eager_budget=90
  step anchor:eager $((eager_budget + 30)) "$PY" "$ROOT/scripts/dev/torch_anchor.py" \
    "${anchor_models[@]}" --device cuda --in-process --no-compile --check-ort --runs 20 \
    --warmup 5 --timeout 60 --budget "$eager_budget" "${dimargs[@]}" \
    --shapes-from-logs "$LOGS" --json "$LOGS/anchor_eager.json"
  checkpoint
  left=$(($(remaining) - 15))
  step anchor:compile $((left + 10)) "$PY" "$ROOT/scripts/dev/torch_anchor.py" \
    "${anchor_models[@]}" --device cuda --compile-only --runs 20 --warmup 5 --timeout 120 \
    --budget "$left" "${dimargs[@]}" --shapes-from-logs "$LOGS" --json "$LOGS/anchor_compile.json"
fi

# --- results --------------------------------------------------------------------------------
BUDGET=$((BUDGET + 30))
step results 30 "$PY" "$ROOT/scripts/dev/gpu_results.py" "$WORK" \
  --out "$OUT/gpu-results.md"
pack_details
echo
[[ -f $OUT/gpu-results.md ]] && cat "$OUT/gpu-results.md"
echo "gpu-check: done in $(elapsed)s; $OUT: $(ls "$OUT" | tr '\n' ' ')"
exit 0
