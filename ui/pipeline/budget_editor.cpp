#include "ui/pipeline/budget_editor.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QSpinBox>

#include <cmath>
#include <limits>

#include "ui/pipeline/pipeline_session.h"

namespace passlab::ui {

BudgetEditor::BudgetEditor(PipelineSession* session, QWidget* parent)
    : QWidget(parent), session_(session) {
  snr_ = new QDoubleSpinBox(this);
  snr_->setRange(-100, 300);
  snr_->setDecimals(1);
  cosine_ = new QDoubleSpinBox(this);
  cosine_->setRange(-1, 1);
  cosine_->setDecimals(4);
  cosine_->setSingleStep(0.001);
  maxRelOn_ = new QCheckBox(this);
  maxRel_ = new QDoubleSpinBox(this);
  maxRel_->setRange(0, 1000);  // the error can pass the output's largest magnitude
  maxRel_->setDecimals(3);
  maxRel_->setSingleStep(0.1);
  maxRel_->setValue(1);  // what a check box switched on starts from
  top1_ = new QDoubleSpinBox(this);
  top1_->setRange(0, 100);
  top1_->setDecimals(1);
  top1_->setSingleStep(1);
  topK_ = new QDoubleSpinBox(this);
  topK_->setRange(0, 100);
  topK_->setDecimals(1);
  topK_->setSingleStep(1);
  k_ = new QSpinBox(this);
  k_->setRange(1, 1000000);

  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->addWidget(snr_, 0, 0);
  grid->addWidget(cosine_, 0, 1);
  auto* maxRelRow = new QHBoxLayout;
  maxRelRow->setContentsMargins(0, 0, 0, 0);
  maxRelRow->addWidget(maxRelOn_);
  maxRelRow->addWidget(maxRel_, 1);
  grid->addLayout(maxRelRow, 1, 0);
  grid->addWidget(top1_, 1, 1);
  grid->addWidget(k_, 2, 0);
  grid->addWidget(topK_, 2, 1);

  // One figure per edit: the others keep the session's values exactly (a
  // recipe's 0.99995 cosine is not rounded to the box's four decimals).
  auto edit = [this](auto change) {
    pipeline::AccuracyBudget b = session_->accuracyBudget();
    change(b);
    session_->setAccuracyBudget(b);
  };
  connect(snr_, &QDoubleSpinBox::valueChanged, this,
          [edit](double v) { edit([v](pipeline::AccuracyBudget& b) { b.minSnrDb = v; }); });
  connect(cosine_, &QDoubleSpinBox::valueChanged, this,
          [edit](double v) { edit([v](pipeline::AccuracyBudget& b) { b.minCosine = v; }); });
  connect(maxRelOn_, &QCheckBox::toggled, this, [this, edit](bool on) {
    maxRel_->setEnabled(on);
    const double limit = on ? maxRel_->value() / 100 : std::numeric_limits<double>::infinity();
    edit([limit](pipeline::AccuracyBudget& b) { b.maxRelError = limit; });
  });
  connect(maxRel_, &QDoubleSpinBox::valueChanged, this, [this, edit](double v) {
    if (maxRelOn_->isChecked()) edit([v](pipeline::AccuracyBudget& b) { b.maxRelError = v / 100; });
  });
  connect(top1_, &QDoubleSpinBox::valueChanged, this,
          [edit](double v) { edit([v](pipeline::AccuracyBudget& b) { b.minTop1 = v / 100; }); });
  connect(topK_, &QDoubleSpinBox::valueChanged, this,
          [edit](double v) { edit([v](pipeline::AccuracyBudget& b) { b.minTopK = v / 100; }); });
  connect(k_, &QSpinBox::valueChanged, this, [this, edit](int v) {
    edit([v](pipeline::AccuracyBudget& b) { b.topK = v; });
    retranslateUi();  // "top-k" names the new k
  });
  // The other panel's edits; a loaded recipe (loadRecipe says planChanged).
  connect(session_, &PipelineSession::settingsChanged, this, &BudgetEditor::showBudget);
  connect(session_, &PipelineSession::planChanged, this, &BudgetEditor::showBudget);
  retranslateUi();
  showBudget();
}

void BudgetEditor::showBudget() {
  const QSignalBlocker a(snr_), b(cosine_), c(maxRelOn_), d(maxRel_), e(top1_), f(topK_), g(k_);
  const pipeline::AccuracyBudget& budget = session_->accuracyBudget();
  snr_->setValue(budget.minSnrDb);
  cosine_->setValue(budget.minCosine);
  const bool limited = std::isfinite(budget.maxRelError);
  maxRelOn_->setChecked(limited);
  maxRel_->setEnabled(limited);
  if (limited) maxRel_->setValue(budget.maxRelError * 100);
  top1_->setValue(budget.minTop1 * 100);
  topK_->setValue(budget.minTopK * 100);
  const bool newK = k_->value() != budget.topK;
  k_->setValue(budget.topK);
  if (newK) retranslateUi();
}

void BudgetEditor::setFieldToolTips(const QString& tip) {
  tip_ = tip;
  retranslateUi();
}

void BudgetEditor::retranslateUi() {
  snr_->setPrefix(tr("SNR ≥ "));
  snr_->setSuffix(tr(" dB"));
  cosine_->setPrefix(tr("cosine ≥ "));
  maxRelOn_->setText(tr("max rel ≤"));
  maxRel_->setSuffix(tr(" %"));
  top1_->setPrefix(tr("top-1 ≥ "));
  top1_->setSuffix(tr(" %"));
  top1_->setSpecialValueText(tr("top-1: not limited"));
  const QString k = QString::number(k_->value());
  k_->setPrefix(tr("k = "));
  topK_->setPrefix(tr("top-%1 ≥ ").arg(k));
  topK_->setSuffix(tr(" %"));
  topK_->setSpecialValueText(tr("top-%1: not limited").arg(k));
  auto withTip = [this](const QString& own) {
    return tip_.isEmpty() ? own : tip_ + QStringLiteral("\n\n") + own;
  };
  snr_->setToolTip(withTip(tr("The least signal-to-noise ratio of each output.")));
  cosine_->setToolTip(withTip(tr("The least cosine similarity of each output.")));
  const QString maxRelTip =
      withTip(tr("The largest error of an output relative to its largest magnitude. Off: "
                 "reported, not limited."));
  maxRelOn_->setToolTip(maxRelTip);
  maxRel_->setToolTip(maxRelTip);
  top1_->setToolTip(
      withTip(tr("For classifier outputs: the least share of rows whose top-1 class stays "
                 "the same. 0: reported, not limited.")));
  topK_->setToolTip(
      withTip(tr("For classifier outputs with more than k classes: the least share of rows "
                 "whose original top-1 class is among the output's k largest. 0: reported, "
                 "not limited.")));
  k_->setToolTip(withTip(tr("The k of the top-k agreement, limited and reported.")));
}

void BudgetEditor::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslateUi();
  QWidget::changeEvent(event);
}

}  // namespace passlab::ui
