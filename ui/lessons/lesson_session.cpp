#include "ui/lessons/lesson_session.h"

#include "ui/i18n/core_text.h"
#include "ui/lessons/lesson_settings.h"

namespace passlab::ui {

LessonSession::LessonSession(PipelineSession* pipeline, QObject* parent)
    : QObject(parent), pipeline_(pipeline) {
  connect(pipeline_, &PipelineSession::runFinished, this, &LessonSession::onRunFinished);
}

void LessonSession::setState(State s) {
  state_ = s;
  emit stateChanged(s);
}

void LessonSession::begin(const Lesson& lesson) {
  if (!planBefore_) planBefore_ = pipeline_->plan();
  lesson_ = lesson;
  prediction_.clear();
  verdict_ = {};
  checkError_.clear();
  emit predictionChanged();
  setState(State::kOpening);
}

void LessonSession::modelOpened() {
  if (state_ != State::kOpening) return;
  preparePlan();
  setState(State::kPredicting);
}

void LessonSession::end() {
  if (state_ == State::kNone) return;
  lesson_.reset();
  prediction_.clear();
  if (planBefore_) pipeline_->setPlan(std::move(*planBefore_));
  planBefore_.reset();
  emit predictionChanged();
  setState(State::kNone);
}

void LessonSession::preparePlan() {
  pipeline_->setPlan({PlanEntry{lesson_->pass, true, lesson_->options}});
}

void LessonSession::togglePredicted(ir::NodeId node) {
  if (state_ != State::kPredicting) return;
  if (!prediction_.erase(node)) prediction_.insert(node);
  emit predictionChanged();
}

void LessonSession::clearPrediction() {
  if (state_ != State::kPredicting || prediction_.empty()) return;
  prediction_.clear();
  emit predictionChanged();
}

bool LessonSession::check() {
  if (state_ != State::kPredicting || pipeline_->isRunning()) return false;
  checkError_.clear();
  verdict_ = {};
  setState(State::kChecking);
  if (!pipeline_->step()) {
    checkError_ = tr("The pass could not start: is the lesson's model open?");
    setState(State::kJudged);
    return false;
  }
  return true;
}

void LessonSession::onRunFinished(const QString& message) {
  if (state_ != State::kChecking) return;
  const auto& steps = pipeline_->steps();
  if (steps.empty()) {
    checkError_ = message.isEmpty() ? tr("The pass did not run.") : message;
  } else if (const pipeline::Step& s = steps.back()->step; s.rolledBack || s.skipped) {
    // No verdict on a pass that failed or did not apply: the lesson needs fixing.
    checkError_ = s.rolledBack ? tr("The pass failed and was rolled back: %1").arg(trCore(s.error))
                               : tr("The pass did not apply: %1").arg(trCore(s.note));
  } else {
    verdict_ = judgePrediction(prediction_, nodesRemovedBy(*steps.back()));
    LessonSettings::markCompleted(lesson_->id);
  }
  setState(State::kJudged);
}

void LessonSession::retry() {
  if (state_ != State::kJudged || pipeline_->isRunning()) return;
  if (!pipeline_->steps().empty()) pipeline_->reset();
  preparePlan();
  verdict_ = {};
  checkError_.clear();
  setState(State::kPredicting);
}

QString LessonSession::nodeLabel(ir::NodeId node) const {
  const ir::Model* model = nullptr;
  if (!pipeline_->steps().empty())
    model = pipeline_->steps().front()->before.get();
  else if (pipeline_->document()->hasModel())
    model = &pipeline_->document()->model();
  if (model == nullptr) return QString::number(node);
  for (const auto& n : model->graph().nodes())
    if (n->id() == node)
      return n->name().empty() ? QString::fromStdString(n->opType())
                               : QStringLiteral("%1 (%2)").arg(QString::fromStdString(n->name()),
                                                               QString::fromStdString(n->opType()));
  return QString::number(node);
}

}  // namespace passlab::ui
