#include "core/exec/cpu/batch_norm_fold.h"

#include <cmath>

#include "core/exec/kernel.h"

namespace passlab::exec::cpu {

double floatAt(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case ir::DataType::kFloat:
      return t.data<float>()[i];
    case ir::DataType::kDouble:
      return t.data<double>()[i];
    case ir::DataType::kFloat16:
      return load(t.data<Half>()[i]);
    case ir::DataType::kBFloat16:
      return load(t.data<BFloat16>()[i]);
    default:
      return 0;
  }
}

void foldBatchNorm(const Tensor& scale, const Tensor& bias, const Tensor& mean, const Tensor& var,
                   double epsilon, std::vector<float>& a, std::vector<float>& b) {
  const int64_t P = scale.numel();
  a.assign(static_cast<size_t>(P), 0.0f);
  b.assign(static_cast<size_t>(P), 0.0f);
  for (int64_t p = 0; p < P; ++p) {
    const double s = floatAt(scale, p) / std::sqrt(floatAt(var, p) + epsilon);
    a[static_cast<size_t>(p)] = static_cast<float>(s);
    b[static_cast<size_t>(p)] = static_cast<float>(floatAt(bias, p) - floatAt(mean, p) * s);
  }
}

}  // namespace passlab::exec::cpu
