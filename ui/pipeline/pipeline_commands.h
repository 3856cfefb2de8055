// Undo commands of the pipeline: one per applied Step (the model before and
// after it, from the Step's snapshots), and Reset (back to the model before
// the first Step). Like every command they replace whole models in the
// document, so node ids stay valid.
#pragma once

#include <QCoreApplication>
#include <QUndoCommand>

#include <memory>
#include <string>
#include <vector>

#include "core/ir/model.h"
#include "ui/pipeline/pipeline_session.h"

namespace passlab::ui {

class PassStepCommand : public QUndoCommand {
  Q_DECLARE_TR_FUNCTIONS(PassStepCommand)

 public:
  // `lastRowBefore`/`lastRowAfter`: the session's last plan row run on either side.
  // `deferFirstModel`: the first redo leaves the model alone because a later
  // command of the same run sets the final one (a run of N Steps swaps the
  // document's model once, not N times).
  PassStepCommand(PipelineSession* session, AppliedStepPtr step, int lastRowBefore,
                  int lastRowAfter, bool deferFirstModel = false);
  void redo() override;
  void undo() override;
  const AppliedStepPtr& step() const { return step_; }

 private:
  PipelineSession* session_;
  AppliedStepPtr step_;
  int lastRowBefore_, lastRowAfter_;
  // The document gets a copy of the Step's snapshot (weights shared) when the
  // Step is done or undone; the command itself holds no model.
  bool changesModel_ = false;
  bool deferFirst_ = false;
};

class ResetPipelineCommand : public QUndoCommand {
  Q_DECLARE_TR_FUNCTIONS(ResetPipelineCommand)

 public:
  explicit ResetPipelineCommand(PipelineSession* session);
  void redo() override;
  void undo() override;

 private:
  PipelineSession* session_;
  std::vector<AppliedStepPtr> steps_;
  int lastRow_;
  std::unique_ptr<ir::Model> other_;
};

}  // namespace passlab::ui
