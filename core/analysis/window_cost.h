// The executor's rough cost, per output element, of the ops a sliding-window
// rewrite trades against each other (merge_linear_convolutions): a Conv in
// which each output channel reads one input channel (depthwise, or one
// channel), a Pad, and elementwise ops. Unlike cost_model.h (FLOPs and bytes
// of whole tensors, static shapes needed) it needs no shapes: both forms of a
// rewrite produce the same output, so comparing per output element is enough.
//
//   time per output element = MACs * nsPerMac + window bytes * nsPerWindowByte
//                             + elementwise bytes * nsPerElementwiseByte
//
// Each node reads its inputs and writes its output once (4 bytes a float
// element): a Conv or Pad moves 8 bytes, a binary elementwise op 12, a unary
// or scalar one 8. Window ops (oneDNN's Conv, the reference Pad's index
// arithmetic) move bytes about three times slower than the vectorized
// elementwise loops. The rates were measured with `passlab-cli profile
// --threads 1` on the cv-graphs models at 1x3x256x256 (Xeon, 2 cores;
// docs/algorithm-redundancy.md): Conv 3x3 / 5x5 / 7x7 / 13x13 with one
// channel took 2.45 / 5.6 / 10.1 / 34.2 ns per output element (a fit of
// 0.6 ns + 0.2 ns per MAC), a 3-tap / 7-tap depthwise 1-D Conv 1.0 / 1.5 ns,
// a reflect Pad 0.43 ns, Sub / Add 0.2-0.3 ns, Mul by a scalar 0.15 ns.
// Fixed costs per node (a few microseconds) are left out: they matter only
// for small images.
#pragma once

#include <cstdint>

namespace passlab::analysis {

struct WindowCostRates {
  double nsPerMac = 0.2;
  double nsPerWindowByte = 0.07;
  double nsPerElementwiseByte = 0.02;
};

struct WindowCost {
  double macs = 0;
  double windowBytes = 0;
  double elementwiseBytes = 0;

  void addConv(int64_t kernelElements);  // per output channel
  void addPad();
  void addBinary();  // Add, Sub, Mul of two tensors
  void addUnary();   // Neg, Mul or Div by a scalar
  double ns(const WindowCostRates& rates = {}) const;
};

}  // namespace passlab::analysis
