#include "ui/memory/memory_chart.h"

#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <set>

namespace passlab::ui {

namespace {

constexpr int kLeft = 72, kRight = 16, kTop = 24, kBottom = 28;  // kTop: below the legend
// The legend: its left and right margin, an entry's swatch with the gap to
// its label, the gap between entries, the most rows of full labels.
constexpr int kLegendMargin = 4, kSwatch = 18, kLegendGap = 14, kFullLegendRows = 2;
const QColor kAreaColor(0x3b, 0x82, 0xc4);
const QColor kBeforeColor(0x44, 0x44, 0x44);
const QColor kPeakColor(0xc0, 0x39, 0x2b);
const QColor kBoundColor(0x27, 0xae, 0x60);
const QColor kPlannedColor(0x8e, 0x44, 0xad);
const QColor kOutsideColor(0xe6, 0x7e, 0x22, 170);  // graph outputs outside the block
const QColor kScratchColor(0x7f, 0x8c, 0x8d);       // kernel scratch

QColor bandColor(int index) {
  // Hues spread by the golden ratio, so neighbours differ.
  double hue = std::fmod(0.13 + index * 0.618033988749895, 1.0);
  QColor c = QColor::fromHsvF(static_cast<float>(hue), 0.45f, 0.92f);
  c.setAlpha(170);
  return c;
}

const MemoryTimeline* plannedOrNull(const MemoryTimeline* t) {
  return t != nullptr && t->state == MemoryTimeline::State::kPlanned ? t : nullptr;
}

// Where the buffer of graph output `k` outside the block starts on the y
// axis: the outputs are stacked above the block, in plan.outside's order.
uint64_t outsideBase(const exec::memory::MemoryPlan& plan, int k) {
  uint64_t base = plan.peak;
  for (int j = 0; j < k && j < static_cast<int>(plan.outside.size()); ++j)
    base += plan.outside[static_cast<size_t>(j)].size;
  return base;
}

// Whether a tensor is placed inside graph output `k`'s buffer.
bool holdsTensors(const exec::memory::MemoryPlan& plan, int k) {
  return std::any_of(plan.tensors.begin(), plan.tensors.end(),
                     [k](const exec::memory::PlannedTensor& t) { return t.region == k; });
}

}  // namespace

QString memoryBytesText(uint64_t bytes) {
  return QLocale().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeIecFormat);
}

