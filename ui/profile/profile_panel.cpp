#include "ui/profile/profile_panel.h"

#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>

#include <map>
#include <utility>

#include "core/support/strings.h"
#include "ui/graphview/heat_mark.h"
#include "ui/mainwindow/settings.h"
#include "ui/pipeline/pipeline_session.h"
#include "ui/profile/profile_chart.h"
#include "ui/profile/profile_export.h"
#include "ui/profile/profile_tables.h"
#include "ui/profile/roofline_view.h"

namespace passlab::ui {

namespace {

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent) {
  auto* v = new QTableView(parent);
  v->setModel(model);
  v->setSortingEnabled(true);
  v->setSelectionBehavior(QAbstractItemView::SelectRows);
  v->setSelectionMode(QAbstractItemView::SingleSelection);
  v->setEditTriggers(QAbstractItemView::NoEditTriggers);
  v->verticalHeader()->hide();
  v->horizontalHeader()->setStretchLastSection(true);
  v->horizontalHeader()->setMaximumSectionSize(320);  // long lists of node names elide
  v->setTextElideMode(Qt::ElideMiddle);
  v->setWordWrap(false);
  v->setAlternatingRowColors(true);
  return v;
}

QSortFilterProxyModel* makeProxy(QAbstractItemModel* source, QObject* parent) {
  auto* p = new QSortFilterProxyModel(parent);
  p->setSourceModel(source);
  p->setSortRole(ProfileTableModel::kSortRole);
  p->setFilterCaseSensitivity(Qt::CaseInsensitive);
  p->setFilterKeyColumn(-1);  // any column
  return p;
}

// The overlay's legend: the colour ramp from no time to the largest share.
QPixmap heatRamp(int width, int height) {
  QPixmap pm(width, height);
  QPainter p(&pm);
  for (int x = 0; x < width; ++x) {
    p.setPen(heatColor(static_cast<double>(x) / std::max(1, width - 1)));
    p.drawLine(x, 0, x, height - 1);
  }
  p.setPen(QColor(0x88, 0x88, 0x88));
  p.setBrush(Qt::NoBrush);
  p.drawRect(0, 0, width - 1, height - 1);
  return pm;
}

QString writeFile(const QString& path, const QByteArray& bytes) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit())
    return f.errorString().isEmpty() ? QStringLiteral("write failed") : f.errorString();
  return {};
}

}  // namespace

ProfilePanel::ProfilePanel(Document* doc, PipelineSession* pipeline, QWidget* parent)
    : QWidget(parent), doc_(doc), pipeline_(pipeline), runner_(new ProfileRunner(this)) {
  buildControls();
  buildViews();
  {
    std::vector<std::string> notes;
    std::vector<exec::DeviceDescription> devices = exec::listDevices(&notes);
    setDevices(devices, notes);
  }
  connect(runner_, &ProfileRunner::finished, this, &ProfilePanel::showOutcome);
  connect(runner_, &ProfileRunner::failed, this, &ProfilePanel::showError);
  connect(runner_, &ProfileRunner::runningChanged, this, &ProfilePanel::updateEnabled);
  connect(doc_, &Document::changed, this, &ProfilePanel::onDocumentChanged);
  connect(pipeline_, &PipelineSession::stepsChanged, this, &ProfilePanel::updateEnabled);
  connect(pipeline_, &PipelineSession::runningChanged, this, &ProfilePanel::updateEnabled);
  retranslateUi();
  updateEnabled();
}

ProfilePanel::~ProfilePanel() {
  runner_->cancel();
  runner_->waitForRun();
}

