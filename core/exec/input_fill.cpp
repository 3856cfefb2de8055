#include "core/exec/input_fill.h"

#include <random>

#include "core/exec/dtype_traits.h"
#include "core/exec/tensor.h"

namespace passlab::exec {

Expected<std::vector<int64_t>> concreteDims(const InputInfo& input, const FillOptions& options) {
  const ir::Type& type = input.type;
  if (!type.isTensor())
    return unsupported("input '" + input.name + "' is " + type.toString() +
                       "; only tensor inputs can be made up");
  if (!type.hasShape())
    return unsupported("input '" + input.name + "' has no declared shape; give it a file");
  std::vector<int64_t> dims;
  for (const ir::Dim& d : type.shape()->dims()) {
    if (d.isStatic()) {
      dims.push_back(d.value());
      continue;
    }
    auto it = d.isSymbolic() ? options.dims.find(d.param()) : options.dims.end();
    dims.push_back(it != options.dims.end() ? it->second : options.defaultDim);
  }
  return dims;
}

Expected<ir::Tensor> makeInput(const InputInfo& input, const FillOptions& options) {
  auto dims = concreteDims(input, options);
  if (!dims) return dims.error();
  ir::DataType dt = input.type.elemType();
  Tensor t = Tensor::zeros(dt, *dims);
  if (options.fill == Fill::kZeros || t.numel() == 0) return t.toIr(input.name);
  // One stream per input name, so adding an input does not change the others.
  std::seed_seq seq{options.seed, static_cast<uint64_t>(std::hash<std::string>()(input.name))};
  std::mt19937_64 rng(seq);
  const int64_t n = t.numel();
  Status st =
      dispatch<types::kNumeric | types::kBool | types::kString>(dt, [&](auto tag) -> Status {
        using S = typename decltype(tag)::type;
        S* out = t.mutableData<S>();
        for (int64_t i = 0; i < n; ++i) {
          if constexpr (std::is_same_v<S, std::string>) {
            out[i] = options.fill == Fill::kArange ? std::to_string(i) : "";
          } else if constexpr (std::is_same_v<S, bool>) {
            out[i] = options.fill == Fill::kArange ? (i % 2 == 1) : (rng() & 1u) != 0;
          } else if constexpr (std::is_floating_point_v<ComputeT<S>>) {
            double v = options.fill == Fill::kArange
                           ? static_cast<double>(i) / static_cast<double>(n)
                           : std::uniform_real_distribution<double>(-1.0, 1.0)(rng);
            out[i] = store<S>(static_cast<ComputeT<S>>(v));
          } else {
            out[i] =
                static_cast<S>(options.fill == Fill::kArange ? i : static_cast<int64_t>(rng() % 4));
          }
        }
        return Status::ok();
      });
  if (!st) return st.error().withContext("input '" + input.name + "'");
  return t.toIr(input.name);
}

}  // namespace passlab::exec
