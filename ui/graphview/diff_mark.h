// How a box is marked when the view shows what a pipeline Step changed.
#pragma once

#include <QColor>

#include <cstdint>

namespace passlab::ui {

enum class DiffMark : uint8_t { kNone, kAdded, kRemoved, kChanged };

// Green, red, amber (and transparent for kNone).
QColor diffColor(DiffMark m);
// Two marks on one box (a collapsed group, a reader with an inlined constant):
// the same mark stays, different ones read as "changed".
inline DiffMark combineDiff(DiffMark a, DiffMark b) {
  if (a == DiffMark::kNone) return b;
  if (b == DiffMark::kNone || a == b) return a;
  return DiffMark::kChanged;
}

}  // namespace passlab::ui