MemoryChart::MemoryChart(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void MemoryChart::setOutcome(MemoryOutcomePtr outcome) {
  outcome_ = std::move(outcome);
  selected_ = -1;
  update();
}

const MemoryTimeline* MemoryChart::current() const {
  return outcome_ ? plannedOrNull(&outcome_->current) : nullptr;
}

const MemoryTimeline* MemoryChart::before() const {
  return outcome_ && current() ? plannedOrNull(outcome_->before.get()) : nullptr;
}

int MemoryChart::curveCount() const {
  return (current() ? 1 : 0) + (before() ? 1 : 0);
}

void MemoryChart::setSelectedBand(int band) {
  selected_ = band;
  update();
}

QRectF MemoryChart::plotRect() const {
  const double top = legendBottom() + kTop;
  return QRectF(kLeft, top, std::max(1, width() - kLeft - kRight),
                std::max(1.0, height() - top - kBottom));
}

int MemoryChart::stepSpan() const {
  int n = 1;
  if (const MemoryTimeline* t = current()) n = std::max(n, t->plan.stepCount);
  if (const MemoryTimeline* t = before()) n = std::max(n, t->plan.stepCount);
  return n;
}

double MemoryChart::topBytes() const {
  uint64_t top = 1;
  for (const MemoryTimeline* t : {current(), before()})
    if (t) top = std::max({top, t->plan.peakWithOutside(), t->plan.lowerBound});
  return static_cast<double>(top) * 1.15;  // room for the peak's label
}

QPointF MemoryChart::at(double step, double bytes) const {
  QRectF r = plotRect();
  return {r.left() + r.width() * step / stepSpan(), r.bottom() - r.height() * bytes / topBytes()};
}

QRectF MemoryChart::bandRect(int band) const {
  const MemoryTimeline* t = current();
  if (t == nullptr || band < 0 || band >= static_cast<int>(t->bands.size())) return {};
  const MemoryBand& b = t->bands[static_cast<size_t>(band)];
  const exec::memory::PlannedTensor& pt = t->tensorOf(b);
  // An output outside the block: its buffer stacked above the block, from
  // its step to the end of the run. A tensor inside an output's buffer: at
  // its offset there.
  uint64_t base = 0;
  if (b.outside >= 0)
    base = outsideBase(t->plan, b.outside);
  else if (pt.region >= 0)
    base = outsideBase(t->plan, pt.region);
  const double end =
      b.outside >= 0 ? t->plan.stepCount : std::min(pt.last, t->plan.stepCount - 1) + 1;
  const uint64_t offset = b.outside >= 0 ? base : base + pt.offset;
  return QRectF(at(pt.first, static_cast<double>(offset + pt.size)),
                at(end, static_cast<double>(offset)))
      .normalized();
}

int MemoryChart::bandAt(QPointF pos) const {
  const MemoryTimeline* t = current();
  if (t == nullptr) return -1;
  for (int i = static_cast<int>(t->bands.size()) - 1; i >= 0; --i)  // the last drawn is on top
    if (bandRect(i).contains(pos)) return i;
  return -1;
}

QString MemoryChart::bandTip(int band) const {
  const MemoryTimeline& t = *current();
  const MemoryBand& b = t.bands[static_cast<size_t>(band)];
  const exec::memory::PlannedTensor& pt = t.tensorOf(b);
  if (pt.scratch)
    return tr("Kernel scratch of step %1 (%2): %3 at offset %4, while the step runs")
        .arg(pt.first)
        .arg(QString::fromStdString(pt.producer), memoryBytesText(pt.size),
             memoryBytesText(pt.offset));
  if (b.outside >= 0)
    return tr("%1: a graph output, %2, outside the block: written where the caller gets it, "
              "from step %3 to the end of the run, written by %4")
        .arg(QString::fromStdString(pt.name), memoryBytesText(pt.bytes))
        .arg(pt.first)
        .arg(QString::fromStdString(pt.producer));
  QString tip = tr("%1: %2 at offset %3, steps %4–%5, written by %6")
                    .arg(QString::fromStdString(pt.name), memoryBytesText(pt.bytes),
                         memoryBytesText(pt.offset))
                    .arg(pt.first)
                    .arg(pt.last)
                    .arg(QString::fromStdString(pt.producer));
  if (pt.reuse == exec::memory::Reuse::kView)
    tip +=
        QLatin1Char('\n') +
        tr("A view of %1 (the same buffer)")
            .arg(QString::fromStdString(t.plan.tensors[static_cast<size_t>(pt.sharesWith)].name));
  else if (pt.reuse == exec::memory::Reuse::kInPlace)
    tip +=
        QLatin1Char('\n') +
        tr("In place: takes the buffer of %1, which dies here")
            .arg(QString::fromStdString(t.plan.tensors[static_cast<size_t>(pt.sharesWith)].name));
  if (pt.graphOutput) tip += QLatin1Char('\n') + tr("A graph output: lives until the run returns");
  if (pt.region >= 0 && pt.region < static_cast<int>(t.plan.outside.size()))
    tip += QLatin1Char('\n') +
           tr("Inside the buffer of graph output %1, at offset %2: it dies before that output "
              "is written")
               .arg(QString::fromStdString(t.plan.outside[static_cast<size_t>(pt.region)].name),
                    memoryBytesText(pt.offset));
  return tip;
}

void MemoryChart::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  const MemoryTimeline* t = current();
  if (t == nullptr) return;
  p.setRenderHint(QPainter::Antialiasing, true);
  drawAxes(p);
  drawLiveArea(p, *t);
  drawBands(p, *t);
  if (const MemoryTimeline* b = before()) {
    drawBeforeCurve(p, *b);
    // Both peaks at one step (a Convolution's scratch before and after a
    // Step): the before label a line higher, not over the other.
    drawPeak(p, *b, tr("before: peak %1").arg(memoryBytesText(b->plan.lowerBound)), kBeforeColor,
             Qt::AlignLeft, b->plan.peakStep == t->plan.peakStep ? 1 : 0);
  }
  drawLevels(p, *t);
  QString peakNode = QString::fromStdString(t->plan.peakNode);
  drawPeak(p, *t,
           tr("peak %1 at step %2 (%3)")
               .arg(memoryBytesText(t->plan.lowerBound))
               .arg(t->plan.peakStep)
               .arg(peakNode),
           kPeakColor, Qt::AlignRight);
  drawLegend(p);
}

