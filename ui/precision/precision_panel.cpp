#include "ui/precision/precision_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "ui/i18n/core_text.h"
#include "ui/pipeline/budget_editor.h"
#include "ui/pipeline/pipeline_session.h"
#include "ui/precision/sensitivity_chart.h"
#include "ui/precision/tensor_histogram.h"

namespace passlab::ui {

namespace {

using Kind = PrecisionRequest::Kind;
using passes::CalibrationMethod;

bool sameSpec(const pipeline::PassSpec& a, const pipeline::PassSpec& b) {
  return a.id == b.id && a.options == b.options;
}

}  // namespace

PrecisionPanel::PrecisionPanel(Document* doc, PipelineSession* pipeline, QWidget* parent)
    : QWidget(parent), doc_(doc), pipeline_(pipeline), worker_(new PrecisionWorker(this)) {
  buildWidgets();
  connectWidgets();
  retranslateUi();
  showSettings();
  updateState();
}

PrecisionPanel::~PrecisionPanel() {
  // The run's end must not reach this panel as it is destroyed: its slots
  // read the document, which the window may have deleted before it.
  disconnect(worker_, nullptr, this, nullptr);
  worker_->cancel();
  worker_->waitForRun();
}

void PrecisionPanel::buildWidgets() {
  targetLabel_ = new QLabel(this);
  target_ = new QComboBox(this);
  for (PrecisionTarget t : availableTargets()) target_->addItem(QString(), static_cast<int>(t));
  methodLabel_ = new QLabel(this);
  method_ = new QComboBox(this);
  for (CalibrationMethod m :
       {CalibrationMethod::kMinMax, CalibrationMethod::kPercentile, CalibrationMethod::kEntropy})
    method_->addItem(QString(), static_cast<int>(m));
  perChannel_ = new QCheckBox(this);
  perChannel_->setChecked(true);
  calibrationText_ = new QLabel(this);
  calibrationText_->setWordWrap(true);
  chooseFolder_ = new QPushButton(this);
  setsLabel_ = new QLabel(this);
  sets_ = new QSpinBox(this);
  sets_->setRange(1, 10000);
  budgetLabel_ = new QLabel(this);
  budget_ = new BudgetEditor(pipeline_, this);
  rank_ = new QPushButton(this);
  mixed_ = new QPushButton(this);
  calibrate_ = new QPushButton(this);
  cancel_ = new QPushButton(this);
  progress_ = new QProgressBar(this);
  progress_->setTextVisible(false);
  progress_->setMaximumHeight(10);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setStyleSheet(QStringLiteral("color: #c0392b;"));
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_->hide();
  chart_ = new SensitivityChart(this);
  auto* chartScroll = new QScrollArea(this);
  chartScroll->setWidgetResizable(true);
  chartScroll->setFrameShape(QFrame::NoFrame);
  chartScroll->setWidget(chart_);
  chartScroll->setMinimumHeight(180);
  histogramHint_ = new QLabel(this);
  histogramHint_->setWordWrap(true);
  histogram_ = new TensorHistogram(this);

  auto* targetRow = new QHBoxLayout;
  targetRow->addWidget(targetLabel_);
  targetRow->addWidget(target_, 1);
  targetRow->addWidget(methodLabel_);
  targetRow->addWidget(method_);
  targetRow->addWidget(perChannel_);
  auto* calibrationRow = new QHBoxLayout;
  calibrationRow->addWidget(calibrationText_, 1);
  calibrationRow->addWidget(chooseFolder_);
  calibrationRow->addWidget(setsLabel_);
  calibrationRow->addWidget(sets_);
  auto* budgetRow = new QHBoxLayout;
  budgetRow->addWidget(budgetLabel_, 0, Qt::AlignTop);
  budgetRow->addWidget(budget_);
  budgetRow->addStretch(1);
  auto* buttons = new QHBoxLayout;
  for (QPushButton* b : {rank_, mixed_, calibrate_, cancel_}) buttons->addWidget(b);
  buttons->addWidget(progress_, 1);
  auto* col = new QVBoxLayout(this);
  col->setContentsMargins(4, 4, 4, 4);
  col->addLayout(targetRow);
  col->addLayout(calibrationRow);
  col->addLayout(budgetRow);
  col->addLayout(buttons);
  col->addWidget(status_);
  col->addWidget(message_);
  col->addWidget(chartScroll, 3);
  col->addWidget(histogramHint_);
  col->addWidget(histogram_, 1);
}

void PrecisionPanel::connectWidgets() {
  connect(target_, &QComboBox::currentIndexChanged, this, [this] { updateState(); });
  connect(method_, &QComboBox::currentIndexChanged, this, [this] { showHistogram(); });
  connect(chooseFolder_, &QPushButton::clicked, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Calibration data"), QString::fromStdString(pipeline_->calibrationFolder()));
    if (!dir.isEmpty()) pipeline_->setCalibrationFolder(dir.toStdString());
  });
  // Asking for a number of synthesized sets means using them.
  connect(sets_, &QSpinBox::valueChanged, this, [this](int n) {
    pipeline_->setCalibrationFolder({});
    pipeline_->setSynthesizedCalibrationSets(n);
  });
  connect(rank_, &QPushButton::clicked, this, &PrecisionPanel::rankLayers);
  connect(mixed_, &QPushButton::clicked, this, &PrecisionPanel::mixedPrecision);
  connect(calibrate_, &QPushButton::clicked, this, &PrecisionPanel::calibrate);
  connect(cancel_, &QPushButton::clicked, this, &PrecisionPanel::cancel);
  connect(worker_, &PrecisionWorker::runningChanged, this, [this] { updateState(); });
  connect(worker_, &PrecisionWorker::progress, this, [this](int done, int total) {
    progress_->setRange(0, std::max(1, total));
    progress_->setValue(done);
  });
  connect(worker_, &PrecisionWorker::finished, this, &PrecisionPanel::onFinished);
  connect(worker_, &PrecisionWorker::failed, this, &PrecisionPanel::onFailed);
  connect(chart_, &SensitivityChart::layerClicked, this,
          [this](int, quint64 node) { emit nodeActivated(node); });
  connect(pipeline_, &PipelineSession::settingsChanged, this, &PrecisionPanel::showSettings);
  connect(pipeline_, &PipelineSession::runningChanged, this, [this] { updateState(); });
  connect(pipeline_, &PipelineSession::stepsChanged, this, &PrecisionPanel::onStepsChanged);
  connect(pipeline_, &PipelineSession::runFinished, this, [this](const QString& message) {
    if (!waitingForStep_) return;
    waitingForStep_ = false;
    const auto& steps = pipeline_->steps();
    const bool ours = !steps.empty() && !steps.back()->step.rolledBack &&
                      std::set<ir::NodeId>(steps.back()->filter.excluded.begin(),
                                           steps.back()->filter.excluded.end()) == pendingKept_;
    if (ours) {
      keptStep_ = steps.back().get();
      keptOfStep_ = pendingKept_;
      onStepsChanged();
    } else if (!message.isEmpty()) {
      showMessage(message);
    }
  });
  connect(doc_, &Document::changed, this, [this](const DocumentChange& c) {
    if (!c.has(DocumentChange::kModel) && !c.has(DocumentChange::kStructure) &&
        !c.has(DocumentChange::kNodes))
      return;
    ++generation_;
    if (c.has(DocumentChange::kFile)) {  // another model: nothing of the last one applies
      ranking_.reset();
      chart_->setRanking({});
      calibration_.clear();
      keptStep_ = nullptr;
      keptOfStep_.clear();
      summary_.clear();
      selectedTensor_.clear();
      showMessage({});
      onStepsChanged();
    }
    showHistogram();
    updateState();
  });
}

