// Runs the profiler on a worker thread (QtConcurrent): a profile of one model
// (core/pipeline/profile.h), or a comparison of the opened original with the
// current model through the pipeline's provenance (profile_compare.h), then
// the machine's roofs for the roofline (roofs.h, cached by core). Progress
// and the outcome come back as signals on the GUI thread; Cancel stops the
// run between two runs of the model.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

#include "core/ir/model.h"
#include "core/pipeline/profile.h"
#include "core/pipeline/profile_compare.h"
#include "core/pipeline/roofs.h"
#include "core/rewrite/provenance.h"

namespace passlab::ui {

struct ProfileSettings {
  std::string device = "cpu";  // "cpu", "cuda:0" (exec::listDevices)
  int threads = 0;             // 0: every core
  int warmup = 2;
  int repeats = 10;
};

// What one run found: a profile, or (compare) both profiles and the groups.
struct ProfileOutcome {
  bool compare = false;
  pipeline::ProfileResult profile;  // the profile (compare: of the current model)
  pipeline::CompareResult comparison;
  // The CPU's roofs; none when they could not be measured or the run was on a GPU.
  std::optional<pipeline::MachineRoofs> roofs;
  // The profiled node ids are those of this model (the current one).
  std::shared_ptr<const ir::Model> model;
};
using ProfileOutcomePtr = std::shared_ptr<const ProfileOutcome>;

// What a comparison needs: the original, the current model and how its nodes
// map to the original's (null: matched by op and output names).
struct CompareInput {
  std::shared_ptr<const ir::Model> original, current;
  std::shared_ptr<const rewrite::Provenance> provenance;
};

class ProfileRunner : public QObject {
  Q_OBJECT

 public:
  explicit ProfileRunner(QObject* parent = nullptr);
  ~ProfileRunner() override;

  // False when a run is in progress.
  bool profile(std::shared_ptr<const ir::Model> model, const ProfileSettings& settings);
  bool compare(CompareInput input, const ProfileSettings& settings);
  bool isRunning() const { return running_; }
  void cancel();
  void waitForRun();
  // A phase core reports ("warm-up", "measuring", "interleaved rounds") in
  // the user's language.
  static QString phaseText(const QString& phase);

 signals:
  void runningChanged(bool running);
  void progress(const QString& phase, int done, int total);
  void finished(passlab::ui::ProfileOutcomePtr outcome);
  void failed(const QString& message);  // in the user's language; names the node

 private:
  struct Job;
  bool start(std::shared_ptr<Job> job);
  void onDone();

  bool running_ = false;
  std::shared_ptr<std::atomic<bool>> cancel_;
  QFutureWatcher<void> watcher_;
  std::shared_ptr<Job> job_;
};

}  // namespace passlab::ui

Q_DECLARE_METATYPE(passlab::ui::ProfileOutcomePtr)
