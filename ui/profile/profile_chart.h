// The Profile dock's bar chart (Qt Charts): the nodes or op types that took
// the most time, or in compare mode the node groups with their time before
// and after side by side.
#pragma once

#include <QChartView>

#include "ui/profile/profile_runner.h"

namespace passlab::ui {

class ProfileChart : public QChartView {
  Q_OBJECT

 public:
  enum class Subject { kNodes, kOpTypes };
  explicit ProfileChart(QWidget* parent = nullptr);

  void setOutcome(ProfileOutcomePtr outcome);
  void setSubject(Subject s);
  Subject subject() const { return subject_; }
  // Bars shown (for tests).
  int barCount() const { return bars_; }

  static constexpr int kTop = 6;

 private:
  void rebuild();

  ProfileOutcomePtr outcome_;
  Subject subject_ = Subject::kNodes;
  int bars_ = 0;
};

}  // namespace passlab::ui
