// The Timeline dock: one row per applied Step (see TimelineModel); choosing a
// row shows what that Step changed.
#pragma once

#include <QWidget>

#include "ui/pipeline/pipeline_session.h"

class QCheckBox;
class QLabel;
class QTableView;

namespace passlab::ui {

class TimelineModel;

class TimelinePanel : public QWidget {
  Q_OBJECT

 public:
  explicit TimelinePanel(PipelineSession* session, QWidget* parent = nullptr);

  TimelineModel* model() const { return model_; }
  QTableView* view() const { return view_; }
  // Selects the row of Step `step` (0-based), showing folded Steps if needed.
  void chooseStep(int step);
  int chosenStep() const { return chosen_; }

 signals:
  // A Step was chosen (0-based index into PipelineSession::steps()), or -1.
  void stepChosen(int step);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslateUi();
  void onCurrentChanged();
  void onModelReset();

  PipelineSession* session_;
  TimelineModel* model_;
  QTableView* view_;
  QCheckBox* showUnchanged_;
  QLabel* totals_;
  int chosen_ = -1;
};

}  // namespace passlab::ui
