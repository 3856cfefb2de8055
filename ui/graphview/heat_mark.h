// The profiler's heat overlay: a box filled by the share of the run time its
// nodes took, from pale yellow (little) to deep red (the most of any box).
#pragma once

#include <QColor>

namespace passlab::ui {

// `level` in [0, 1]: the box's share divided by the largest share shown.
QColor heatColor(double level);

}  // namespace passlab::ui
