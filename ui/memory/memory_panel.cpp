#include "ui/memory/memory_panel.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

#include "ui/i18n/core_text.h"
#include "ui/memory/memory_chart.h"
#include "ui/pipeline/pipeline_session.h"

namespace passlab::ui {

MemoryPanel::MemoryPanel(Document* doc, PipelineSession* pipeline, QWidget* parent)
    : QWidget(parent), doc_(doc), pipeline_(pipeline), planner_(new MemoryPlanner(this)) {
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setStyleSheet(QStringLiteral("color: #c0392b;"));
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_->hide();
  chart_ = new MemoryChart(this);
  auto* col = new QVBoxLayout(this);
  col->setContentsMargins(4, 4, 4, 4);
  col->addWidget(summary_);
  col->addWidget(message_);
  col->addWidget(chart_, 1);

  connect(planner_, &MemoryPlanner::finished, this, &MemoryPanel::showOutcome);
  connect(planner_, &MemoryPlanner::runningChanged, this, &MemoryPanel::showText);
  connect(chart_, &MemoryChart::bandClicked, this, &MemoryPanel::onBandClicked);
  connect(doc_, &Document::changed, this, &MemoryPanel::onDocumentChanged);
  connect(pipeline_, &PipelineSession::stepsChanged, this, &MemoryPanel::onStepsChanged);
  retranslateUi();
}

MemoryPanel::~MemoryPanel() {
  // The run's end must not reach this panel as it is destroyed: its slots
  // read the document, which the window may have deleted before it.
  disconnect(planner_, nullptr, this, nullptr);
  planner_->cancel();
  planner_->waitForRun();
}

void MemoryPanel::retranslateUi() {
  showText();
  chart_->update();
}

void MemoryPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslateUi();
  QWidget::changeEvent(event);
}

void MemoryPanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (stale_) requestPlan();
}

void MemoryPanel::showStep(int step) {
  if (step == step_) return;
  step_ = step;
  stale_ = true;
  if (isVisible()) requestPlan();
}

void MemoryPanel::onDocumentChanged(const DocumentChange& change) {
  if (!change.has(DocumentChange::kModel) && !change.has(DocumentChange::kStructure) &&
      !change.has(DocumentChange::kNodes))
    return;
  stale_ = true;
  if (step_ < 0 && isVisible()) requestPlan();
}

void MemoryPanel::onStepsChanged() {
  if (step_ >= static_cast<int>(pipeline_->steps().size())) showStep(-1);  // undone
}

bool MemoryPanel::refresh() {
  requestPlan();
  return planner_->isRunning();
}

void MemoryPanel::requestPlan() {
  stale_ = false;
  MemoryRequest request;
  const auto& steps = pipeline_->steps();
  if (step_ >= 0 && step_ < static_cast<int>(steps.size())) {
    const AppliedStepPtr& s = steps[static_cast<size_t>(step_)];
    request = {.model = s->after, .before = s->before, .step = step_};
  } else if (doc_->hasModel()) {
    request.model = std::make_shared<const ir::Model>(doc_->model().clone());
  } else {
    planner_->cancel();
    outcome_.reset();
    chart_->setOutcome(nullptr);
    showText();
    return;
  }
  planner_->plan(std::move(request));
}

void MemoryPanel::showOutcome(MemoryOutcomePtr outcome) {
  outcome_ = std::move(outcome);
  chart_->setOutcome(outcome_);
  showText();
}

void MemoryPanel::showText() {
  const QString problem = outcome_ ? problemText(outcome_->current) : QString();
  message_->setText(problem);
  message_->setVisible(!problem.isEmpty());
  summary_->setText(summaryText());
}

QString MemoryPanel::summaryText() const {
  if (planner_->isRunning()) return tr("Planning the memory…");
  if (!outcome_) return doc_->hasModel() ? QString() : tr("No model open.");
  if (outcome_->current.state != MemoryTimeline::State::kPlanned) return {};
  return outcome_->before ? comparisonSummary() : timelineSummary(outcome_->current);
}

QString MemoryPanel::messageText() const {
  return message_->isHidden() ? QString() : message_->text();
}

QString MemoryPanel::timelineSummary(const MemoryTimeline& t) const {
  const exec::memory::MemoryPlan& p = t.plan;
  return runNote(t) +
         tr("Peak %1 live at step %2 (%3); lower bound %4, planned peak %5 (%6×, %7); %n "
            "tensor(s) over %8 steps (in place: %9, views: %10)",
            "", static_cast<int>(p.tensors.size()))
             .arg(memoryBytesText(p.lowerBound))
             .arg(p.peakStep)
             .arg(QString::fromStdString(p.peakNode), memoryBytesText(p.lowerBound),
                  memoryBytesText(p.peak))
             .arg(p.ratio(), 0, 'f', 3)
             .arg(QString::fromStdString(p.strategy))
             .arg(p.stepCount)
             .arg(p.inPlaceCount)
             .arg(p.viewCount) +
         outsideSummary(p) + scratchRunNote(t);
}

