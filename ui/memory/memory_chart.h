// The Memory dock's chart (QPainter): live bytes over the execution order as
// an area (x: step, y: bytes), the peak marked with its value, step and node,
// the lower bound and the planned peak as lines, and every planned tensor as
// a band at its offset in the arena from the step that writes it to the last
// that reads it. Graph outputs outside the block are bands of their own
// colour stacked above it, from their step to the end of the run; a tensor
// placed inside such an output's buffer is drawn there, at its offset in it.
// A step's kernel scratch (planned from a run) is a grey band at its offset.
// With a Step's comparison, the model before the Step is a second curve (a
// dashed line with its own peak). Clicking a band picks its tensor (not a
// scratch band). The legend sits above the plot, across the chart's width:
// its full labels where they fit in two rows, else short ones in columns
// (a narrow dock); hovering an entry shows its full label.
#pragma once

#include <QBrush>
#include <QPen>
#include <QWidget>

#include <vector>

#include "ui/memory/memory_planner.h"

namespace passlab::ui {

class MemoryChart : public QWidget {
  Q_OBJECT

 public:
  explicit MemoryChart(QWidget* parent = nullptr);

  // Null, or an outcome whose current timeline is not planned: nothing drawn.
  void setOutcome(MemoryOutcomePtr outcome);
  const MemoryOutcomePtr& outcome() const { return outcome_; }
  // Live-bytes curves drawn: 0, 1 (the model), 2 (before and after a Step).
  int curveCount() const;

  // The band (index into the current timeline's bands) drawn at `pos`, the
  // topmost where bands share memory (a view over its base); -1: none.
  int bandAt(QPointF pos) const;
  // Where band `band` is drawn (empty when it is not).
  QRectF bandRect(int band) const;
  int selectedBand() const { return selected_; }
  void setSelectedBand(int band);

  // Where the plot is drawn (the axes' box), and the legend above it: each
  // entry's box and label as drawn (full, short or elided), and its full
  // label (its tooltip).
  QRectF plotRect() const;
  struct LegendItem {
    QRectF rect;
    QString shown, full;
  };
  std::vector<LegendItem> legendItems() const;

  QSize sizeHint() const override { return {640, 260}; }
  QSize minimumSizeHint() const override { return {240, 140}; }

 signals:
  void bandClicked(int band);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  bool event(QEvent* event) override;

 private:
  const MemoryTimeline* current() const;
  const MemoryTimeline* before() const;
  int stepSpan() const;     // steps on the x axis (the longer timeline's)
  double topBytes() const;  // bytes at the top of the y axis
  QPointF at(double step, double bytes) const;
  QString bandTip(int band) const;

  void drawAxes(QPainter& p) const;
  void drawLiveArea(QPainter& p, const MemoryTimeline& t) const;
  void drawBands(QPainter& p, const MemoryTimeline& t) const;
  void drawBeforeCurve(QPainter& p, const MemoryTimeline& t) const;
  void drawLevels(QPainter& p, const MemoryTimeline& t) const;
  // The peak's dot, its label on `side` of it (Qt::AlignLeft or Qt::AlignRight),
  // `raise` lines higher.
  void drawPeak(QPainter& p, const MemoryTimeline& t, const QString& label, QColor color,
                Qt::AlignmentFlag side, int raise = 0) const;
  void drawLegend(QPainter& p) const;

  // The legend: one entry per thing drawn, in rows above the plot.
  struct LegendEntry {
    QString text;       // full
    QString shortText;  // in a narrow chart
    QPen pen;
    QBrush brush;
  };
  std::vector<LegendEntry> legendEntries() const;
  // Laid out: full labels flowing in rows where they take at most two, else
  // the short ones in equal columns; a label wider than its room elided.
  std::vector<LegendItem> layoutLegend(const std::vector<LegendEntry>& entries) const;
  double legendBottom() const;

  MemoryOutcomePtr outcome_;
  int selected_ = -1;
};

// Bytes as the Memory dock writes them ("1.5 MiB").
QString memoryBytesText(uint64_t bytes);

}  // namespace passlab::ui
