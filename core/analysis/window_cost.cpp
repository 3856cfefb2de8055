#include "core/analysis/window_cost.h"

namespace passlab::analysis {

void WindowCost::addConv(int64_t kernelElements) {
  macs += static_cast<double>(kernelElements);
  windowBytes += 8;
}
void WindowCost::addPad() {
  windowBytes += 8;
}
void WindowCost::addBinary() {
  elementwiseBytes += 12;
}
void WindowCost::addUnary() {
  elementwiseBytes += 8;
}

double WindowCost::ns(const WindowCostRates& r) const {
  return macs * r.nsPerMac + windowBytes * r.nsPerWindowByte +
         elementwiseBytes * r.nsPerElementwiseByte;
}

}  // namespace passlab::analysis
