#include "ui/mainwindow/settings_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include "core/layout/layout_engine.h"
#include "ui/mainwindow/language.h"

namespace passlab::ui {

SettingsDialog::SettingsDialog(QWidget* parent) : QDialog(parent) {
  auto* form = new QFormLayout;
  languageLabel_ = new QLabel(this);
  language_ = new QComboBox(this);
  language_->addItem(QString(), QString());  // "system", text set in retranslateUi
  for (const QString& code : Language::available())
    language_->addItem(Language::nativeName(code), code);
  form->addRow(languageLabel_, language_);

  engineLabel_ = new QLabel(this);
  engine_ = new QComboBox(this);
  engine_->addItem(QString());
  engine_->addItem(QString());
  form->addRow(engineLabel_, engine_);
  helperLabel_ = new QLabel(this);
  helper_ = new QLineEdit(this);
  form->addRow(helperLabel_, helper_);
  helperFound_ = new QLabel(this);
  helperFound_->setWordWrap(true);
  form->addRow(QString(), helperFound_);
  timeoutLabel_ = new QLabel(this);
  timeout_ = new QSpinBox(this);
  timeout_->setRange(1, 3600);
  form->addRow(timeoutLabel_, timeout_);
  thresholdLabel_ = new QLabel(this);
  threshold_ = new QSpinBox(this);
  threshold_->setRange(0, 1000000);
  form->addRow(thresholdLabel_, threshold_);
  budgetLabel_ = new QLabel(this);
  budget_ = new QSpinBox(this);
  budget_->setRange(5, 100000);
  form->addRow(budgetLabel_, budget_);
  edgeLabels_ = new QCheckBox(this);
  form->addRow(QString(), edgeLabels_);
  fitOnOpen_ = new QCheckBox(this);
  form->addRow(QString(), fitOnOpen_);

  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* col = new QVBoxLayout(this);
  col->addLayout(form);
  col->addWidget(buttons_);
  connect(helper_, &QLineEdit::textChanged, this, [this] { retranslateUi(); });
  retranslateUi();
}

void SettingsDialog::retranslateUi() {
  setWindowTitle(tr("Settings"));
  languageLabel_->setText(tr("Language"));
  language_->setItemText(
      0, tr("System default (%1)").arg(Language::nativeName(Language::systemLanguage())));
  engineLabel_->setText(tr("Layout"));
  engine_->setItemText(0, tr("Graphviz dot in a helper process, built-in layout if it fails"));
  engine_->setItemText(1, tr("Built-in layered layout only"));
  helperLabel_->setText(tr("Layout helper"));
  helper_->setPlaceholderText(tr("found automatically"));
  QString found = helper_->text().isEmpty() ? QString::fromStdString(layout::findLayoutHelper())
                                            : helper_->text();
  helperFound_->setText(found.isEmpty()
                            ? tr("passlab-layout was not found: the built-in layout will be used.")
                            : tr("Using %1").arg(found));
  timeoutLabel_->setText(tr("Stop Graphviz after (seconds)"));
  thresholdLabel_->setText(tr("Group graphs with more nodes than"));
  budgetLabel_->setText(tr("Open groups at first while boxes stay under"));
  edgeLabels_->setText(tr("Label arrows with element type and shape"));
  fitOnOpen_->setText(
      tr("Fit the whole graph when opening a model (else: readable size, at "
         "its inputs)"));
}

void SettingsDialog::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslateUi();
  QDialog::changeEvent(event);
}

QString SettingsDialog::language() const {
  return language_->currentData().toString();
}

void SettingsDialog::setLanguage(const QString& code) {
  int i = language_->findData(code);
  language_->setCurrentIndex(i < 0 ? 0 : i);
}

ViewSettings SettingsDialog::viewSettings() const {
  ViewSettings v;
  v.useGraphviz = engine_->currentIndex() == 0;
  v.helperPath = helper_->text().trimmed();
  v.layoutTimeoutSeconds = timeout_->value();
  v.groupingThreshold = threshold_->value();
  v.boxBudget = budget_->value();
  v.edgeLabels = edgeLabels_->isChecked();
  v.fitOnOpen = fitOnOpen_->isChecked();
  return v;
}

void SettingsDialog::setViewSettings(const ViewSettings& v) {
  engine_->setCurrentIndex(v.useGraphviz ? 0 : 1);
  helper_->setText(v.helperPath);
  timeout_->setValue(v.layoutTimeoutSeconds);
  threshold_->setValue(v.groupingThreshold);
  budget_->setValue(v.boxBudget);
  edgeLabels_->setChecked(v.edgeLabels);
  fitOnOpen_->setChecked(v.fitOnOpen);
}

}  // namespace passlab::ui
