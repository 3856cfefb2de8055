// SVG of a laid-out graph, the same picture the GUI draws (boxes coloured by op
// family, arrows labelled with dtype and shape, frames for expanded groups), so
// the CLI can export without Qt.
#pragma once

#include <string>

#include "core/layout/layout_types.h"

namespace passlab::layout {

struct SvgOptions {
  bool edgeLabels = true;
  std::string title;  // <title> of the document, optional
};

// `result` must come from laying out `request`.
std::string renderSvg(const LayoutRequest& request, const LayoutResult& result,
                      const SvgOptions& options = {});

}  // namespace passlab::layout
