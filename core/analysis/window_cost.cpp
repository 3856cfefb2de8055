#include "core/analysis/window_cost.h"

namespace passlab::analysis {

void WindowCost::addConv(int64_t kernelElements, int64_t channels) {
  (channels == 1 ? oneChannelMacs : macs) += static_cast<double>(kernelElements);
  convBytes += 8;
}
void WindowCost::addPad() {
  padBytes += 8;
}
void WindowCost::addBinary() {
  elementwiseBytes += 12;
}
void WindowCost::addUnary() {
  elementwiseBytes += 8;
}

double WindowCost::ns(const WindowCostRates& r) const {
  return macs * r.nsPerMac + oneChannelMacs * r.nsPerMacOneChannel + convBytes * r.nsPerConvByte +
         padBytes * r.nsPerPadByte + elementwiseBytes * r.nsPerElementwiseByte;
}

}  // namespace passlab::analysis
