#!/usr/bin/env bash
# Checks the dependency rule of DESIGN.md by grep:
#   core includes no Qt; only core/io includes protobuf/onnx headers;
#   core modules include only the modules below them; ui includes no protobuf.
set -u
root=${1:-.}
cd "$root" || exit 2
fail=0
bad() { echo "layering: $*"; fail=1; }

# core: no Qt anywhere.
if grep -rnE '#include\s*<Q[A-Za-z]+' core; then bad "core includes Qt"; fi
# protobuf and onnx headers only in core/io (and tools that cross-check with libonnx).
grep -rnE '#include\s*[<"](google/protobuf|onnx/|onnx_wire)' core ui app --include=*.h --include=*.cpp \
  | grep -v '^core/io/' && bad "protobuf/onnx headers outside core/io"

# Allowed core dependencies, module -> modules it may include.
declare -A allowed=(
  [support]="support"
  [ir]="support ir"
  [io]="support ir io"
  [analysis]="support ir analysis"
  [exec]="support ir analysis exec"
  [rewrite]="support ir analysis rewrite"
  [passes]="support ir analysis rewrite passes"
  [pipeline]="support ir io analysis rewrite passes pipeline exec"
  [layout]="support ir analysis layout"
)
for mod in "${!allowed[@]}"; do
  [ -d "core/$mod" ] || continue
  while IFS= read -r line; do
    dep=$(echo "$line" | sed -E 's/.*#include\s*"core\/([a-z_]+)\/.*/\1/')
    ok=0
    for a in ${allowed[$mod]}; do [ "$dep" = "$a" ] && ok=1; done
    [ $ok = 1 ] || bad "core/$mod may not include core/$dep: $line"
  done < <(grep -rnE '#include\s*"core/' "core/$mod")
done
# ui never includes app; core never includes ui or app.
grep -rnE '#include\s*"(ui|app)/' core && bad "core includes ui/app"
grep -rnE '#include\s*"app/' ui 2>/dev/null && bad "ui includes app"
[ $fail = 0 ] && echo "layering: ok"
exit $fail
