#include "ui/precision/precision_target.h"

#include <QCoreApplication>

#include "core/passes/registry.h"

namespace passlab::ui {

std::vector<PrecisionTarget> availableTargets() {
  std::vector<PrecisionTarget> out;
  for (PrecisionTarget t :
       {PrecisionTarget::kFloat16, PrecisionTarget::kBfloat16, PrecisionTarget::kInt8Dynamic,
        PrecisionTarget::kInt8Static, PrecisionTarget::kLowRank, PrecisionTarget::kPrune})
    if (passes::findPass(passIdOf(t)) != nullptr) out.push_back(t);
  return out;
}

std::string passIdOf(PrecisionTarget target) {
  switch (target) {
    case PrecisionTarget::kFloat16:
      return "convert_to_float16";
    case PrecisionTarget::kBfloat16:
      return "convert_to_bfloat16";
    case PrecisionTarget::kInt8Dynamic:
      return "quantize_dynamic";
    case PrecisionTarget::kInt8Static:
      return "quantize_static";
    case PrecisionTarget::kLowRank:
      return "factorize_low_rank";
    case PrecisionTarget::kPrune:
      return "prune_magnitude";
  }
  return {};
}

QString targetText(PrecisionTarget target) {
  switch (target) {
    case PrecisionTarget::kFloat16:
      return QCoreApplication::translate("PrecisionTarget", "FP16");
    case PrecisionTarget::kBfloat16:
      return QCoreApplication::translate("PrecisionTarget", "BF16");
    case PrecisionTarget::kInt8Dynamic:
      return QCoreApplication::translate("PrecisionTarget", "INT8 dynamic");
    case PrecisionTarget::kInt8Static:
      return QCoreApplication::translate("PrecisionTarget", "INT8 static (calibrated)");
    case PrecisionTarget::kLowRank:
      return QCoreApplication::translate("PrecisionTarget", "Low rank");
    case PrecisionTarget::kPrune:
      return QCoreApplication::translate("PrecisionTarget", "Magnitude pruning");
  }
  return {};
}

QString methodText(passes::CalibrationMethod method) {
  switch (method) {
    case passes::CalibrationMethod::kMinMax:
      return QCoreApplication::translate("PrecisionTarget", "MinMax");
    case passes::CalibrationMethod::kPercentile:
      return QCoreApplication::translate("PrecisionTarget", "Percentile");
    case passes::CalibrationMethod::kEntropy:
      return QCoreApplication::translate("PrecisionTarget", "Entropy");
  }
  return {};
}

std::string methodOption(passes::CalibrationMethod method) {
  switch (method) {
    case passes::CalibrationMethod::kMinMax:
      return "minmax";
    case passes::CalibrationMethod::kPercentile:
      return "percentile";
    case passes::CalibrationMethod::kEntropy:
      return "entropy";
  }
  return {};
}

pipeline::PassSpec specOf(const PrecisionChoice& choice) {
  pipeline::PassSpec spec{passIdOf(choice.target), {}, {}};
  if (choice.target == PrecisionTarget::kInt8Static) {
    spec.options.emplace_back("method", methodOption(choice.method));
    spec.options.emplace_back("per_channel", choice.perChannel ? "true" : "false");
  }
  return spec;
}

bool calibrates(PrecisionTarget target) {
  return target == PrecisionTarget::kInt8Static;
}

}  // namespace passlab::ui
