// Colours and names of op families for the graph view and its legend.
#pragma once

#include <QColor>
#include <QString>

#include "core/layout/layout_types.h"

namespace passlab::ui {

QColor familyQColor(layout::OpFamily f);
QString familyDisplayName(layout::OpFamily f);  // translated
QColor fillFor(const layout::LayoutNode& node);

}  // namespace passlab::ui