void MemoryChart::drawAxes(QPainter& p) const {
  QRectF r = plotRect();
  p.setPen(palette().color(QPalette::Mid));
  p.drawLine(r.bottomLeft(), r.bottomRight());
  p.drawLine(r.bottomLeft(), r.topLeft());
  p.setPen(palette().color(QPalette::Text));
  const QFontMetrics fm = p.fontMetrics();
  constexpr int kYTicks = 4;
  for (int i = 0; i <= kYTicks; ++i) {
    double bytes = topBytes() / 1.15 * i / kYTicks;
    QPointF y = at(0, bytes);
    p.drawLine(QPointF(r.left() - 3, y.y()), QPointF(r.left(), y.y()));
    p.drawText(QRectF(0, y.y() - fm.height() / 2.0, kLeft - 6, fm.height()),
               Qt::AlignRight | Qt::AlignVCenter, memoryBytesText(static_cast<uint64_t>(bytes)));
  }
  const int steps = stepSpan();
  const int every = std::max(1, steps / std::max(1, static_cast<int>(r.width() / 60)));
  for (int s = 0; s < steps; s += every) {
    QPointF x = at(s + 0.5, 0);
    p.drawLine(QPointF(x.x(), r.bottom()), QPointF(x.x(), r.bottom() + 3));
    p.drawText(QRectF(x.x() - 30, r.bottom() + 3, 60, fm.height()), Qt::AlignHCenter,
               QString::number(s));
  }
  p.drawText(QRectF(r.left(), r.bottom() + 3 + fm.height() * 0.0, r.width(), kBottom - 3),
             Qt::AlignRight | Qt::AlignBottom, tr("step"));
}

void MemoryChart::drawLiveArea(QPainter& p, const MemoryTimeline& t) const {
  QPainterPath area;
  area.moveTo(at(0, 0));
  for (size_t s = 0; s < t.plan.liveBytes.size(); ++s) {
    auto bytes = static_cast<double>(t.plan.liveBytes[s]);
    area.lineTo(at(static_cast<double>(s), bytes));
    area.lineTo(at(static_cast<double>(s + 1), bytes));
  }
  area.lineTo(at(static_cast<double>(t.plan.liveBytes.size()), 0));
  area.closeSubpath();
  QColor fill = kAreaColor;
  fill.setAlpha(60);
  p.setPen(QPen(kAreaColor, 2));
  p.setBrush(fill);
  p.drawPath(area);
}

