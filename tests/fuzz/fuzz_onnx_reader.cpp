// Fuzz target: ONNX model bytes -> io::loadModelFromBytes, then the next cheap
// stages on what loads: the verifier, shape inference and the writer. Every
// problem must come back as an error, never as a crash, hang or huge
// allocation (docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/analysis/shape_inference.h"
#include "core/io/model_io.h"
#include "core/ir/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // No base folder: external data is refused, the fuzzer cannot reach files.
  auto loaded = passlab::io::loadModelFromBytes(bytes, "", "fuzz input");
  if (!loaded) return 0;
  passlab::ir::Model& model = loaded->model;
  (void)passlab::ir::verifyModel(model);
  (void)passlab::analysis::inferShapes(model);
  (void)passlab::io::serializeModel(model);
  return 0;
}
