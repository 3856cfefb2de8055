// The executor's rough cost, per output element, of the ops a sliding-window
// rewrite trades against each other (merge_linear_convolutions): a Conv in
// which each output channel reads one input channel (depthwise, or one
// channel), a Pad, and elementwise ops. Unlike cost_model.h (FLOPs and bytes
// of whole tensors, static shapes needed) it needs no shapes: both forms of a
// rewrite produce the same output, so comparing per output element is enough.
//
//   time per output element = MACs * (nsPerMac or nsPerMacOneChannel)
//       + bytes moved by Convs * nsPerConvByte + by Pads * nsPerPadByte
//       + by elementwise ops * nsPerElementwiseByte
//
// Each node reads its input and writes its output once per output element (4
// bytes a float): a Conv or a Pad moves 8 bytes, a binary elementwise op 12, a
// unary or scalar one 8. The rates are fits to `passlab-cli profile --threads
// 1` (minimum of 40 runs) of one-node models at 256x256 outputs on the
// development machine (Xeon, 2 cores; docs/algorithm-redundancy.md has the
// table): a Conv costs about 0.6 ns per output element plus 0.135 ns per MAC
// when depthwise over 3 channels, 0.18 ns per MAC with one channel (oneDNN
// takes another path); a reflect Pad 0.43 ns; Sub / Add 0.3 ns, Mul by a
// scalar 0.15-0.2 ns. Fixed costs per node (about 15 us of dispatch and
// allocation each) are left out: they favour the form with fewer nodes a
// little more than the model says.
#pragma once

#include <cstdint>

namespace passlab::analysis {

struct WindowCostRates {
  double nsPerMac = 0.135;           // depthwise Conv, several channels
  double nsPerMacOneChannel = 0.18;  // a Conv of one channel
  double nsPerConvByte = 0.075;
  double nsPerPadByte = 0.055;
  double nsPerElementwiseByte = 0.025;
};

struct WindowCost {
  double macs = 0, oneChannelMacs = 0;
  double convBytes = 0, padBytes = 0, elementwiseBytes = 0;

  // A Conv whose output channels each read one input channel, with
  // `kernelElements` weights per channel; `channels` output channels.
  void addConv(int64_t kernelElements, int64_t channels);
  void addPad();
  void addBinary();  // Add, Sub, Mul of two tensors
  void addUnary();   // Neg, Mul or Div by a scalar
  double ns(const WindowCostRates& rates = {}) const;
};

}  // namespace passlab::analysis