void ProfilePanel::buildControls() {
  deviceLabel_ = new QLabel(this);
  device_ = new QComboBox(this);
  device_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  device_->addItem(QString(), QStringLiteral("cpu"));
  deviceHint_ = new QLabel(this);
  deviceHint_->setWordWrap(true);
  deviceHint_->setStyleSheet(QStringLiteral("color: #7f8c8d;"));
  deviceHint_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  deviceHint_->hide();
  where_ = new QLabel(this);
  where_->setWordWrap(true);
  where_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  where_->hide();
  threadsLabel_ = new QLabel(this);
  threads_ = new QSpinBox(this);
  threads_->setRange(0, std::max(1, QThread::idealThreadCount()) * 4);
  warmupLabel_ = new QLabel(this);
  warmup_ = new QSpinBox(this);
  warmup_->setRange(0, 100);
  warmup_->setValue(2);
  repeatsLabel_ = new QLabel(this);
  repeats_ = new QSpinBox(this);
  repeats_->setRange(1, 1000);
  repeats_->setValue(10);
  run_ = new QPushButton(this);
  compare_ = new QPushButton(this);
  heat_ = new QToolButton(this);
  heat_->setCheckable(true);
  heat_->setToolButtonStyle(Qt::ToolButtonTextOnly);
  legend_ = new QLabel(this);
  exportCsv_ = new QPushButton(this);
  exportJson_ = new QPushButton(this);
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_ = new QLabel(this);
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #c0392b;"));
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_->hide();
  filter_ = new QLineEdit(this);
  filter_->setClearButtonEnabled(true);

  connect(run_, &QPushButton::clicked, this, &ProfilePanel::runProfile);
  connect(compare_, &QPushButton::clicked, this, &ProfilePanel::runCompare);
  connect(heat_, &QToolButton::toggled, this, [this] {
    legend_->setVisible(heat_->isChecked());
    emit heatChanged();
  });
  connect(exportCsv_, &QPushButton::clicked, this, [this] { exportDialog(false); });
  connect(exportJson_, &QPushButton::clicked, this, [this] { exportDialog(true); });
  connect(filter_, &QLineEdit::textChanged, this, &ProfilePanel::setFilter);
  legend_->hide();
}

void ProfilePanel::buildViews() {
  nodeModel_ = new ProfileTableModel(this);
  opModel_ = new ProfileTableModel(this);
  nodeProxy_ = makeProxy(nodeModel_, this);
  opProxy_ = makeProxy(opModel_, this);
  nodeView_ = makeTable(nodeProxy_, this);
  opView_ = makeTable(opProxy_, this);
  tableTabs_ = new QTabWidget(this);
  tableTabs_->addTab(nodeView_, QString());
  tableTabs_->addTab(opView_, QString());
  connect(nodeView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          &ProfilePanel::onCurrentRow);

  chart_ = new ProfileChart(this);
  chartSubject_ = new QComboBox(this);
  chartSubject_->addItems({QString(), QString()});
  connect(chartSubject_, &QComboBox::currentIndexChanged, this, [this](int i) {
    chart_->setSubject(i == 1 ? ProfileChart::Subject::kOpTypes : ProfileChart::Subject::kNodes);
  });
  auto* chartPage = new QWidget(this);
  auto* chartCol = new QVBoxLayout(chartPage);
  chartCol->setContentsMargins(0, 0, 0, 0);
  chartCol->addWidget(chartSubject_, 0, Qt::AlignLeft);
  chartCol->addWidget(chart_, 1);
  roofline_ = new RooflineView(this);
  connect(roofline_, &RooflineView::nodeClicked, this, [this](quint64 node) {
    selectNode(node);
    emit nodeActivated(node);
  });
  viewTabs_ = new QTabWidget(this);
  viewTabs_->addTab(chartPage, QString());
  viewTabs_->addTab(roofline_, QString());

  auto* controls = new QHBoxLayout;
  for (QWidget* w :
       std::initializer_list<QWidget*>{deviceLabel_, device_, threadsLabel_, threads_, warmupLabel_,
                                       warmup_, repeatsLabel_, repeats_, run_, compare_})
    controls->addWidget(w);
  controls->addStretch(1);
  controls->addWidget(heat_);
  controls->addWidget(legend_);
  controls->addWidget(exportCsv_);
  controls->addWidget(exportJson_);
  auto* left = new QWidget(this);
  auto* leftCol = new QVBoxLayout(left);
  leftCol->setContentsMargins(0, 0, 0, 0);
  leftCol->addWidget(filter_);
  leftCol->addWidget(tableTabs_, 1);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(left);
  split->addWidget(viewTabs_);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  auto* col = new QVBoxLayout(this);
  col->setContentsMargins(4, 4, 4, 4);
  col->addLayout(controls);
  col->addWidget(deviceHint_);
  col->addWidget(summary_);
  col->addWidget(where_);
  col->addWidget(error_);
  col->addWidget(split, 1);
}

