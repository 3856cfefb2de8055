#!/usr/bin/env bash
# Make gpu-bundle/ (ignored by git): everything scripts/gpu-check.sh needs on a bare GPU machine
# that has the CUDA toolkit, cmake, ninja and Python with PyTorch, but none of PassLab's Debian
# packages and no network.
#
#   scripts/dev/gpu_bundle.sh [BUILD_DIR]        (default: build)
#
# gpu-bundle/passlab-gpu.tar.xz holds:
#   bin/passlab-cli            stripped copy
#   bin/test_*cuda*, bin/bench_cuda_*   the CUDA test and bench binaries, if built (stripped)
#   lib/                       every shared library those need except glibc's (libc, libm, libdl,
#                              libpthread, librt, ld-linux) and CUDA's (cudart, cuBLAS(Lt), cuDNN,
#                              NVRTC, CUPTI, nvJitLink, the driver): the GPU machine has those
#   corpus/                    the corpus models, light-outputs, cv-graphs and onnx-node-tests
#   wheels/                    onnx2torch (pure Python; torch, torchvision, onnx are there)
#   MANIFEST.txt               commit, build dir, date, file list
# The archive must stay well under 60 MiB (the GPU run carries at most 64 MiB); its size is
# printed, and the script fails above PASSLAB_BUNDLE_LIMIT_MIB (default 60).
# Environment: PASSLAB_CORPUS_DIR (default: ../shared/corpus beside the repo, else
# /work/shared/corpus), ONNX2TORCH_WHEEL (a wheel file to use instead of `pip download`),
# PASSLAB_BUNDLE_NO_NODE_TESTS=1 (leave the node tests out), PASSLAB_BUNDLE_XZ_OPT (xz options).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
LIMIT_MIB=${PASSLAB_BUNDLE_LIMIT_MIB:-60}
OUTDIR=$ROOT/gpu-bundle
ARCHIVE=$OUTDIR/passlab-gpu.tar.xz

corpus=${PASSLAB_CORPUS_DIR:-}
if [[ -z $corpus ]]; then
  for c in "$ROOT/../shared/corpus" "$ROOT/shared/corpus" /work/shared/corpus; do
    if [[ -d $c/models ]]; then corpus=$c; break; fi
  done
fi
[[ -n $corpus && -d $corpus/models ]] || { echo "gpu_bundle: no corpus (set PASSLAB_CORPUS_DIR)" >&2; exit 1; }

