// What one Step changed: the graph after it with the removed nodes overlaid
// (red), added ones (green) and rewired or rewritten ones (amber), the view
// opened at the changes; or before and after side by side, navigation synced
// through the nodes both share.
#pragma once

#include <QWidget>

#include "ui/graphview/view_settings.h"
#include "ui/pipeline/pipeline_session.h"
#include "ui/pipeline/step_diff.h"

class QLabel;
class QStackedWidget;
class QToolButton;

namespace passlab::ui {

class GraphPanel;

class DiffPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DiffPanel(const ViewSettings& settings, QWidget* parent = nullptr);
  ~DiffPanel() override;

  // Shows Step `number` (1-based); nullptr clears.
  void showStep(AppliedStepPtr step, int number);
  const AppliedStepPtr& step() const { return step_; }
  int stepNumber() const { return number_; }
  const StepDiff& diff() const { return diff_; }
  // Opens the help of this Step's pass (for tests).
  QToolButton* aboutButton() const { return aboutButton_; }

  void setSideBySide(bool on);
  bool sideBySide() const;
  // The panel the view actions (fit, zoom, export) apply to.
  GraphPanel* activePanel() const;
  GraphPanel* overlayPanel() const { return overlay_; }
  GraphPanel* beforePanel() const { return before_; }
  GraphPanel* afterPanel() const { return after_; }
  // True while any of its graphs is being laid out.
  bool isLayoutRunning() const;
  QString title() const;
  void setViewSettings(const ViewSettings& settings);
  void setMinimapVisible(bool visible);
  // Back to the changes.
  void revealChanges();

 signals:
  void titleChanged(const QString& title);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslateUi();
  void fillSideBySide();
  void sync(GraphPanel* from, GraphPanel* to);

  AppliedStepPtr step_;
  int number_ = 0;
  StepDiff diff_;
  bool sideFilled_ = false;
  bool syncing_ = false;
  Document* overlayDoc_;
  Document* beforeDoc_;
  Document* afterDoc_;
  GraphPanel* overlay_;
  GraphPanel* before_;
  GraphPanel* after_;
  QStackedWidget* stack_;
  QLabel* summary_;
  QLabel* legend_;
  QLabel* beforeTitle_;
  QLabel* afterTitle_;
  QToolButton* overlayButton_;
  QToolButton* sideButton_;
  QToolButton* revealButton_;
  QToolButton* aboutButton_;  // the help of this Step's pass
};

}  // namespace passlab::ui