void ProfilePanel::retranslateUi() {
  deviceLabel_->setText(tr("Device:"));
  retranslateDevices();
  threadsLabel_->setText(tr("Threads:"));
  threads_->setSpecialValueText(tr("all"));
  threads_->setToolTip(tr("Threads of the executor (all: every core)"));
  warmupLabel_->setText(tr("Warm-up:"));
  warmup_->setToolTip(tr("Untimed runs before measuring"));
  repeatsLabel_->setText(tr("Repeats:"));
  repeats_->setToolTip(tr("Timed runs; each node's time is the median over them"));
  run_->setText(tr("&Profile"));
  run_->setToolTip(tr("Profile the current model: the time of every node"));
  compare_->setText(tr("Compare with &Original"));
  compare_->setToolTip(
      tr("Profile the opened original and the current model and compare them node group by "
         "node group (needs an applied Step)"));
  heat_->setText(tr("Heat Overlay"));
  heat_->setToolTip(tr("Colour the graph by each node's share of the run time"));
  legend_->setPixmap(heatRamp(90, 12));
  legend_->setToolTip(tr("Pale: little time; deep red: the node that took the most"));
  exportCsv_->setText(tr("Export CSV…"));
  exportJson_->setText(tr("Export JSON…"));
  filter_->setPlaceholderText(tr("Filter by node, op or kind…"));
  tableTabs_->setTabText(1, tr("Op Types"));
  viewTabs_->setTabText(0, tr("Chart"));
  viewTabs_->setTabText(1, tr("Roofline"));
  chartSubject_->setItemText(0, tr("Top nodes"));
  chartSubject_->setItemText(1, tr("Top op types"));
  if (!outcome_) summary_->setText(tr("Not profiled yet: press Profile."));
  showTables();
}

void ProfilePanel::setDevices(const std::vector<exec::DeviceDescription>& devices,
                              const std::vector<std::string>& notes) {
  const QString current = device_->currentData().toString();
  devices_ = devices;
  deviceNotes_ = notes;
  device_->clear();
  device_->addItem(QString(), QStringLiteral("cpu"));
  for (const exec::DeviceDescription& d : devices_) {
    const QString id = QStringLiteral("%1:%2").arg(QString::fromStdString(d.backend)).arg(d.index);
    device_->addItem(id + QLatin1Char(' ') + QString::fromStdString(d.name), id);
    if (!d.details.empty())
      device_->setItemData(device_->count() - 1, QString::fromStdString(d.details),
                           Qt::ToolTipRole);
  }
  const int keep = device_->findData(current);
  device_->setCurrentIndex(keep < 0 ? 0 : keep);
  retranslateDevices();
}

void ProfilePanel::retranslateDevices() {
  device_->setItemText(0, tr("CPU"));
  device_->setItemData(0, tr("The host's CPU kernels"), Qt::ToolTipRole);
  QString tip = tr("Where the profile runs");
  for (const std::string& n : deviceNotes_) tip += QLatin1Char('\n') + QString::fromStdString(n);
  device_->setToolTip(tip);
  const QString hint = deviceHintText();
  deviceHint_->setText(hint);
  deviceHint_->setToolTip(hint);
  deviceHint_->setVisible(!hint.isEmpty());
}

QString ProfilePanel::deviceHintText() const {
  if (!devices_.empty() || deviceNotes_.empty()) return {};
  QStringList notes;
  for (const std::string& n : deviceNotes_) notes << QString::fromStdString(n);
  return tr("No GPU: %1").arg(notes.join(QStringLiteral("; ")));
}

QString ProfilePanel::ranOnText(const pipeline::ProfileResult& r) {
  const exec::DeviceRunSummary& d = r.deviceRun;
  if (d.device.empty()) {
    if (r.device.empty() || r.device == "cpu")
      return r.machine.cpuModel.empty()
                 ? tr("Ran on the CPU")
                 : tr("Ran on the CPU (%1)").arg(QString::fromStdString(r.machine.cpuModel));
    return tr("Ran on %1").arg(QString::fromStdString(r.device));
  }
  QString t = tr("Ran on %1: %2 steps on the device, %3 on the host (dims only), %4 on the CPU "
                 "(fallback)")
                  .arg(QString::fromStdString(d.device))
                  .arg(d.deviceSteps)
                  .arg(d.hostSteps)
                  .arg(d.fallbackSteps);
  if (d.keptSteps > 0)
    t += QStringLiteral(", ") + tr("%1 constant steps kept from an earlier run").arg(d.keptSteps);
  t += QStringLiteral("; ") + tr("copies: %1 to the device (%2), %3 to the host (%4)")
                                  .arg(d.copiesToDevice)
                                  .arg(QString::fromStdString(str::humanBytes(d.bytesToDevice)))
                                  .arg(d.copiesToHost)
                                  .arg(QString::fromStdString(str::humanBytes(d.bytesToHost)));
  return t;
}

