#include "ui/profile/profile_chart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QValueAxis>

#include <algorithm>

namespace passlab::ui {

namespace {

struct Bar {
  QString label;
  double before = 0, after = 0;  // `after` only in compare mode
};

// The top `n` nodes (or op types) by median time.
std::vector<Bar> topBars(const ProfileOutcome& o, ProfileChart::Subject s, size_t n) {
  std::vector<Bar> bars;
  if (s == ProfileChart::Subject::kOpTypes) {
    for (const pipeline::OpTypeTotal& t : o.profile.opTypes)
      bars.push_back({QString::fromStdString(t.op), t.ms});
  } else {
    for (const pipeline::NodeTiming& t : o.profile.nodes)
      if (t.depth == 0) bars.push_back({QString::fromStdString(t.label()), t.time.medianMs});
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
    QString label = labels.empty() ? QString() : QString::fromStdString(labels.front());
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
  chart()->legend()->setAlignment(Qt::AlignBottom);
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
  auto* x = new QValueAxis;
  x->setRange(0, top > 0 ? top * 1.05 : 1);
  x->setTitleText(tr("ms"));
  x->setLabelFormat(QStringLiteral("%.3g"));
  c->addAxis(y, Qt::AlignLeft);
  c->addAxis(x, Qt::AlignBottom);
  series->attachAxis(x);
  series->attachAxis(y);
  c->legend()->setVisible(compare);
  c->setTitle(compare                         ? tr("Node groups: time before and after")
              : subject_ == Subject::kOpTypes ? tr("Op types by time")
                                              : tr("Nodes by time"));
  bars_ = static_cast<int>(bars.size());
}

}  // namespace passlab::ui
