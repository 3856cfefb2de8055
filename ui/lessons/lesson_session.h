// One lesson being worked through: its model is opened in the document (by
// the window), the plan becomes the lesson's pass, the student picks the nodes
// they expect it to remove or fuse, then "Check my prediction" runs the pass
// through the pipeline session (as the pipeline panel does) and judges the
// prediction against the Step's diff. A check marks the lesson completed.
#pragma once

#include <QObject>
#include <QString>

#include <optional>
#include <set>
#include <vector>

#include "ui/lessons/lesson.h"
#include "ui/lessons/prediction.h"
#include "ui/pipeline/pipeline_session.h"

namespace passlab::ui {

class LessonSession : public QObject {
  Q_OBJECT

 public:
  enum class State {
    kNone,        // no lesson
    kOpening,     // its model is being opened
    kPredicting,  // the student picks nodes
    kChecking,    // the pass runs
    kJudged,      // the verdict and the closing question are shown
  };

  LessonSession(PipelineSession* pipeline, QObject* parent);

  State state() const { return state_; }
  const Lesson* lesson() const { return lesson_ ? &*lesson_ : nullptr; }

  // Starts `lesson`: the window opens its model, then calls modelOpened().
  void begin(const Lesson& lesson);
  void modelOpened();
  // Leaves the lesson (another model was opened, or its model failed to open);
  // the pipeline gets back the plan it had before the first lesson.
  void end();

  const std::set<ir::NodeId>& prediction() const { return prediction_; }
  // While predicting: adds a node to the prediction, or takes it out again.
  void togglePredicted(ir::NodeId node);
  void clearPrediction();

  // Runs the lesson's pass; false unless predicting (or the pipeline is busy).
  bool check();
  // Back to the model before the pass, to predict again.
  void retry();
  const PredictionVerdict& verdict() const { return verdict_; }
  // Why the check gave no verdict ("" when it did).
  const QString& checkError() const { return checkError_; }
  // A node's name (its op type when unnamed) in the lesson's model.
  QString nodeLabel(ir::NodeId node) const;

 signals:
  void stateChanged(passlab::ui::LessonSession::State state);
  void predictionChanged();

 private:
  void setState(State s);
  void preparePlan();
  void onRunFinished(const QString& message);

  PipelineSession* pipeline_;
  std::optional<Lesson> lesson_;
  std::optional<std::vector<PlanEntry>> planBefore_;
  State state_ = State::kNone;
  std::set<ir::NodeId> prediction_;
  PredictionVerdict verdict_;
  QString checkError_;
};

}  // namespace passlab::ui
