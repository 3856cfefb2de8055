#!/usr/bin/env bash
# Runs one ONNX operator conformance suite against its known-failures list.
# Usage: run_conformance.sh CLI SUITE DEFAULT_DIR LIST_DIR [FILTER | --OPTION]...
#   FILTER: only the tests whose name contains one of them (a subset)
#   --OPTION: passed to `conformance` as it is (--reference)
#   SUITE corpus: ${PASSLAB_CORPUS_DIR:-DEFAULT_DIR}/onnx-node-tests
#   SUITE debian: ${PASSLAB_ONNX_TESTDATA_DIR:-DEFAULT_DIR}/node
#   SUITE debian-pytorch-converted, debian-pytorch-operator, debian-simple: the
#     small models of the same package (PyTorch 0.3 exports at opsets 6-9, and
#     hand-made ones), in ${PASSLAB_ONNX_TESTDATA_DIR:-DEFAULT_DIR}/<name>
# Exit 0: no failure outside the list; 1: regressions; 77: suite absent (skipped).
set -u
cli=$1 suite=$2 default=$3 lists=$4
shift 4
case $suite in
  corpus) root=${PASSLAB_CORPUS_DIR:-$default}; dir=$root/onnx-node-tests
          setting=PASSLAB_CORPUS_DIR ;;
  debian) root=${PASSLAB_ONNX_TESTDATA_DIR:-$default}; dir=$root/node
          setting=PASSLAB_ONNX_TESTDATA_DIR ;;
  debian-pytorch-converted|debian-pytorch-operator|debian-simple)
          root=${PASSLAB_ONNX_TESTDATA_DIR:-$default}; dir=$root/${suite#debian-}
          setting=PASSLAB_ONNX_TESTDATA_DIR ;;
  *) echo "unknown suite '$suite'"; exit 2 ;;
esac
if [ ! -d "$dir" ]; then
  echo "skipped: no conformance tests at '$dir' (set $setting)"
  exit 77
fi
args=(conformance "$dir" --suite "$suite" --quiet
      --known-failures "$lists/$suite.known_failures")
[ -f "$lists/$suite.tolerances" ] && args+=(--tolerances "$lists/$suite.tolerances")
for f in "$@"; do
  case $f in
    --*) args+=("$f") ;;  # an option of `conformance` (--reference)
    *) args+=(--filter "$f") ;;
  esac
done
exec "$cli" "${args[@]}"