QString ProfilePanel::fallbackText(const pipeline::ProfileResult& r) {
  std::map<std::pair<std::string, std::string>, int> counts;
  for (const exec::DeviceFallback& f : r.deviceRun.fallbacks) ++counts[{f.op, f.reason}];
  if (counts.empty()) return {};
  QStringList lines{tr("Steps run on the CPU instead of the device:")};
  for (const auto& [key, n] : counts) {
    QString op = QString::fromStdString(key.first);
    if (n > 1) op += QStringLiteral(" ×%1").arg(n);
    lines << op + QStringLiteral(": ") + QString::fromStdString(key.second);
  }
  return lines.join(QLatin1Char('\n'));
}

QString ProfilePanel::whereText() const {
  if (!outcome_) return {};
  // Both sides on the CPU: one line; on a device, each side's steps and copies.
  if (outcome_->compare && !(outcome_->comparison.before.deviceRun.device.empty() &&
                             outcome_->comparison.after.deviceRun.device.empty()))
    return tr("Original: %1").arg(ranOnText(outcome_->comparison.before)) + QLatin1Char('\n') +
           tr("Current: %1").arg(ranOnText(outcome_->comparison.after));
  return ranOnText(outcome_->profile);
}

void ProfilePanel::showWhere() {
  if (!outcome_) {
    where_->clear();
    where_->setToolTip({});
    where_->hide();
    return;
  }
  where_->setText(whereText());
  QString tip;
  if (outcome_->compare) {
    const QString before = fallbackText(outcome_->comparison.before);
    const QString after = fallbackText(outcome_->comparison.after);
    if (!before.isEmpty()) tip = tr("Original: %1").arg(before);
    if (!after.isEmpty())
      tip += (tip.isEmpty() ? QString() : QStringLiteral("\n\n")) + tr("Current: %1").arg(after);
  } else {
    tip = fallbackText(outcome_->profile);
  }
  where_->setToolTip(tip);
  where_->show();
}

void ProfilePanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslateUi();
  QWidget::changeEvent(event);
}

void ProfilePanel::updateEnabled() {
  const bool idle = !runner_->isRunning() && !pipeline_->isRunning();
  run_->setEnabled(idle && doc_->hasModel());
  compare_->setEnabled(idle && canCompare());
  exportCsv_->setEnabled(outcome_ != nullptr);
  exportJson_->setEnabled(outcome_ != nullptr);
  device_->setEnabled(!runner_->isRunning());
}

void ProfilePanel::onDocumentChanged(const DocumentChange& change) {
  if (change.has(DocumentChange::kModel) && change.has(DocumentChange::kFile)) {
    ++documentGeneration_;  // another model (opened or closed): its node ids mean nothing here
    clearOutcome();
  } else if (change.has(DocumentChange::kModel) && outcome_ && !stale_) {
    stale_ = true;
    summary_->setText(summaryText());
  }
  updateEnabled();
}

void ProfilePanel::clearOutcome() {
  if (!outcome_) return;
  outcome_.reset();
  stale_ = false;
  nodeModel_->setTable({});
  opModel_->setTable({});
  chart_->setOutcome(nullptr);
  roofline_->setOutcome(nullptr);
  showWhere();
  error_->hide();
  summary_->setText(tr("Not profiled yet: press Profile."));
  emit outcomeChanged();
  emit heatChanged();
}

ProfileSettings ProfilePanel::settings() const {
  return {.device = device_->currentData().toString().toStdString(),
          .threads = threads_->value(),
          .warmup = warmup_->value(),
          .repeats = repeats_->value()};
}