QString MemoryPanel::scratchRunNote(const MemoryTimeline& t) const {
  if (t.scratchRunError.empty()) return {};
  return QLatin1Char('\n') +
         tr("Kernel scratch not planned: the run on synthesized inputs that asks for it failed: "
            "%1")
             .arg(trCore(t.scratchRunError));
}

QString MemoryPanel::outsideSummary(const exec::memory::MemoryPlan& p) const {
  QString text;
  if (!p.outside.empty()) {
    text += QLatin1Char('\n') +
            tr("Graph outputs outside the block: %n (%1); with them peak %2, lower bound %3 "
               "(%4×)",
               "", static_cast<int>(p.outside.size()))
                .arg(memoryBytesText(p.outsideBytes), memoryBytesText(p.peakWithOutside()),
                     memoryBytesText(p.lowerBoundWithOutside))
                .arg(p.ratioWithOutside(), 0, 'f', 3);
    if (p.inOutputsCount > 0)
      text += tr("; %n tensor(s) placed inside their buffers (%1)", "", p.inOutputsCount)
                  .arg(memoryBytesText(p.inOutputsBytes));
  }
  if (p.scratchCount > 0)
    text += QLatin1Char('\n') +
            tr("Kernel scratch of %n step(s) of the run planned with the tensors (%1)", "",
               p.scratchCount)
                .arg(memoryBytesText(p.scratchBytes));
  return text;
}

QString MemoryPanel::comparisonSummary() const {
  const MemoryTimeline& after = outcome_->current;
  QString text;
  if (outcome_->before->state == MemoryTimeline::State::kPlanned) {
    const exec::memory::MemoryPlan& b = outcome_->before->plan;
    const exec::memory::MemoryPlan& a = after.plan;
    text = tr("Step %1: peak %2 → %3 live, planned peak %4 → %5, steps %6 → %7")
               .arg(outcome_->step + 1)
               .arg(memoryBytesText(b.lowerBound), memoryBytesText(a.lowerBound),
                    memoryBytesText(b.peak), memoryBytesText(a.peak))
               .arg(b.stepCount)
               .arg(a.stepCount);
    // A step's kernel scratch may be the peak before and after (a
    // Convolution's): the tensors' own peaks tell what the Step changed.
    if (a.scratchCount > 0 || b.scratchCount > 0)
      text += tr("; without kernel scratch, peak %1 → %2 live")
                  .arg(memoryBytesText(b.lowerBoundWithoutScratch),
                       memoryBytesText(a.lowerBoundWithoutScratch));
  } else {
    text = tr("Step %1: the model before it has no plan (%2)")
               .arg(outcome_->step + 1)
               .arg(problemText(*outcome_->before));
  }
  return text + QLatin1Char('\n') + timelineSummary(after);
}

QString MemoryPanel::runNote(const MemoryTimeline& t) const {
  if (!t.plannedFromRun) return {};
  QStringList inputs;
  for (const Text& input : t.runInputs) inputs << trCore(input);
  return tr("The size of '%1' (written by %2) is known only at run time: planned from one run on "
            "synthesized inputs (%3). Other input sizes plan differently.")
             .arg(QString::fromStdString(t.unknownTensor),
                  QString::fromStdString(t.unknownProducer), inputs.join(QStringLiteral("; "))) +
         QLatin1Char('\n');
}

QString MemoryPanel::problemText(const MemoryTimeline& t) const {
  switch (t.state) {
    case MemoryTimeline::State::kPlanned:
    case MemoryTimeline::State::kCancelled:
      return {};
    case MemoryTimeline::State::kSizesUnknown:
      return tr("The size of '%1' (written by %2) is known only at run time, and the run on "
                "synthesized inputs that would plan it failed: %3")
          .arg(QString::fromStdString(t.unknownTensor), QString::fromStdString(t.unknownProducer),
               trCore(t.error));
    case MemoryTimeline::State::kFailed:
      return tr("Cannot plan the memory: %1").arg(trCore(t.error));
  }
  return {};
}

void MemoryPanel::onBandClicked(int band) {
  if (!outcome_ || band < 0 || band >= static_cast<int>(outcome_->current.bands.size())) return;
  const MemoryBand& b = outcome_->current.bands[static_cast<size_t>(band)];
  const auto& tensor = outcome_->current.tensorOf(b);
  if (tensor.scratch) return;  // no tensor: a step's kernel scratch
  QList<quint64> readers(b.readers.begin(), b.readers.end());
  emit tensorActivated(QString::fromStdString(tensor.name), b.producer, readers);
}

}  // namespace passlab::ui
