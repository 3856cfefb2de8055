#!/usr/bin/env bash
# A model with an attribute no kernel can honour (a Conv dilation, stride or
# pad of 2^31, a Transpose perm that is not a permutation) is reported by
# `info` and refused by `run` and `optimize --check 1`, by node and attribute,
# with a non-zero exit, nothing written, and within seconds (no crash, no hang).
# Usage: impossible_attributes.sh CLI TEXT_TO_ONNX
set -u
cli=$1
text_to_onnx=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# check NAME ATTRIBUTE MODEL_TEXT
check() {
  local name=$1 attr=$2
  printf '%s\n' "$3" > "$dir/$name.txt"
  "$text_to_onnx" "$dir/$name.txt" "$dir/$name.onnx" || fail "$name: cannot write the model"
  timeout 20 "$cli" info "$dir/$name.onnx" > "$dir/$name.info" 2>&1
  grep -q "verifier error:.*'$attr'" "$dir/$name.info" ||
    { cat "$dir/$name.info"; fail "$name: info does not report '$attr'"; }
  timeout 20 "$cli" run "$dir/$name.onnx" > "$dir/$name.run" 2>&1
  rc=$?
  [ $rc -ne 0 ] && [ $rc -lt 124 ] || { cat "$dir/$name.run"; fail "$name: run exited $rc"; }
  grep -q "error:.*'$attr'" "$dir/$name.run" || { cat "$dir/$name.run"; fail "$name: run message"; }
  timeout 20 "$cli" optimize "$dir/$name.onnx" -o "$dir/$name.out.onnx" --check 1 \
    > "$dir/$name.opt" 2>&1
  rc=$?
  [ $rc -ne 0 ] && [ $rc -lt 124 ] || { cat "$dir/$name.opt"; fail "$name: optimize exited $rc"; }
  grep -q "error:.*'$attr'" "$dir/$name.opt" || { cat "$dir/$name.opt"; fail "$name: optimize message"; }
  [ ! -e "$dir/$name.out.onnx" ] || fail "$name: optimize wrote a file"
}

conv() {
  printf '<ir_version: 8, opset_import: ["" : 17]>
main (float[1,1,8,8] x) => (float[1,1,8,8] y) {
  y = Conv <%s> (x, w)
}' "$1" | sed 's/(float\[1,1,8,8\] x)/(float[1,1,8,8] x, float[1,1,1,1] w)/'
}

check dilation dilations "$(conv 'dilations = [2147483648, 1]')"
check stride strides "$(conv 'strides = [2147483648, 1]')"
check pad pads "$(conv 'pads = [2147483648, 0, 0, 0]')"
check perm perm '<ir_version: 8, opset_import: ["" : 17]>
main (float[2,3] x) => (float[3,2] y) { y = Transpose <perm = [1, 1]> (x) }'
echo "impossible attributes: ok"
