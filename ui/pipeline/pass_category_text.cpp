#include "ui/pipeline/pass_category_text.h"

namespace passlab::ui {

QString PassCategoryText::title(passes::Category c) {
  switch (c) {
    case passes::Category::kStructural:
      return tr("Structural");
    case passes::Category::kAlgorithm:
      return tr("Algorithm");
    case passes::Category::kReadWrite:
      return tr("Read/write");
    case passes::Category::kPrecision:
      return tr("Precision");
  }
  return {};
}

QString PassCategoryText::help(passes::Category c) {
  switch (c) {
    case passes::Category::kStructural:
      return tr(
          "Structural redundancy: nodes that compute nothing new or could compute less "
          "(constant folding, dead, meaningless and inverse nodes, common "
          "subexpressions, fusion, substitution, hoisting)");
    case passes::Category::kAlgorithm:
      return tr(
          "Algorithm redundancy: ops that share one computation run as one kernel (a "
          "mean blur and a Laplacian are the same sliding window)");
    case passes::Category::kReadWrite:
      return tr(
          "Read/write redundancy: data moved more than needed (layouts reordered at "
          "every node, buffers not reused by lifetime)");
    case passes::Category::kPrecision:
      return tr(
          "Precision redundancy: more bits than the result needs (float16, bfloat16, "
          "int8, sparsity, low rank)");
  }
  return {};
}

QColor PassCategoryText::tint(passes::Category c) {
  switch (c) {
    case passes::Category::kStructural:
      return QColor(70, 130, 220, 40);
    case passes::Category::kAlgorithm:
      return QColor(60, 170, 90, 40);
    case passes::Category::kReadWrite:
      return QColor(230, 150, 40, 45);
    case passes::Category::kPrecision:
      return QColor(170, 90, 200, 40);
  }
  return {};
}

}  // namespace passlab::ui