void ProfilePanel::setSettings(const ProfileSettings& s) {
  QString device = QString::fromStdString(s.device);
  int i = device_->findData(device);
  if (i < 0 && !device.contains(QLatin1Char(':')))  // "cuda": its first device
    i = device_->findData(device + QStringLiteral(":0"));
  if (i >= 0) device_->setCurrentIndex(i);
  threads_->setValue(s.threads);
  warmup_->setValue(s.warmup);
  repeats_->setValue(s.repeats);
}

bool ProfilePanel::canCompare() const {
  return doc_->hasModel() && !pipeline_->steps().empty();
}

bool ProfilePanel::runProfile() {
  if (!doc_->hasModel() || pipeline_->isRunning()) return false;
  auto model = std::make_shared<const ir::Model>(doc_->model().clone());
  if (!runner_->profile(std::move(model), settings())) return false;
  runGeneration_ = documentGeneration_;
  error_->hide();
  summary_->setText(tr("Profiling…"));
  return true;
}

bool ProfilePanel::runCompare() {
  if (!canCompare() || pipeline_->isRunning()) return false;
  const auto& steps = pipeline_->steps();
  CompareInput in{
      .original = steps.front()->before,
      .current = std::make_shared<const ir::Model>(doc_->model().clone()),
      .provenance = std::make_shared<const rewrite::Provenance>(steps.back()->provenance)};
  if (!runner_->compare(std::move(in), settings())) return false;
  runGeneration_ = documentGeneration_;
  error_->hide();
  summary_->setText(tr("Profiling the original and the current model…"));
  return true;
}

void ProfilePanel::showOutcome(ProfileOutcomePtr outcome) {
  if (runGeneration_ != documentGeneration_) {  // profiled a model no longer open
    updateEnabled();
    return;
  }
  outcome_ = std::move(outcome);
  stale_ = false;
  error_->hide();
  showTables();
  chart_->setOutcome(outcome_);
  roofline_->setOutcome(outcome_);
  updateEnabled();
  emit outcomeChanged();
  emit heatChanged();
}

void ProfilePanel::showError(const QString& message) {
  if (runGeneration_ != documentGeneration_) {
    updateEnabled();
    return;
  }
  error_->setText(tr("Cannot profile: %1").arg(message));
  error_->show();
  summary_->setText(outcome_ ? summaryText() : tr("Not profiled."));
  updateEnabled();
}

QString ProfilePanel::summaryText() const {
  if (!outcome_) return {};
  QString text = outcomeSummary();
  if (stale_) text += QLatin1Char(' ') + tr("(the model has changed since: profile again)");
  return text;
}

QString ProfilePanel::outcomeSummary() const {
  const pipeline::ProfileResult& p = outcome_->profile;
  if (outcome_->compare) {
    const pipeline::CompareResult& c = outcome_->comparison;
    int regressions = 0;
    for (const pipeline::NodeGroup& g : c.groups) regressions += g.regression;
    return tr("Original %1 ms → current %2 ms: %3× (%n node group(s), %4 slower; matched by "
              "%5)",
              "", static_cast<int>(c.groups.size()))
        .arg(c.latencyBefore.medianMs, 0, 'f', 3)
        .arg(c.latencyAfter.medianMs, 0, 'f', 3)
        .arg(c.speedup, 0, 'f', 2)
        .arg(regressions)
        .arg(c.matching == "provenance" ? tr("provenance") : tr("op and output names"));
  }
  return tr("Latency %1 ms (min %2, %3 runs, threads: %4); nodes %5 ms, overhead %6 ms (%7%)")
      .arg(p.latency.medianMs, 0, 'f', 3)
      .arg(p.latency.minMs, 0, 'f', 3)
      .arg(p.repeats)
      .arg(p.threads)
      .arg(p.nodeSumMs, 0, 'f', 3)
      .arg(p.overheadMs, 0, 'f', 3)
      .arg(100 * p.overheadShare, 0, 'f', 1);
}

QString ProfilePanel::errorText() const {
  return error_->isHidden() ? QString() : error_->text();
}

