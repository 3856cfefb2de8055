// Runs the Precision panel's analyses on a worker thread (QtConcurrent): the
// per-layer ranking (core/pipeline/sensitivity.h rankLayers), automatic mixed
// precision (mixedPrecision, ranking first when the request holds no
// ranking) and the activations' calibration statistics
// (tensor_calibration.h). The calibration sets are the pipeline's (a folder,
// or synthesized sets) and the reference outputs core's precisionChecker, as
// in `passlab-cli precision`. Progress and the outcome come back as signals
// on the GUI thread; Cancel stops the run at the next node or chunk.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

#include "core/pipeline/sensitivity.h"
#include "ui/precision/tensor_calibration.h"

namespace passlab::ui {

struct PrecisionRequest {
  enum class Kind { kRank, kMixed, kCalibrate };
  Kind kind = Kind::kRank;
  std::shared_ptr<const ir::Model> model;  // measured as it is (not changed)
  pipeline::PassSpec spec;                 // the lossy pass and its options
  std::string calibrationFolder;           // "": synthesized sets
  int synthesizedSets = 16;
  int checkSets = 2;  // input sets the outputs are compared on
  pipeline::AccuracyBudget budget;
  double percentile = 99.999;                      // for the Percentile range
  std::vector<pipeline::LayerSensitivity> ranked;  // kMixed: bisected (empty: ranked first)
  int rankedTopK = 5;                              // the k `ranked` measured top-k with
};

struct PrecisionOutcome {
  PrecisionRequest::Kind kind = PrecisionRequest::Kind::kRank;
  std::shared_ptr<const ir::Model> model;  // the node ids below are this model's
  pipeline::PassSpec spec;
  std::vector<pipeline::LayerSensitivity> ranked;  // most sensitive first
  int topK = 5;                                    // the k their top-k agreement was measured with
  std::optional<pipeline::MixedPrecision> mixed;
  CalibrationTable calibration;  // kCalibrate
  size_t calibrations = 0;       // kRank, kMixed: runs of the calibration sets
};
using PrecisionOutcomePtr = std::shared_ptr<const PrecisionOutcome>;

class PrecisionWorker : public QObject {
  Q_OBJECT

 public:
  explicit PrecisionWorker(QObject* parent = nullptr);
  ~PrecisionWorker() override;

  // False when a run is in progress or the request has no model.
  bool start(PrecisionRequest request);
  bool isRunning() const { return running_; }
  void cancel();
  // Blocks until the run ends and delivers its signals (tests, shutdown).
  void waitForRun();

 signals:
  void runningChanged(bool running);
  void progress(int done, int total);
  void finished(passlab::ui::PrecisionOutcomePtr outcome);
  // In the user's language; names the problem (a calibration folder, a set).
  void failed(const QString& message);

 private:
  struct Job;
  void onDone();

  bool running_ = false;
  std::shared_ptr<Job> job_;
  QFutureWatcher<void> watcher_;
};

}  // namespace passlab::ui

Q_DECLARE_METATYPE(passlab::ui::PrecisionOutcomePtr)
