#include "ui/graphview/colors.h"

#include <QCoreApplication>

namespace passlab::ui {

QColor familyQColor(layout::OpFamily f) {
  return QColor(QRgb(layout::familyColor(f)));
}

QString familyDisplayName(layout::OpFamily f) {
  using F = layout::OpFamily;
  switch (f) {
    case F::kConvolution:
      return QCoreApplication::translate("OpFamily", "Convolution");
    case F::kLinear:
      return QCoreApplication::translate("OpFamily", "Linear (MatMul, Gemm)");
    case F::kActivation:
      return QCoreApplication::translate("OpFamily", "Activation");
    case F::kNormalization:
      return QCoreApplication::translate("OpFamily", "Normalization");
    case F::kPooling:
      return QCoreApplication::translate("OpFamily", "Pooling");
    case F::kElementwise:
      return QCoreApplication::translate("OpFamily", "Elementwise");
    case F::kReduction:
      return QCoreApplication::translate("OpFamily", "Reduction");
    case F::kShape:
      return QCoreApplication::translate("OpFamily", "Shape and layout");
    case F::kConstant:
      return QCoreApplication::translate("OpFamily", "Constant");
    case F::kControlFlow:
      return QCoreApplication::translate("OpFamily", "Control flow");
    case F::kRecurrent:
      return QCoreApplication::translate("OpFamily", "Recurrent");
    case F::kQuantization:
      return QCoreApplication::translate("OpFamily", "Quantization");
    case F::kAttention:
      return QCoreApplication::translate("OpFamily", "Attention and fused");
    case F::kOther:
      return QCoreApplication::translate("OpFamily", "Other");
  }
  return {};
}

QColor fillFor(const layout::LayoutNode& node) {
  switch (node.kind) {
    case layout::ItemKind::kOp:
      return familyQColor(node.family);
    case layout::ItemKind::kGroup:
      return QColor(0xee, 0xf3, 0xfb);
    case layout::ItemKind::kInput:
      return QColor(0xe2, 0xf0, 0xd9);
    case layout::ItemKind::kOutput:
      return QColor(0xfb, 0xe5, 0xd6);
  }
  return Qt::white;
}

}  // namespace passlab::ui