void ProfilePanel::showTables() {
  if (!outcome_) return;
  ir::NodeId keep = selectedNode();
  nodeModel_->setTable(outcome_->compare ? ProfileTables::groups(*outcome_)
                                         : ProfileTables::nodes(*outcome_));
  opModel_->setTable(ProfileTables::opTypes(*outcome_));
  // Regressions first (the run's order) for groups; the slowest first for nodes.
  if (outcome_->compare)
    nodeView_->sortByColumn(0, Qt::AscendingOrder);
  else
    nodeView_->sortByColumn(3, Qt::DescendingOrder);
  opView_->sortByColumn(2, Qt::DescendingOrder);
  nodeView_->resizeColumnsToContents();
  opView_->resizeColumnsToContents();
  tableTabs_->setTabText(0, outcome_->compare ? tr("Node Groups") : tr("Nodes"));
  summary_->setText(summaryText());
  showWhere();
  if (keep != 0) selectNode(keep);
}

void ProfilePanel::setFilter(const QString& text) {
  if (filter_->text() != text) filter_->setText(text);
  nodeProxy_->setFilterFixedString(text);
  opProxy_->setFilterFixedString(text);
}

bool ProfilePanel::heatShown() const {
  return heat_->isChecked();
}

void ProfilePanel::setHeatShown(bool on) {
  heat_->setChecked(on);
}

std::unordered_map<ir::NodeId, double> ProfilePanel::heatShares() const {
  std::unordered_map<ir::NodeId, double> shares;
  if (!outcome_ || !heat_->isChecked()) return shares;
  for (const pipeline::NodeTiming& n : outcome_->profile.nodes)
    if (n.depth == 0) shares[n.nodeId] += n.share;
  return shares;
}

void ProfilePanel::selectNode(ir::NodeId node) {
  syncing_ = true;
  int row = node == 0 ? -1 : nodeModel_->rowOf(node);
  QModelIndex index =
      row < 0 ? QModelIndex() : nodeProxy_->mapFromSource(nodeModel_->index(row, 0));
  if (index.isValid()) {
    nodeView_->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    nodeView_->scrollTo(index);
  } else {
    nodeView_->selectionModel()->clear();
  }
  syncing_ = false;
}

ir::NodeId ProfilePanel::selectedNode() const {
  QModelIndex i = nodeView_->selectionModel()->currentIndex();
  return i.isValid() ? i.data(ProfileTableModel::kNodeRole).toULongLong() : 0;
}

void ProfilePanel::onCurrentRow() {
  if (syncing_) return;
  if (ir::NodeId node = selectedNode(); node != 0) emit nodeActivated(node);
}

QString ProfilePanel::nodeTimingText(ir::NodeId node) const {
  if (!outcome_) return {};
  for (const pipeline::NodeTiming& n : outcome_->profile.nodes) {
    if (n.nodeId != node) continue;
    QString text = tr("Median %1 ms (min %2, p90 %3, spread %4%)")
                       .arg(n.time.medianMs, 0, 'f', 4)
                       .arg(n.time.minMs, 0, 'f', 4)
                       .arg(n.time.p90Ms, 0, 'f', 4)
                       .arg(100 * n.time.spread, 0, 'f', 1);
    if (n.time.noisy) text += QStringLiteral(" ") + tr("(noisy)");
    text += QLatin1Char('\n') + tr("%1% of the nodes' time; %2 GFLOP/s, %3 GB/s; kernel %4")
                                    .arg(100 * n.share, 0, 'f', 1)
                                    .arg(n.gflops, 0, 'f', 2)
                                    .arg(n.gbps, 0, 'f', 2)
                                    .arg(QString::fromStdString(n.kernel));
    return text;
  }
  return {};
}

QString ProfilePanel::exportJsonTo(const QString& path) const {
  if (!outcome_) return tr("Nothing profiled yet");
  return writeFile(path, QJsonDocument(profileToJson(*outcome_)).toJson(QJsonDocument::Indented));
}

QString ProfilePanel::exportCsvTo(const QString& path) const {
  if (!outcome_) return tr("Nothing profiled yet");
  return writeFile(path, profileToCsv(*outcome_));
}

void ProfilePanel::exportDialog(bool json) {
  QString path = QFileDialog::getSaveFileName(
      this, json ? tr("Export Profile as JSON") : tr("Export Profile as CSV"),
      Settings::lastDirectory.get(), json ? tr("JSON file (*.json)") : tr("CSV file (*.csv)"));
  if (path.isEmpty()) return;
  QString error = json ? exportJsonTo(path) : exportCsvTo(path);
  if (!error.isEmpty()) showError(tr("cannot write %1: %2").arg(path, error));
}

}  // namespace passlab::ui
