#include "ui/demos/demos.h"

#include <QCoreApplication>

namespace passlab::ui {

QList<DemoModel> demoModels() {
  return {
      {QStringLiteral(":/demos/elementwise.txt"),
       QCoreApplication::translate("Demos", "f(x1, x2) = ln(x1) + x1·x2 − sin(x2)"),
       QCoreApplication::translate("Demos",
                                   "Element-wise arithmetic on two inputs: the smallest graph "
                                   "with shared inputs and a fan-in.")},
      {QStringLiteral(":/demos/conv_relu.txt"), QCoreApplication::translate("Demos", "Conv + ReLU"),
       QCoreApplication::translate("Demos",
                                   "A convolution followed by ReLU: the classic fusion (a base "
                                   "kernel plus an epilogue).")},
      {QStringLiteral(":/demos/cnn_block.txt"),
       QCoreApplication::translate("Demos", "CNN block with BatchNorm and redundancies"),
       QCoreApplication::translate(
           "Demos",
           "Conv, BatchNormalization and ReLU with Identity, Transpose and Reshape pairs that "
           "cancel out and a constant subexpression to fold.")},
      {QStringLiteral(":/demos/transformer_block.txt"),
       QCoreApplication::translate("Demos", "Transformer block"),
       QCoreApplication::translate(
           "Demos",
           "Self-attention and an MLP with a layer norm written out as ReduceMean, Sub, Pow, "
           "Sqrt and Div, and GELU in its erf form.")},
  };
}

DemoModel defaultDemo() {
  return demoModels()[2];
}

}  // namespace passlab::ui
