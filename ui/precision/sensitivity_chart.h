// The Precision panel's ranking (Qt Charts): one horizontal bar per layer the
// pass converts, its length the SNR of the worst output with that layer alone
// converted, the most sensitive (lowest SNR) on top; its label gives the SNR
// and, where a classifier output reports one, the top-k agreement (the CLI's
// `precision` top-k column). Layers kept in float32
// by mixed precision are drawn in a second colour. Clicking a bar picks its
// node. The chart grows with the bars (the panel scrolls it).
#pragma once

#include <QChartView>

#include <set>
#include <vector>

#include "core/pipeline/sensitivity.h"

class QBarSet;

namespace passlab::ui {

class SensitivityChart : public QChartView {
  Q_OBJECT

 public:
  explicit SensitivityChart(QWidget* parent = nullptr);

  // Most sensitive first, as rankLayers returns them; `kept`: drawn apart;
  // `topK`: the k their top-k agreement was measured with.
  void setRanking(std::vector<pipeline::LayerSensitivity> ranked, std::set<ir::NodeId> kept = {},
                  int topK = 5);
  const std::vector<pipeline::LayerSensitivity>& ranking() const { return ranked_; }
  int barCount() const { return static_cast<int>(ranked_.size()); }
  int topK() const { return topK_; }
  // The label of layer `layer`'s bar: "Conv 'c1' (#3)  31.2 dB  top-5 80%".
  QString barText(int layer) const;
  // The bar sets drawn (converted, kept): what a click reports through.
  QBarSet* convertedSet() const { return converted_; }
  QBarSet* keptSet() const { return kept_; }
  // The layer drawn at chart index `index` (0: the bottom bar), or -1.
  int layerAt(int index) const;

 signals:
  // A bar was clicked: the index of its layer in the ranking, and its node.
  void layerClicked(int layer, quint64 node);

 private:
  void rebuild();
  void onBarClicked(int index);

  std::vector<pipeline::LayerSensitivity> ranked_;
  std::set<ir::NodeId> keptNodes_;
  int topK_ = 5;
  QBarSet* converted_ = nullptr;
  QBarSet* kept_ = nullptr;
};

// An SNR as the panel writes it ("31.2 dB", "∞").
QString snrText(double snrDb);
// A top-k agreement as the panel writes it ("top-5 80%").
QString topKText(int k, double agreement);

}  // namespace passlab::ui
