#include "ui/graphview/heat_mark.h"

#include <algorithm>
#include <array>

namespace passlab::ui {

namespace {

struct Stop {
  double at;
  QColor colour;
};

// Pale yellow, orange, red, deep red (a sequential "YlOrRd" ramp).
const std::array<Stop, 4> kStops = {{{0.0, QColor(0xff, 0xf7, 0xbc)},
                                     {0.35, QColor(0xfe, 0xc4, 0x4f)},
                                     {0.7, QColor(0xec, 0x70, 0x14)},
                                     {1.0, QColor(0xb3, 0x1b, 0x1b)}}};

QColor mix(const QColor& a, const QColor& b, double t) {
  auto lerp = [t](int x, int y) { return static_cast<int>(x + (y - x) * t + 0.5); };
  return QColor(lerp(a.red(), b.red()), lerp(a.green(), b.green()), lerp(a.blue(), b.blue()));
}

}  // namespace

QColor heatColor(double level) {
  level = std::clamp(level, 0.0, 1.0);
  for (size_t i = 1; i < kStops.size(); ++i)
    if (level <= kStops[i].at) {
      const Stop& lo = kStops[i - 1];
      const Stop& hi = kStops[i];
      return mix(lo.colour, hi.colour, (level - lo.at) / (hi.at - lo.at));
    }
  return kStops.back().colour;
}

}  // namespace passlab::ui
