#include "ui/pipeline/pipeline_commands.h"

namespace passlab::ui {

PassStepCommand::PassStepCommand(PipelineSession* session, AppliedStepPtr step, int lastRowBefore,
                                 int lastRowAfter, bool deferFirstModel)
    : session_(session),
      step_(std::move(step)),
      lastRowBefore_(lastRowBefore),
      lastRowAfter_(lastRowAfter) {
  const pipeline::Step& s = step_->step;
  // A Step that changed nothing leaves the model alone.
  changesModel_ = s.changed && !s.rolledBack;
  deferFirst_ = deferFirstModel && changesModel_;
  const int number = static_cast<int>(session_->steps().size()) + 1;
  QString pass = QString::fromStdString(s.passId);
  if (s.rolledBack)
    setText(tr("Step %1: %2 (rolled back)").arg(number).arg(pass));
  else if (s.skipped)
    setText(tr("Step %1: %2 (skipped)").arg(number).arg(pass));
  else if (!s.changed)
    setText(tr("Step %1: %2 (no change)").arg(number).arg(pass));
  else
    setText(tr("Step %1: %2").arg(number).arg(pass));
}

void PassStepCommand::redo() {
  if (changesModel_ && !deferFirst_) {
    auto m = std::make_unique<ir::Model>(step_->after->clone());
    session_->document()->swapModel(m);
  }
  deferFirst_ = false;
  session_->appendStep(step_, lastRowAfter_);
}

void PassStepCommand::undo() {
  if (changesModel_) {
    auto m = std::make_unique<ir::Model>(step_->before->clone());
    session_->document()->swapModel(m);
  }
  session_->removeLastStep(lastRowBefore_);
}

ResetPipelineCommand::ResetPipelineCommand(PipelineSession* session)
    : session_(session), steps_(session->steps()), lastRow_(session->lastRow()) {
  if (!steps_.empty()) other_ = std::make_unique<ir::Model>(steps_.front()->before->clone());
  setText(tr("Reset the pipeline (%n step(s))", "", static_cast<int>(steps_.size())));
}

void ResetPipelineCommand::redo() {
  if (other_) session_->document()->swapModel(other_);
  session_->setState({}, -1);
}

void ResetPipelineCommand::undo() {
  if (other_) session_->document()->swapModel(other_);
  session_->setState(steps_, lastRow_);
}

}  // namespace passlab::ui