void PrecisionPanel::retranslateUi() {
  targetLabel_->setText(tr("Convert to:"));
  for (int i = 0; i < target_->count(); ++i)
    target_->setItemText(i, targetText(static_cast<PrecisionTarget>(target_->itemData(i).toInt())));
  methodLabel_->setText(tr("Method:"));
  for (int i = 0; i < method_->count(); ++i)
    method_->setItemText(i,
                         methodText(static_cast<CalibrationMethod>(method_->itemData(i).toInt())));
  method_->setToolTip(tr("How an activation's range is chosen from its calibration values"));
  perChannel_->setText(tr("Per channel"));
  perChannel_->setToolTip(tr("One weight scale per output channel (else one per tensor)"));
  chooseFolder_->setText(tr("Choose a folder…"));
  chooseFolder_->setToolTip(
      tr("One subfolder per input set, each with input_0.pb or input_0.npy, input_1…, in the "
         "order of the model's inputs"));
  setsLabel_->setText(tr("or synthesized sets:"));
  budgetLabel_->setText(tr("Accuracy budget:"));
  rank_->setText(tr("Rank Layers"));
  rank_->setToolTip(
      tr("Convert each layer alone and measure the outputs: the most sensitive "
         "layer loses the most SNR"));
  mixed_->setText(tr("Mixed Precision"));
  mixed_->setToolTip(
      tr("Keep the fewest most sensitive layers in float32 for the budget to "
         "hold, and apply the pass with them left out as a pipeline Step"));
  calibrate_->setText(tr("Calibrate"));
  calibrate_->setToolTip(
      tr("Run the model on the calibration sets and keep every activation's "
         "histogram: select a tensor in the graph to see it"));
  cancel_->setText(tr("Cancel"));
  showSettings();
  showHistogram();
  updateState();
}

void PrecisionPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslateUi();
  QWidget::changeEvent(event);
}

PrecisionChoice PrecisionPanel::choice() const {
  PrecisionChoice c;
  c.target = static_cast<PrecisionTarget>(target_->currentData().toInt());
  c.method = static_cast<CalibrationMethod>(method_->currentData().toInt());
  c.perChannel = perChannel_->isChecked();
  return c;
}

void PrecisionPanel::setChoice(const PrecisionChoice& c) {
  target_->setCurrentIndex(std::max(0, target_->findData(static_cast<int>(c.target))));
  method_->setCurrentIndex(std::max(0, method_->findData(static_cast<int>(c.method))));
  perChannel_->setChecked(c.perChannel);
  updateState();
}

// The pipeline session's budget and calibration data, as they are now.
void PrecisionPanel::showSettings() {
  const QSignalBlocker block(sets_);  // the budget: budget_ follows it
  sets_->setValue(pipeline_->synthesizedCalibrationSets());
  const std::string& folder = pipeline_->calibrationFolder();
  calibrationText_->setText(folder.empty()
                                ? tr("Calibration data: %n synthesized input set(s)", "",
                                     pipeline_->synthesizedCalibrationSets())
                                : tr("Calibration data: %1").arg(QString::fromStdString(folder)));
}

void PrecisionPanel::updateState() {
  const bool busy = worker_->isRunning() || pipeline_->isRunning();
  const bool canRun = doc_->hasModel() && !busy;
  const bool isStatic = calibrates(choice().target);
  methodLabel_->setVisible(isStatic);
  method_->setVisible(isStatic);
  perChannel_->setVisible(isStatic);
  for (QPushButton* b : {rank_, mixed_, calibrate_}) b->setEnabled(canRun);
  cancel_->setEnabled(worker_->isRunning());
  progress_->setVisible(worker_->isRunning());
  if (worker_->isRunning())
    status_->setText(tr("Measuring…"));
  else if (!doc_->hasModel())
    status_->setText(tr("No model open."));
  else
    status_->setText(summary_);
}

QString PrecisionPanel::summaryText() const {
  return status_->text();
}

QString PrecisionPanel::messageText() const {
  return message_->isHidden() ? QString() : message_->text();
}

void PrecisionPanel::showMessage(const QString& text) {
  message_->setText(text);
  message_->setVisible(!text.isEmpty());
}

bool PrecisionPanel::rankingCurrent() const {
  return ranking_ && rankingGeneration_ == generation_ &&
         sameSpec(ranking_->spec, specOf(choice()));
}

bool PrecisionPanel::startWorker(Kind kind) {
  if (!doc_->hasModel() || worker_->isRunning() || pipeline_->isRunning()) return false;
  PrecisionRequest r;
  r.kind = kind;
  r.model = std::make_shared<const ir::Model>(doc_->model().clone());
  r.spec = specOf(choice());
  r.calibrationFolder = pipeline_->calibrationFolder();
  r.synthesizedSets = pipeline_->synthesizedCalibrationSets();
  r.checkSets = pipeline_->checkInputSets();
  r.budget = pipeline_->accuracyBudget();
  // A ranking measured with another k than the budget's is made again.
  if (kind == Kind::kMixed && rankingCurrent() && ranking_->topK == r.budget.topK) {
    r.ranked = ranking_->ranked;
    r.rankedTopK = ranking_->topK;
  }
  showMessage({});
  progress_->setRange(0, 0);  // busy until the first report
  if (!worker_->start(std::move(r))) return false;
  startGeneration_ = generation_;
  updateState();
  return true;
}

bool PrecisionPanel::rankLayers() {
  return startWorker(Kind::kRank);
}

bool PrecisionPanel::mixedPrecision() {
  return startWorker(Kind::kMixed);
}

