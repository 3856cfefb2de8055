// Fuzz target: text-format model -> io::parseModelText, then the verifier,
// shape inference and the printer on what parses (docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/analysis/shape_inference.h"
#include "core/io/text_format.h"
#include "core/ir/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto model = passlab::io::parseModelText(text);
  if (!model) return 0;
  (void)passlab::ir::verifyModel(*model);
  (void)passlab::analysis::inferShapes(*model);
  (void)passlab::io::printModelText(*model);
  return 0;
}
