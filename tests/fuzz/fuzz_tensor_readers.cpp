// Fuzz target: the data files of `passlab-cli run --input` and `conformance`.
// The first byte chooses the reader: .npy, a lone TensorProto (.pb), or a
// data file read as a sequence, map or optional value; the rest is the file.
// What reads is touched byte by byte, so a tensor whose buffer is shorter than
// its shape says fails under ASan (docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/io/npy.h"
#include "core/io/tensor_file.h"

namespace {

using passlab::ir::DataType;
using passlab::ir::Tensor;
using passlab::ir::Type;

volatile uint8_t gSink;

void touch(const Tensor& t) {
  uint8_t x = 0;
  for (std::byte b : t.bytes()) x ^= static_cast<uint8_t>(b);
  gSink = x;
}

void touch(const passlab::io::DataValue& v) {
  touch(v.tensor);
  touch(v.mapKeys);
  for (const auto& item : v.items) touch(item);
}

Type dataType(uint8_t selector) {
  Type tensor = Type::tensor(DataType::kFloat);
  switch (selector % 4) {
    case 0:
      return Type::sequence(tensor);
    case 1:
      return Type::map(DataType::kInt64, tensor);
    case 2:
      return Type::optional(tensor);
    default:
      return Type::sequence(Type::sequence(tensor));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  uint8_t selector = data[0];
  std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (selector % 3) {
    case 0:
      if (auto t = passlab::io::readNpyFromBytes(bytes, "fuzz.npy")) touch(*t);
      break;
    case 1:
      if (auto t = passlab::io::readTensorFromBytes(bytes, "fuzz.pb")) touch(*t);
      break;
    default:
      if (auto v = passlab::io::readDataFromBytes(bytes, dataType(selector / 3), "fuzz.pb"))
        touch(*v);
      break;
  }
  return 0;
}