void MemoryChart::drawBands(QPainter& p, const MemoryTimeline& t) const {
  // An output's buffer that holds tensors is taken at the start of the run:
  // outlined from step 0 to the output's step, where they are placed.
  for (int k = 0; k < static_cast<int>(t.plan.outside.size()); ++k) {
    if (!holdsTensors(t.plan, k)) continue;
    const exec::memory::PlannedTensor& out = t.plan.outside[static_cast<size_t>(k)];
    const uint64_t base = outsideBase(t.plan, k);
    p.setPen(QPen(kOutsideColor.darker(120), 1, Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(at(0, static_cast<double>(base + out.size)),
                      at(out.first, static_cast<double>(base)))
                   .normalized());
  }
  for (int i = 0; i < static_cast<int>(t.bands.size()); ++i) {
    const MemoryBand& b = t.bands[static_cast<size_t>(i)];
    const exec::memory::PlannedTensor& pt = t.tensorOf(b);
    p.setPen(QPen(palette().color(QPalette::Mid), 0.5));
    if (b.outside >= 0)
      p.setBrush(kOutsideColor);
    else if (pt.scratch)
      p.setBrush(QBrush(kScratchColor, Qt::Dense4Pattern));
    else if (pt.reuse == exec::memory::Reuse::kView)
      p.setBrush(QBrush(bandColor(i).darker(130), Qt::BDiagPattern));
    else
      p.setBrush(bandColor(i));
    p.drawRect(bandRect(i));
  }
  if (selected_ >= 0 && selected_ < static_cast<int>(t.bands.size())) {
    p.setPen(QPen(palette().color(QPalette::Highlight), 2.5));
    p.setBrush(Qt::NoBrush);
    p.drawRect(bandRect(selected_));
  }
}

void MemoryChart::drawBeforeCurve(QPainter& p, const MemoryTimeline& t) const {
  QPainterPath line;
  line.moveTo(at(0, 0));
  for (size_t s = 0; s < t.plan.liveBytes.size(); ++s) {
    auto bytes = static_cast<double>(t.plan.liveBytes[s]);
    line.lineTo(at(static_cast<double>(s), bytes));
    line.lineTo(at(static_cast<double>(s + 1), bytes));
  }
  line.lineTo(at(static_cast<double>(t.plan.liveBytes.size()), 0));
  p.setPen(QPen(kBeforeColor, 2, Qt::DashLine));
  p.setBrush(Qt::NoBrush);
  p.drawPath(line);
}

void MemoryChart::drawLevels(QPainter& p, const MemoryTimeline& t) const {
  QRectF r = plotRect();
  auto level = [&](uint64_t bytes, QColor color) {
    double y = at(0, static_cast<double>(bytes)).y();
    p.setPen(QPen(color, 1.5, Qt::DotLine));
    p.drawLine(QPointF(r.left(), y), QPointF(r.right(), y));
  };
  level(t.plan.lowerBound, kBoundColor);
  level(t.plan.peak, kPlannedColor);  // over the lower bound's line when they are equal
}

void MemoryChart::drawPeak(QPainter& p, const MemoryTimeline& t, const QString& label, QColor color,
                           Qt::AlignmentFlag side, int raise) const {
  if (t.plan.peakStep < 0) return;
  QPointF dot = at(t.plan.peakStep + 0.5, static_cast<double>(t.plan.lowerBound));
  p.setPen(QPen(color, 1.5));
  p.setBrush(color);
  p.drawEllipse(dot, 4, 4);
  const QFontMetrics fm = p.fontMetrics();
  const int w = fm.horizontalAdvance(label) + 4;
  QRectF r = plotRect();
  const double wanted = side == Qt::AlignRight ? dot.x() + 6 : dot.x() - 6 - w;
  double left = std::clamp(wanted, r.left(), std::max(r.left(), r.right() - w));
  // Never over the legend.
  double top = std::max(legendBottom() + 2, dot.y() - fm.height() * (1 + raise) - 6);
  p.drawText(QRectF(left, top, w, fm.height()), Qt::AlignLeft, label);
}

std::vector<MemoryChart::LegendEntry> MemoryChart::legendEntries() const {
  std::vector<LegendEntry> entries;
  const MemoryTimeline* t = current();
  if (t == nullptr) return entries;
  QColor fill = kAreaColor;
  fill.setAlpha(60);
  // The short labels leave out the figures: the summary above says them.
  entries.push_back({before() ? tr("live bytes after the Step") : tr("live bytes"),
                     before() ? tr("after") : tr("live bytes"), QPen(kAreaColor, 2), fill});
  if (before())
    entries.push_back(
        {tr("before the Step"), tr("before"), QPen(kBeforeColor, 2, Qt::DashLine), Qt::NoBrush});
  if (t->plan.peak == t->plan.lowerBound) {
    entries.push_back({tr("planned peak = lower bound: %1").arg(memoryBytesText(t->plan.peak)),
                       tr("peak = bound"), QPen(kPlannedColor, 2, Qt::DotLine), Qt::NoBrush});
  } else {
    entries.push_back({tr("planned peak %1").arg(memoryBytesText(t->plan.peak)), tr("planned peak"),
                       QPen(kPlannedColor, 2, Qt::DotLine), Qt::NoBrush});
    entries.push_back({tr("lower bound %1").arg(memoryBytesText(t->plan.lowerBound)),
                       tr("lower bound"), QPen(kBoundColor, 2, Qt::DotLine), Qt::NoBrush});
  }
  entries.push_back({tr("tensors at their offsets (click one)"), tr("tensors"),
                     QPen(palette().color(QPalette::Mid)), bandColor(0)});
  if (!t->plan.outside.empty())
    entries.push_back(
        {tr("graph outputs outside the block: %1").arg(memoryBytesText(t->plan.outsideBytes)),
         tr("outputs outside"), QPen(palette().color(QPalette::Mid)), kOutsideColor});
  if (t->plan.scratchCount > 0)
    entries.push_back({tr("kernel scratch"), tr("scratch"), QPen(palette().color(QPalette::Mid)),
                       QBrush(kScratchColor, Qt::Dense4Pattern)});
  return entries;
}

namespace {

// Labels flowing left to right in rows of `room` pixels, each `label` wide
// plus its swatch; one wider than a row is elided to it.
std::vector<MemoryChart::LegendItem> flowLegend(const QStringList& labels, const QStringList& full,
                                                const QFontMetrics& fm, double room) {
  std::vector<MemoryChart::LegendItem> items;
  double x = kLegendMargin, y = 4;
  for (qsizetype i = 0; i < labels.size(); ++i) {
    const QString shown =
        fm.elidedText(labels[i], Qt::ElideRight, static_cast<int>(room - kSwatch));
    const double w = kSwatch + fm.horizontalAdvance(shown) + 2;
    if (x > kLegendMargin && x + w > kLegendMargin + room) {  // wraps to the next row
      x = kLegendMargin;
      y += fm.height() + 2;
    }
    items.push_back({QRectF(x, y, w, fm.height()), shown, full[i]});
    x += w + kLegendGap;
  }
  return items;
}

int legendRows(const std::vector<MemoryChart::LegendItem>& items) {
  std::set<double> tops;
  for (const MemoryChart::LegendItem& item : items) tops.insert(item.rect.top());
  return static_cast<int>(tops.size());
}

}  // namespace

std::vector<MemoryChart::LegendItem> MemoryChart::layoutLegend(
    const std::vector<LegendEntry>& entries) const {
  const QFontMetrics fm = fontMetrics();
  const double room = std::max(1, width() - 2 * kLegendMargin);
  QStringList full, brief;
  for (const LegendEntry& e : entries) {
    full << e.text;
    brief << e.shortText;
  }
  std::vector<LegendItem> items = flowLegend(full, full, fm, room);
  if (legendRows(items) <= kFullLegendRows) return items;
  // A narrow chart: the short labels in equal columns.
  double column = 0;
  for (const QString& b : brief) column = std::max(column, kSwatch + fm.horizontalAdvance(b) + 2.0);
  const int columns = std::max(1, static_cast<int>((room + kLegendGap) / (column + kLegendGap)));
  column = std::min(column, room);
  items.clear();
  for (int i = 0; i < static_cast<int>(entries.size()); ++i) {
    const double x = kLegendMargin + (i % columns) * (column + kLegendGap);
    const double y = 4 + (i / columns) * (fm.height() + 2);
    const QString shown =
        fm.elidedText(brief[i], Qt::ElideRight, static_cast<int>(column - kSwatch));
    items.push_back({QRectF(x, y, column, fm.height()), shown, full[i]});
  }
  return items;
}

std::vector<MemoryChart::LegendItem> MemoryChart::legendItems() const {
  return layoutLegend(legendEntries());
}

double MemoryChart::legendBottom() const {
  std::vector<LegendItem> items = legendItems();
  double bottom = 0;
  for (const LegendItem& item : items) bottom = std::max(bottom, item.rect.bottom());
  return bottom;
}

void MemoryChart::drawLegend(QPainter& p) const {
  std::vector<LegendEntry> entries = legendEntries();
  std::vector<LegendItem> items = layoutLegend(entries);
  for (size_t i = 0; i < entries.size(); ++i) {
    const QRectF& r = items[i].rect;
    p.setPen(entries[i].pen);
    p.setBrush(entries[i].brush);
    p.drawRect(QRectF(r.left(), r.top() + 3, kSwatch - 4, r.height() - 6));
    p.setPen(palette().color(QPalette::Text));
    p.drawText(r.adjusted(kSwatch, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, items[i].shown);
  }
}

void MemoryChart::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  int band = bandAt(event->position());
  if (band < 0) return;
  // A step's scratch is no tensor to select (its tooltip names the node).
  if (current()->tensorOf(current()->bands[static_cast<size_t>(band)]).scratch) return;
  setSelectedBand(band);
  emit bandClicked(band);
}

bool MemoryChart::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    // A legend entry: its full label (a narrow chart shows a short one).
    for (const LegendItem& item : legendItems())
      if (item.rect.contains(help->pos())) {
        QToolTip::showText(help->globalPos(), item.full, this);
        return true;
      }
    int band = bandAt(help->pos());
    if (band >= 0)
      QToolTip::showText(help->globalPos(), bandTip(band), this);
    else
      QToolTip::hideText();
    return true;
  }
  return QWidget::event(event);
}

}  // namespace passlab::ui