cli=$BUILD/app/cli/passlab-cli
[[ -x $cli ]] || { echo "gpu_bundle: $cli not built (ninja -C $BUILD passlab-cli)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/passlab-gpu
mkdir -p "$stage"/{bin,lib,corpus,wheels}

# --- binaries -------------------------------------------------------------------------------
binaries=("$cli")
while IFS= read -r f; do binaries+=("$f"); done < <(
  find "$BUILD/tests" "$BUILD/bench" -path '*/CMakeFiles' -prune -o -type f -executable \
    \( -name 'test_*cuda*' -o -name 'bench_cuda_*' -o -name 'bench_*cuda*' \) -print 2>/dev/null | sort -u)
for b in "${binaries[@]}"; do
  strip --strip-unneeded -o "$stage/bin/$(basename "$b")" "$b"
  echo "bin: $(basename "$b") ($(du -h "$stage/bin/$(basename "$b")" | cut -f1) stripped)"
done

# --- shared libraries -----------------------------------------------------------------------
# Left out: glibc's own and CUDA's (those must come from the GPU machine's driver and toolkit).
skip_re='^(linux-vdso|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|ld-linux|libcuda\.so|libcudart|libcublas|libcudnn|libnvrtc|libcupti|libnvJitLink|libnvjitlink|libcufft|libcurand|libcusparse|libcusolver|libnvToolsExt|libnvidia-|libnvperf)'
missing=0
declare -A seen=()
for b in "${binaries[@]}"; do
  while read -r name arrow path _; do
    [[ $arrow == "=>" ]] || continue
    [[ $name =~ $skip_re ]] && continue
    [[ -n ${seen[$name]:-} ]] && continue
    seen[$name]=1
    if [[ $path == "not" || ! -e $path ]]; then
      echo "gpu_bundle: $(basename "$b") needs $name, not found here" >&2
      missing=1
      continue
    fi
    cp -L "$path" "$stage/lib/$name"
  done < <(ldd "$b")
done
strip --strip-unneeded "$stage"/lib/* 2>/dev/null || true
echo "lib: $(ls "$stage/lib" | tr '\n' ' ')"
[[ $missing == 0 ]] || { echo "gpu_bundle: missing libraries (above)" >&2; exit 1; }

# --- corpus ---------------------------------------------------------------------------------
cp -r "$corpus/models" "$stage/corpus/"
for extra in light-outputs cv-graphs MANIFEST.tsv README.md; do
  if [[ -e $corpus/$extra ]]; then cp -r "$corpus/$extra" "$stage/corpus/"; fi
done
if [[ -z ${PASSLAB_BUNDLE_NO_NODE_TESTS:-} && -d $corpus/onnx-node-tests ]]; then
  cp -r "$corpus/onnx-node-tests" "$stage/corpus/"
fi
chmod -R u+w "$stage/corpus"

# --- onnx2torch wheel -----------------------------------------------------------------------
if [[ -n ${ONNX2TORCH_WHEEL:-} ]]; then
  cp "$ONNX2TORCH_WHEEL" "$stage/wheels/"
elif ! python3 -m pip download --quiet onnx2torch --no-deps -d "$stage/wheels" >/dev/null 2>&1; then
  cached=$(ls "$OUTDIR"/onnx2torch-*.whl 2>/dev/null | head -1 || true)
  if [[ -n $cached ]]; then
    cp "$cached" "$stage/wheels/"
  else
    echo "gpu_bundle: warning: could not download onnx2torch; the PyTorch anchor will be skipped" >&2
  fi
fi

# --- manifest and archive -------------------------------------------------------------------
{
  echo "made: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo ' (+ uncommitted changes)')"
  echo "build: $BUILD"
  echo "corpus: $corpus"
  echo "cuda libraries needed (from the GPU machine):"
  for b in "${binaries[@]}"; do ldd "$b" | awk '{print $1}'; done | grep -E "$skip_re" | grep -v -E '^(linux-vdso|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|ld-linux)' | sort -u | sed 's/^/  /'
  # Opened with dlopen when the CUDA backend first needs them (not in ldd's list).
  echo "  libcublasLt.so.13 (opened at run time)"
  echo "  libnvrtc.so.13 (opened at run time)"
  echo "  libcupti.so.13 (opened at run time by profiled runs)"
  echo "files:"
  (cd "$stage" && find bin lib wheels -type f | sort | sed 's/^/  /')
  echo "  corpus/: $(find "$stage/corpus" -type f | wc -l) files"
} > "$stage/MANIFEST.txt"

mkdir -p "$OUTDIR"
rm -f "$ARCHIVE"
# A dictionary larger than the binaries together: the CLI and the test binaries share most of
# their code (static core), which xz then stores once (bins 28 -> 10 MB). Needs about 2 GB of
# memory here, 192 MiB to unpack.
XZ_OPT=${PASSLAB_BUNDLE_XZ_OPT:---lzma2=preset=6,dict=192MiB -T1} \
  tar -C "$work" --sort=name -cJf "$ARCHIVE" passlab-gpu
cp "$stage/MANIFEST.txt" "$OUTDIR/MANIFEST.txt"
for w in "$stage"/wheels/*.whl; do
  if [[ -e $w ]]; then cp "$w" "$OUTDIR/"; fi
done

bytes=$(stat -c %s "$ARCHIVE")
mib=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
total=$(du -sb "$OUTDIR" | cut -f1)
echo "gpu-bundle: $ARCHIVE $mib MiB (folder $(awk -v b="$total" 'BEGIN { printf "%.1f", b / 1048576 }') MiB)"
if awk -v b="$total" -v l="$LIMIT_MIB" 'BEGIN { exit !(b > l * 1048576) }'; then
  echo "gpu_bundle: over ${LIMIT_MIB} MiB; set PASSLAB_BUNDLE_NO_NODE_TESTS=1 or leave models out" >&2
  exit 1
fi
