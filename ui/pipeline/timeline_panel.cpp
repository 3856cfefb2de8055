#include "ui/pipeline/timeline_panel.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/pipeline/timeline_model.h"

namespace passlab::ui {

TimelinePanel::TimelinePanel(PipelineSession* session, QWidget* parent)
    : QWidget(parent), session_(session) {
  model_ = new TimelineModel(session, this);
  view_ = new QTableView(this);
  view_->setModel(model_);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->verticalHeader()->hide();
  view_->horizontalHeader()->setStretchLastSection(true);
  view_->setWordWrap(false);
  view_->setAlternatingRowColors(true);
  showUnchanged_ = new QCheckBox(this);
  totals_ = new QLabel(this);
  auto* top = new QHBoxLayout;
  top->addWidget(totals_, 1);
  top->addWidget(showUnchanged_);
  auto* col = new QVBoxLayout(this);
  col->setContentsMargins(4, 4, 4, 4);
  col->addLayout(top);
  col->addWidget(view_, 1);
  connect(showUnchanged_, &QCheckBox::toggled, this, [this](bool on) {
    int keep = chosen_;
    model_->setShowUnchanged(on);
    if (keep >= 0) chooseStep(keep);
  });
  connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          &TimelinePanel::onCurrentChanged);
  connect(model_, &QAbstractItemModel::modelReset, this, &TimelinePanel::onModelReset);
  retranslateUi();
  onModelReset();
}

void TimelinePanel::onModelReset() {
  {
    const auto& steps = session_->steps();
    int n = static_cast<int>(steps.size());
    if (n == 0) {
      totals_->setText(tr("No Steps yet: press Step or Run All in the Pipeline panel."));
    } else {
      size_t first = steps.front()->step.before.nodes, last = steps.back()->step.after.nodes;
      double ms = 0;
      for (const auto& s : steps) ms += s->step.milliseconds;
      totals_->setText(
          tr("%n step(s): %1 → %2 nodes in %3 ms", "", n).arg(first).arg(last).arg(ms, 0, 'f', 1));
    }
    view_->resizeColumnsToContents();
    if (chosen_ >= n) {
      chosen_ = -1;
      emit stepChosen(-1);
    }
    int row = chosen_ >= 0 ? model_->rowOfStep(chosen_) : -1;
    if (row >= 0) {
      QSignalBlocker block(view_->selectionModel());
      view_->selectRow(row);
    }
  }
}

void TimelinePanel::retranslateUi() {
  showUnchanged_->setText(tr("Show passes that changed nothing"));
}

void TimelinePanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslateUi();
  QWidget::changeEvent(event);
}

void TimelinePanel::chooseStep(int step) {
  if (step >= 0 && model_->rowOfStep(step) < 0) showUnchanged_->setChecked(true);
  int row = model_->rowOfStep(step);
  if (row < 0) return;
  view_->selectRow(row);
  view_->scrollTo(model_->index(row, 0));
  if (chosen_ != step) {
    chosen_ = step;
    emit stepChosen(step);
  }
}

void TimelinePanel::onCurrentChanged() {
  int step = model_->stepOfRow(view_->currentIndex().row());
  if (step < 0 || step == chosen_) return;
  chosen_ = step;
  emit stepChosen(step);
}

}  // namespace passlab::ui
