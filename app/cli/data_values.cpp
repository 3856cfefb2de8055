#include "app/cli/data_values.h"

#include <cmath>
#include <cstdio>

#include "core/exec/dtype_traits.h"
#include "core/exec/minifloat.h"

namespace passlab::cli {

exec::Value toExecValue(const io::DataValue& v) {
  switch (v.kind) {
    case io::DataValue::Kind::kTensor:
      return exec::Value(exec::Tensor::fromIr(v.tensor));
    case io::DataValue::Kind::kSequence: {
      exec::Sequence s;
      for (const io::DataValue& item : v.items) s.items.push_back(toExecValue(item));
      if (!v.items.empty() && v.items[0].kind == io::DataValue::Kind::kTensor)
        s.elemType = ir::Type::tensor(v.items[0].tensor.dtype());
      return exec::Value::sequence(std::move(s));
    }
    case io::DataValue::Kind::kMap: {
      exec::Tensor keys = exec::Tensor::fromIr(v.mapKeys);
      std::vector<double> values;
      ir::DataType dt = ir::DataType::kFloat;
      exec::Tensor vals = exec::Tensor::zeros(dt, {static_cast<int64_t>(v.items.size())});
      for (size_t i = 0; i < v.items.size(); ++i)
        vals.mutableData<float>()[i] = v.items[i].tensor.numel() > 0
                                           ? static_cast<float>(v.items[i].tensor.valueAsDouble(0))
                                           : 0;
      return exec::Value::map(exec::Map{keys, vals});
    }
    case io::DataValue::Kind::kOptional:
      if (v.items.empty()) return exec::Value::none();
      return toExecValue(v.items[0]);
  }
  return exec::Value();
}

namespace {

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// The 8-, 4- and 2-bit types (float8*, float4e2m1, int4, uint4, int2, uint2)
// stored as ONNX packs them: one per byte, or low bits first.
bool isSubByteOrMiniFloat(ir::DataType t) {
  switch (t) {
    case ir::DataType::kFloat8E4M3FN:
    case ir::DataType::kFloat8E4M3FNUZ:
    case ir::DataType::kFloat8E5M2:
    case ir::DataType::kFloat8E5M2FNUZ:
    case ir::DataType::kFloat8E8M0:
    case ir::DataType::kFloat4E2M1:
    case ir::DataType::kInt4:
    case ir::DataType::kUInt4:
    case ir::DataType::kInt2:
    case ir::DataType::kUInt2:
      return true;
    default:
      return false;
  }
}

bool isLowPrecisionFloat(ir::DataType t) {
  return isSubByteOrMiniFloat(t) && t != ir::DataType::kInt4 && t != ir::DataType::kUInt4 &&
         t != ir::DataType::kInt2 && t != ir::DataType::kUInt2;
}

double lowPrecisionAsDouble(const exec::Tensor& t, int64_t i) {
  const auto* b = static_cast<const uint8_t*>(t.raw());
  auto packed = [&](int width, bool isSigned) {
    const int perByte = 8 / width;
    const int mask = (1 << width) - 1;
    int v = (b[i / perByte] >> (width * static_cast<int>(i % perByte))) & mask;
    if (isSigned && (v & (1 << (width - 1)))) v -= 1 << width;
    return static_cast<double>(v);
  };
  switch (t.dtype()) {
    case ir::DataType::kFloat8E4M3FN:
      return exec::miniFloatToFloat(b[i], exec::kE4M3FN);
    case ir::DataType::kFloat8E4M3FNUZ:
      return exec::miniFloatToFloat(b[i], exec::kE4M3FNUZ);
    case ir::DataType::kFloat8E5M2:
      return exec::miniFloatToFloat(b[i], exec::kE5M2);
    case ir::DataType::kFloat8E5M2FNUZ:
      return exec::miniFloatToFloat(b[i], exec::kE5M2FNUZ);
    case ir::DataType::kFloat8E8M0:
      return exec::e8m0ToFloat(b[i]);
    case ir::DataType::kFloat4E2M1:
      return exec::miniFloatToFloat(static_cast<uint8_t>((b[i / 2] >> (4 * (i % 2))) & 0xF),
                                    exec::kE2M1);
    case ir::DataType::kInt4:
      return packed(4, true);
    case ir::DataType::kUInt4:
      return packed(4, false);
    case ir::DataType::kInt2:
      return packed(2, true);
    case ir::DataType::kUInt2:
      return packed(2, false);
    default:
      return 0;
  }
}

double elementAsDouble(const exec::Tensor& t, int64_t i) {
  if (isSubByteOrMiniFloat(t.dtype())) return lowPrecisionAsDouble(t, i);
  double out = 0;
  (void)exec::dispatch<exec::types::kNumeric | exec::types::kBool>(
      t.dtype(), [&](auto tag) -> Status {
        using S = typename decltype(tag)::type;
        out = static_cast<double>(exec::load(t.data<S>()[i]));
        return Status::ok();
      });
  return out;
}

std::optional<std::string> compareTensors(const exec::Tensor& want, const exec::Tensor& got,
                                          const Tolerance& tol) {
  if (want.dtype() != got.dtype())
    return "element type " + std::string(ir::dtypeName(got.dtype())) + ", expected " +
           std::string(ir::dtypeName(want.dtype()));
  if (want.dims() != got.dims())
    return "shape " + exec::dimsToString(got.dims()) + ", expected " +
           exec::dimsToString(want.dims());
  const int64_t n = want.numel();
  if (want.isString()) {
    for (int64_t i = 0; i < n; ++i)
      if (want.data<std::string>()[i] != got.data<std::string>()[i])
        return "element " + std::to_string(i) + ": \"" + got.data<std::string>()[i] +
               "\", expected \"" + want.data<std::string>()[i] + "\"";
    return std::nullopt;
  }
  if (!exec::types::kNumeric.contains(want.dtype()) && want.dtype() != ir::DataType::kBool &&
      !isSubByteOrMiniFloat(want.dtype()))
    return "cannot compare element type " + std::string(ir::dtypeName(want.dtype()));
  const bool isFloat =
      exec::types::kFloats.contains(want.dtype()) || isLowPrecisionFloat(want.dtype());
  // bfloat16 is compared with at least two of its ULPs, as the ONNX runner does.
  const double rtol =
      want.dtype() == ir::DataType::kBFloat16 ? std::max(tol.rtol, 1.0 / 64) : tol.rtol;
  int64_t bad = 0, first = -1;
  double worst = 0;
  for (int64_t i = 0; i < n; ++i) {
    double w = elementAsDouble(want, i), g = elementAsDouble(got, i);
    bool ok;
    if (!isFloat) {
      ok = w == g;
    } else if (std::isnan(w) || std::isnan(g)) {
      ok = std::isnan(w) && std::isnan(g);
    } else if (std::isinf(w) || std::isinf(g)) {
      ok = w == g;
    } else {
      double err = std::fabs(g - w);
      ok = err <= tol.atol + rtol * std::fabs(w);
      if (!ok) worst = std::max(worst, err);
    }
    if (!ok) {
      if (first < 0) first = i;
      ++bad;
    }
  }
  if (bad == 0) return std::nullopt;
  std::string msg = std::to_string(bad) + " of " + std::to_string(n) +
                    " elements differ; element " + std::to_string(first) + ": " +
                    fmt(elementAsDouble(got, first)) + ", expected " +
                    fmt(elementAsDouble(want, first));
  if (isFloat && worst > 0) msg += " (worst absolute error " + fmt(worst) + ")";
  return msg;
}

}  // namespace

std::optional<std::string> compareValues(const exec::Value& want, const exec::Value& got,
                                         const Tolerance& tol) {
  if (want.kind() != got.kind()) return "got " + got.describe() + ", expected " + want.describe();
  switch (want.kind()) {
    case exec::Value::Kind::kNone:
      return std::nullopt;
    case exec::Value::Kind::kTensor:
      return compareTensors(want.tensor(), got.tensor(), tol);
    case exec::Value::Kind::kSequence: {
      const auto& w = want.sequence().items;
      const auto& g = got.sequence().items;
      if (w.size() != g.size())
        return "sequence of " + std::to_string(g.size()) + ", expected " + std::to_string(w.size());
      for (size_t i = 0; i < w.size(); ++i)
        if (auto d = compareValues(w[i], g[i], tol))
          return "sequence element " + std::to_string(i) + ": " + *d;
      return std::nullopt;
    }
    case exec::Value::Kind::kMap: {
      if (auto d = compareTensors(want.map().keys, got.map().keys, tol)) return "map keys: " + *d;
      if (auto d = compareTensors(want.map().values, got.map().values, tol))
        return "map values: " + *d;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace passlab::cli
