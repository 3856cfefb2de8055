#!/usr/bin/env bash
# cuBLASLt and NVRTC are opened when the CUDA backend needs them
# (core/exec/cuda/cublaslt_api.h, nvrtc_api.h), never linked: no program
# lists them in DT_NEEDED, directly or through another library, and neither
# `--version` nor `devices` (no GPU here) opens them.
# Usage: cuda_libraries_not_linked.sh PASSLAB_CLI [OTHER_PROGRAM...]
set -u
cli=$1
fail=0
for prog in "$@"; do
  needed=$(readelf -d "$prog" | grep NEEDED) || { echo "FAIL: readelf -d $prog"; fail=1; continue; }
  [[ -n $needed ]] || { echo "FAIL: $prog lists no DT_NEEDED at all"; fail=1; continue; }
  if grep -E 'libcublasLt|libnvrtc' <<< "$needed"; then
    echo "FAIL: $prog links cuBLASLt or NVRTC"; fail=1
  fi
  if ldd "$prog" | grep -E 'libcublasLt|libnvrtc'; then
    echo "FAIL: ldd $prog lists cuBLASLt or NVRTC"; fail=1
  fi
done
for args in "--version" "devices"; do
  opened=$(LD_DEBUG=files "$cli" $args 2>&1 >/dev/null | grep -E 'file=[^ ]*(libcublasLt|libnvrtc)')
  if [[ -n $opened ]]; then
    echo "FAIL: passlab-cli $args opened:"; echo "$opened"; fail=1
  fi
done
[[ $fail == 0 ]] && echo "ok: cuBLASLt and NVRTC are neither linked nor opened at start"
exit $fail
