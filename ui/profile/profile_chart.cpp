#include "ui/profile/profile_chart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QValueAxis>

#include <algorithm>

namespace passlab::ui {

namespace {

// "/block/attn/q_proj/MatMul" -> "q_proj/MatMul": the end of a scoped name
// is what tells bars apart.
QString shortLabel(const std::string& name) {
  QString s = QString::fromStdString(name);
  QStringList parts = s.split(QLatin1Char('/'), Qt::SkipEmptyParts);
  if (parts.size() > 2) s = parts.mid(parts.size() - 2).join(QLatin1Char('/'));
  return s.size() > 28 ? s.left(12) + QStringLiteral("…") + s.right(14) : s;
}

struct Bar {
  QString label;
  double before = 0, after = 0;  // `after` only in compare mode
};

// The top `n` nodes (or op types) by median time.
std::vector<Bar> topBars(const ProfileOutcome& o, ProfileChart::Subject s, size_t n) {
  std::vector<Bar> bars;
  if (s == ProfileChart::Subject::kOpTypes) {
    for (const pipeline::OpTypeTotal& t : o.profile.opTypes)
      bars.push_back({shortLabel(t.op), t.ms});
  } else {
    for (const pipeline::NodeTiming& t : o.profile.nodes)
      if (t.depth == 0) bars.push_back({shortLabel(t.label()), t.time.medianMs});
  }
  std::stable_sort(bars.begin(), bars.end(),
                   [](const Bar& a, const Bar& b) { return a.before > b.before; });
  if (bars.size() > n) bars.resize(n);
  return bars;
}

// The groups that took the most time before or after.
std::vector<Bar> topGroups(const ProfileOutcome& o, size_t n) {
  std::vector<Bar> bars;
  for (const pipeline::NodeGroup& g : o.comparison.groups) {
    const auto& labels = g.newLabels.empty() ? g.originalLabels : g.newLabels;
    QString label = labels.empty() ? QString() : shortLabel(labels.front());
    if (labels.size() > 1) label += QStringLiteral(" +%1").arg(labels.size() - 1);
    bars.push_back({label, g.beforeMs, g.afterMs});
  }
  std::stable_sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) {
    return std::max(a.before, a.after) > std::max(b.before, b.after);
  });
  if (bars.size() > n) bars.resize(n);
  return bars;
}

}  // namespace

ProfileChart::ProfileChart(QWidget* parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(180);
  chart()->legend()->setAlignment(Qt::AlignRight);  // width is what a bottom dock has
  chart()->setMargins(QMargins(2, 2, 2, 2));
}

void ProfileChart::setOutcome(ProfileOutcomePtr outcome) {
  outcome_ = std::move(outcome);
  rebuild();
}

void ProfileChart::setSubject(Subject s) {
  subject_ = s;
  rebuild();
}

void ProfileChart::rebuild() {
  QChart* c = chart();
  c->removeAllSeries();
  for (QAbstractAxis* a : c->axes()) {
    c->removeAxis(a);
    delete a;
  }
  bars_ = 0;
  if (!outcome_) return;
  const bool compare = outcome_->compare && subject_ == Subject::kNodes;
  std::vector<Bar> bars = compare ? topGroups(*outcome_, kTop) : topBars(*outcome_, subject_, kTop);
  std::reverse(bars.begin(), bars.end());  // largest on top
  auto* series = new QHorizontalBarSeries;
  auto* before = new QBarSet(compare ? tr("Before") : tr("Median"));
  auto* after = compare ? new QBarSet(tr("After")) : nullptr;
  QStringList labels;
  double top = 0;
  for (const Bar& b : bars) {
    labels << b.label;
    *before << b.before;
    if (after) *after << b.after;
    top = std::max({top, b.before, b.after});
  }
  series->append(before);
  if (after) series->append(after);
  c->addSeries(series);
  auto* y = new QBarCategoryAxis;
  y->append(labels);
  QFont small = y->labelsFont();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  y->setLabelsFont(small);
  auto* x = new QValueAxis;
  x->setRange(0, top > 0 ? top * 1.05 : 1);
  x->setLabelFormat(QStringLiteral("%.2g ms"));  // a printf format: the unit symbol as it is
  x->setTickCount(4);
  c->addAxis(y, Qt::AlignLeft);
  c->addAxis(x, Qt::AlignBottom);
  series->attachAxis(x);
  series->attachAxis(y);
  c->legend()->setVisible(compare);
  // The chooser above names the subject: a title would take the bars' room.
  setToolTip(compare                         ? tr("Node groups: time before and after")
             : subject_ == Subject::kOpTypes ? tr("Op types by time")
                                             : tr("Nodes by time"));
  bars_ = static_cast<int>(bars.size());
}

}  // namespace passlab::ui
