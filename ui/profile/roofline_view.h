// The roofline (Qt Charts, both axes logarithmic): one point per node at its
// arithmetic intensity (FLOPs per byte moved) and achieved GFLOP/s, under the
// machine's roofs (core/pipeline/roofs.h): the memory roof bandwidth × intensity
// rising to the compute roof, the peak GEMM rate. Clicking a point picks its node.
#pragma once

#include <QChartView>

#include <vector>

#include "ui/profile/profile_runner.h"

class QScatterSeries;

namespace passlab::ui {

class RooflineView : public QChartView {
  Q_OBJECT

 public:
  explicit RooflineView(QWidget* parent = nullptr);

  void setOutcome(ProfileOutcomePtr outcome);
  // The nodes plotted, in the order of their points.
  const std::vector<ir::NodeId>& plottedNodes() const { return nodes_; }
  // Picks the node of the point nearest `value` (chart coordinates), as a click does.
  void pickNear(const QPointF& value);

 signals:
  void nodeClicked(quint64 node);

 private:
  void rebuild();

  ProfileOutcomePtr outcome_;
  std::vector<ir::NodeId> nodes_;
  std::vector<QPointF> points_;
};

}  // namespace passlab::ui
