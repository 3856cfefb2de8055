// Settings: language (applied at once), layout engine, timeout, grouping.
#pragma once

#include <QDialog>

#include "ui/graphview/view_settings.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace passlab::ui {

class SettingsDialog : public QDialog {
  Q_OBJECT

 public:
  explicit SettingsDialog(QWidget* parent = nullptr);

  // "" follows the system.
  QString language() const;
  void setLanguage(const QString& code);
  ViewSettings viewSettings() const;
  void setViewSettings(const ViewSettings& v);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslateUi();

  QLabel* languageLabel_;
  QComboBox* language_;
  QLabel* engineLabel_;
  QComboBox* engine_;
  QLabel* helperLabel_;
  QLineEdit* helper_;
  QLabel* timeoutLabel_;
  QSpinBox* timeout_;
  QLabel* thresholdLabel_;
  QSpinBox* threshold_;
  QLabel* budgetLabel_;
  QSpinBox* budget_;
  QCheckBox* edgeLabels_;
  QCheckBox* fitOnOpen_;
  QLabel* helperFound_;
  QDialogButtonBox* buttons_;
};

}  // namespace passlab::ui