bool PrecisionPanel::calibrate() {
  return startWorker(Kind::kCalibrate);
}

void PrecisionPanel::cancel() {
  worker_->cancel();
}

void PrecisionPanel::onFailed(const QString& message) {
  showMessage(message);
  updateState();
}

void PrecisionPanel::onFinished(PrecisionOutcomePtr outcome) {
  // The model changed meanwhile: its node ids and values may be gone.
  if (startGeneration_ != generation_ || !doc_->hasModel()) {
    showMessage(tr("The model changed while it was measured; the result was dropped."));
    updateState();
    return;
  }
  if (outcome->kind == Kind::kCalibrate) {
    calibration_ = outcome->calibration;
    calibrationGeneration_ = generation_;
    summary_ =
        tr("Calibrated %n activation(s): select a tensor in the graph to see its "
           "histogram",
           "", static_cast<int>(calibration_.size()));
    showHistogram();
    updateState();
    return;
  }
  ranking_ = outcome;
  rankingGeneration_ = generation_;
  const QString pass = QString::fromStdString(outcome->spec.id);
  summary_ = tr("%1: %n layer(s) convert alone; the most sensitive on top", "",
                static_cast<int>(outcome->ranked.size()))
                 .arg(pass);
  if (outcome->mixed) {
    applyMixed(*outcome);
  } else {
    chart_->setRanking(outcome->ranked, shownKept_, outcome->topK);
  }
  updateState();
}

// Mixed precision's answer becomes a pipeline Step: the pass with the kept
// nodes excluded.
void PrecisionPanel::applyMixed(const PrecisionOutcome& outcome) {
  const pipeline::MixedPrecision& m = *outcome.mixed;
  if (pipeline::convertsNothingWithinBudget(m, outcome.ranked.size())) {
    // Only every layer kept holds the budget: that is the model unchanged,
    // no Step (passlab-cli precision -o exits 2 and saves nothing).
    chart_->setRanking(outcome.ranked, shownKept_, outcome.topK);
    showMessage(
        tr("The budget cannot be met: %1 holds it only with every layer it converts "
           "kept in float32. With only the least sensitive converted: %2")
            .arg(QString::fromStdString(outcome.spec.id), trCore(m.missWithOneFewer.detail)));
    return;
  }
  pendingKept_ = std::set<ir::NodeId>(m.keptFloat32.begin(), m.keptFloat32.end());
  chart_->setRanking(outcome.ranked, pendingKept_, outcome.topK);
  summary_ = tr("%1: %2 of %3 layer(s) kept in float32 for the budget (%4 conversions tried)")
                 .arg(QString::fromStdString(outcome.spec.id))
                 .arg(m.keptFloat32.size())
                 .arg(outcome.ranked.size())
                 .arg(m.conversions);
  pipeline::PassSpec spec = outcome.spec;
  spec.filter.excluded.insert(pendingKept_.begin(), pendingKept_.end());
  waitingForStep_ = pipeline_->runSpec(spec);
  if (!waitingForStep_) showMessage(tr("The pipeline is busy: the Step was not applied."));
}

void PrecisionPanel::onStepsChanged() {
  std::set<ir::NodeId> kept;
  for (const AppliedStepPtr& s : pipeline_->steps())
    if (s.get() == keptStep_) kept = keptOfStep_;
  if (kept == shownKept_) return;
  shownKept_ = std::move(kept);
  emit keptNodesChanged();
}

void PrecisionPanel::selectTensor(const QString& name) {
  selectedTensor_ = name;
  showHistogram();
}

void PrecisionPanel::showHistogram() {
  std::optional<TensorCalibration> stats;
  const bool calibrated = !calibration_.empty() && calibrationGeneration_ == generation_;
  if (calibrated)
    if (auto it = calibration_.find(selectedTensor_.toStdString()); it != calibration_.end())
      stats = it->second;
  histogram_->setTensor(selectedTensor_, stats, choice().method);
  histogram_->setVisible(stats.has_value());
  if (!calibrated)
    histogramHint_->setText(
        tr("Calibrate, then select a tensor in the graph to see its "
           "histogram and the range the method quantizes to."));
  else if (!stats)
    histogramHint_->setText(selectedTensor_.isEmpty()
                                ? tr("Select a tensor in the graph to see its histogram.")
                                : tr("'%1' is not a float32 activation the calibration observed.")
                                      .arg(selectedTensor_));
  else
    histogramHint_->setText(histogram_->caption());
}

}  // namespace passlab::ui
