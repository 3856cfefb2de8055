// How graphs are laid out and drawn; read from the settings by the main window.
#pragma once

#include <QString>

namespace passlab::ui {

struct ViewSettings {
  int layoutTimeoutSeconds = 20;  // Graphviz is stopped past this; the fallback is drawn
  int groupingThreshold = 400;    // graphs with more nodes start grouped
  int boxBudget = 150;            // groups opened at first while at most this many boxes show
  bool useGraphviz = true;        // false: the built-in layered layout only
  QString helperPath;             // passlab-layout; empty: found automatically
  bool edgeLabels = true;
  bool fitOnOpen = false;  // the first view fits the whole graph (else: readable, at the inputs)

  bool operator==(const ViewSettings& o) const {
    return layoutTimeoutSeconds == o.layoutTimeoutSeconds &&
           groupingThreshold == o.groupingThreshold && boxBudget == o.boxBudget &&
           useGraphviz == o.useGraphviz && helperPath == o.helperPath &&
           edgeLabels == o.edgeLabels && fitOnOpen == o.fitOnOpen;
  }
  bool operator!=(const ViewSettings& o) const { return !(*this == o); }
};

}  // namespace passlab::ui
