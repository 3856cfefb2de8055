#include "core/io/npy.h"

#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/io/atomic_file.h"

namespace passlab::io {

namespace {

struct NpyType {
  const char* descr;
  ir::DataType dtype;
};
constexpr NpyType kTypes[] = {
    {"f4", ir::DataType::kFloat},  {"f8", ir::DataType::kDouble}, {"f2", ir::DataType::kFloat16},
    {"i1", ir::DataType::kInt8},   {"i2", ir::DataType::kInt16},  {"i4", ir::DataType::kInt32},
    {"i8", ir::DataType::kInt64},  {"u1", ir::DataType::kUInt8},  {"u2", ir::DataType::kUInt16},
    {"u4", ir::DataType::kUInt32}, {"u8", ir::DataType::kUInt64}, {"b1", ir::DataType::kBool},
};

}  // namespace

Expected<ir::Tensor> readNpy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return ioError("cannot open '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return readNpyFromBytes(ss.str(), path);
}

Expected<ir::Tensor> readNpyFromBytes(std::string_view data, const std::string& path) {
  auto bad = [&](const std::string& why) {
    return parseError("'" + path + "' is not a .npy file I can read: " + why);
  };
  if (data.size() < 10 || data.compare(0, 6, "\x93NUMPY") != 0) return bad("no NUMPY magic");
  int major = static_cast<unsigned char>(data[6]);
  size_t headerLen, offset;
  if (major == 1) {
    headerLen = static_cast<unsigned char>(data[8]) |
                (static_cast<size_t>(static_cast<unsigned char>(data[9])) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (data.size() < 12) return bad("truncated header");
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= static_cast<size_t>(static_cast<unsigned char>(data[8 + i])) << (8 * i);
    offset = 12;
  } else {
    return bad("format version " + std::to_string(major));
  }
  if (offset + headerLen > data.size()) return bad("truncated header");
  std::string header(data.substr(offset, headerLen));
  std::smatch m;
  if (!std::regex_search(header, m, std::regex("'descr'\\s*:\\s*'([<>|=])([a-z][0-9]+)'")))
    return bad("no descr");
  if (m[1] == ">") return unsupported("'" + path + "': big-endian data");
  std::string descr = m[2];
  ir::DataType dtype = ir::DataType::kUndefined;
  for (const NpyType& t : kTypes)
    if (descr == t.descr) dtype = t.dtype;
  if (dtype == ir::DataType::kUndefined)
    return unsupported("'" + path + "': element type " + descr);
  if (std::regex_search(header, std::regex("'fortran_order'\\s*:\\s*True")))
    return unsupported("'" + path + "': Fortran-ordered data");
  if (!std::regex_search(header, m, std::regex("'shape'\\s*:\\s*\\(([^)]*)\\)")))
    return bad("no shape");
  std::vector<int64_t> dims;
  std::string shape = m[1];
  std::regex num("[0-9]+");
  for (auto it = std::sregex_iterator(shape.begin(), shape.end(), num);
       it != std::sregex_iterator(); ++it)
    dims.push_back(std::stoll(it->str()));
  auto count = ir::checkedProduct(dims);
  if (!count) return bad("shape too large");
  uint64_t bytes = ir::dtypeStorageBytes(dtype, static_cast<uint64_t>(*count));
  size_t start = offset + headerLen;
  if (data.size() - start < bytes)
    return bad("holds " + std::to_string(data.size() - start) + " data bytes, the shape needs " +
               std::to_string(bytes));
  std::vector<std::byte> payload(bytes);
  if (bytes) std::memcpy(payload.data(), data.data() + start, bytes);
  return ir::Tensor(dtype, dims, ir::makeHeapBuffer(std::move(payload)));
}

Status writeNpy(const std::string& path, const ir::Tensor& tensor) {
  const char* descr = nullptr;
  for (const NpyType& t : kTypes)
    if (t.dtype == tensor.dtype()) descr = t.descr;
  if (!descr)
    return unsupported("cannot write " + std::string(ir::dtypeName(tensor.dtype())) + " to .npy");
  std::string shape;
  for (int64_t d : tensor.dims()) shape += std::to_string(d) + ", ";
  if (tensor.dims().size() > 1) shape.resize(shape.size() - 2);
  std::string header = std::string("{'descr': '") + (descr[0] == 'b' ? "|" : "<") + descr +
                       "', 'fortran_order': False, 'shape': (" + shape + "), }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(1);
  out += static_cast<char>(0);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  auto b = tensor.bytes();
  out.append(reinterpret_cast<const char*>(b.data()), b.size());
  // Through a temporary file renamed over `path`: a failure leaves the old
  // file (or none), and a file linked to the old one keeps its bytes.
  AtomicFile f(path);
  PASSLAB_RETURN_IF_ERROR(f.open());
  PASSLAB_RETURN_IF_ERROR(f.write(out));
  return f.commit();
}

}  // namespace passlab::io
