// The Memory dock end to end: on a demo the chart shows what the executor's
// memory planner makes of the model (live bytes per step, peak, lower bound,
// one band per tensor at its offset); clicking a band selects its tensor in
// the graph (the arrows from its producer to its readers); a Step chosen in
// the Timeline shows the model before and after it, and the Step that
// removes work lowers the peak; a model whose sizes are only known at run
// time gets the message instead of a chart; a newer request wins. The plan
// is `run --memory-report`'s (graph outputs outside the block, tensors placed
// inside their buffers, the kernel scratch of a run), drawn with the outputs
// above the block; the report `passlab-cli` writes for the same model is
// read back and compared with the dock's plan.
#include <QDockWidget>
#include <QHelpEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QToolTip>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/analysis/shape_inference.h"
#include "core/exec/executor.h"
#include "core/exec/memory/memory_plan.h"
#include "core/exec/memory/plan_check.h"
#include "core/io/model_io.h"
#include "core/pipeline/input_synthesis.h"
#include "tests/ui/ui_test_support.h"
#include "ui/graphview/graph_items.h"
#include "ui/graphview/graph_panel.h"
#include "ui/graphview/graph_scene.h"
#include "ui/graphview/graph_tabs.h"
#include "ui/mainwindow/language.h"
#include "ui/mainwindow/main_window.h"
#include "ui/mainwindow/settings.h"
#include "ui/memory/memory_chart.h"
#include "ui/memory/memory_panel.h"
#include "ui/pipeline/pipeline_session.h"
#include "ui/pipeline/timeline_panel.h"

using namespace passlab;
using namespace passlab::ui;
using exec::memory::MemoryPlan;

namespace {

bool openIn(MainWindow& w, const QString& path) {
  QSignalSpy opened(&w, &MainWindow::modelOpened);
  w.openFile(path, QFileInfo(path).completeBaseName());
  return opened.wait(30000);
}

bool waitPlanner(MemoryPanel* p, int ms = 120000) {
  QElapsedTimer t;
  t.start();
  while (p->planner()->isRunning() && t.elapsed() < ms) QTest::qWait(5);
  return !p->planner()->isRunning();
}

bool waitRun(PipelineSession* s, int ms = 120000) {
  QElapsedTimer t;
  t.start();
  while (s->isRunning() && t.elapsed() < ms) QTest::qWait(5);
  return !s->isRunning();
}

// The plan as `passlab-cli run --memory-report` makes it for a model whose
// sizes are known ahead: shapes inferred, compiled for the executor, planned
// ahead with app/cli/cmd_run.cpp's checkedPlan's options without a limit
// (written out here, not the dock's memoryPlanOptions: graph outputs outside
// the block, tensors inside them), with the kernel scratch a run on
// synthesized inputs asked for.
std::optional<MemoryPlan> planOf(const ir::Model& model) {
  ir::Model typed = model.clone();
  analysis::inferShapes(typed);
  auto ex = exec::Executor::create(typed);
  if (!ex) return std::nullopt;
  auto inputs = pipeline::makeInputs(typed, pipeline::InputSpec{});
  if (!inputs) return std::nullopt;
  auto run = (*ex)->run(*inputs, exec::RunOptions{});
  if (!run) return std::nullopt;
  const std::vector<uint64_t> scratch = run->memory.scratchBytes;
  exec::memory::PlanOptions options = exec::memory::PlanOptions::withDirectOutputs({}, 0);
  if (std::any_of(scratch.begin(), scratch.end(), [](uint64_t b) { return b > 0; }))
    options.scratchBytes = &scratch;
  auto plan = exec::memory::planMemory((*ex)->compiled(), nullptr, options);
  if (!plan) return std::nullopt;
  return std::move(plan).value();
}

// passlab-cli: $PASSLAB_CLI (ctest sets it), else where the build puts it
// beside this test (build/tests/ui, build/app/cli).
QString cliPath() {
  const QString set = qEnvironmentVariable("PASSLAB_CLI");
  return !set.isEmpty() ? set
                        : QCoreApplication::applicationDirPath() +
                              QStringLiteral("/../../app/cli/passlab-cli");
}

// The JSON `passlab-cli run MODEL --memory-report FILE` writes for `model`
// (saved as MODEL in the test's folder, named after `name`); an empty object
// and the reason in `why` when there is none.
QJsonObject cliReport(const ir::Model& model, const QString& name, QString& why) {
  const QString base = testing::tempDir() + QLatin1Char('/') + name;
  const QString onnx = base + QStringLiteral(".onnx"), json = base + QStringLiteral(".json");
  if (Status st = io::saveModel(model, onnx.toStdString()); !st) {
    why = QString::fromStdString(st.error().message());
    return {};
  }
  QProcess cli;
  cli.start(cliPath(), {QStringLiteral("run"), onnx, QStringLiteral("--repeat"),
                        QStringLiteral("1"), QStringLiteral("--memory-report"), json});
  if (!cli.waitForFinished(120000) || cli.exitStatus() != QProcess::NormalExit ||
      cli.exitCode() != 0) {
    why = cliPath() + QStringLiteral(": ") + cli.errorString() + QLatin1Char(' ') +
          QString::fromUtf8(cli.readAllStandardError());
    return {};
  }
  QFile f(json);
  if (!f.open(QIODevice::ReadOnly)) {
    why = QStringLiteral("no report at ") + json;
    return {};
  }
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
  if (!doc.isObject()) why = error.errorString();
  return doc.object();
}

uint64_t bytesIn(const QJsonValue& v) {
  return static_cast<uint64_t>(v.toInteger(-1));
}

// The dock's plan against the report's JSON (app/cli/memory_report.cpp):
// totals, live bytes per step, every tensor (producer, bytes, offset,
// lifetime, the output whose buffer holds it, scratch) and the outputs
// outside the block.
void compareWithReport(const MemoryPlan& p, const QJsonObject& j) {
  const QJsonObject totals = j[QStringLiteral("totals")].toObject();
  QCOMPARE(bytesIn(totals[QStringLiteral("planned_peak_bytes")]), p.peak);
  QCOMPARE(bytesIn(totals[QStringLiteral("lower_bound_bytes")]), p.lowerBound);
  QCOMPARE(totals[QStringLiteral("strategy")].toString().toStdString(), p.strategy);
  QCOMPARE(totals[QStringLiteral("planned_at_run_time")].toBool(), p.plannedAtRunTime);
  QCOMPARE(totals[QStringLiteral("steps")].toInt(-1), p.stepCount);
  QCOMPARE(totals[QStringLiteral("peak_step")].toInt(-2), p.peakStep);
  QCOMPARE(totals[QStringLiteral("peak_node")].toString().toStdString(), p.peakNode);
  QCOMPARE(totals[QStringLiteral("in_place")].toInt(-1), p.inPlaceCount);
  QCOMPARE(totals[QStringLiteral("views")].toInt(-1), p.viewCount);
  QCOMPARE(bytesIn(totals[QStringLiteral("graph_outputs_outside_bytes")]), p.outsideBytes);
  QCOMPARE(bytesIn(totals[QStringLiteral("lower_bound_with_outputs_bytes")]),
           p.lowerBoundWithOutside);
  QCOMPARE(totals[QStringLiteral("tensors_in_outputs")].toInt(-1), p.inOutputsCount);
  QCOMPARE(totals[QStringLiteral("scratch_steps")].toInt(-1), p.scratchCount);
  QCOMPARE(bytesIn(totals[QStringLiteral("scratch_bytes")]), p.scratchBytes);
  const QJsonArray live = j[QStringLiteral("live_bytes")].toArray();
  QCOMPARE(static_cast<size_t>(live.size()), p.liveBytes.size());
  for (qsizetype s = 0; s < live.size(); ++s)
    QCOMPARE(bytesIn(live[s]), p.liveBytes[static_cast<size_t>(s)]);
  const QJsonArray tensors = j[QStringLiteral("tensors")].toArray();
  QCOMPARE(static_cast<size_t>(tensors.size()), p.tensors.size());
  for (size_t i = 0; i < p.tensors.size(); ++i) {
    const exec::memory::PlannedTensor& t = p.tensors[i];
    const QJsonObject r = tensors[static_cast<qsizetype>(i)].toObject();
    QCOMPARE(r[QStringLiteral("name")].toString().toStdString(), t.name);
    QCOMPARE(r[QStringLiteral("producer")].toString().toStdString(), t.producer);
    QCOMPARE(bytesIn(r[QStringLiteral("bytes")]), t.bytes);
    QCOMPARE(bytesIn(r[QStringLiteral("size")]), t.size);
    QCOMPARE(bytesIn(r[QStringLiteral("offset")]), t.offset);
    QCOMPARE(r[QStringLiteral("first_step")].toInt(-2), t.first);
    QCOMPARE(r[QStringLiteral("last_step")].toInt(-2), t.last);
    QCOMPARE(r[QStringLiteral("scratch")].toBool(false), t.scratch);
    const std::string in = r[QStringLiteral("in_output")].toString().toStdString();
    QCOMPARE(in, t.region >= 0 ? p.outside[static_cast<size_t>(t.region)].name : std::string());
  }
  const QJsonArray outside = j[QStringLiteral("outputs_outside_block")].toArray();
  QCOMPARE(static_cast<size_t>(outside.size()), p.outside.size());
  for (size_t k = 0; k < p.outside.size(); ++k) {
    const QJsonObject r = outside[static_cast<qsizetype>(k)].toObject();
    QCOMPARE(r[QStringLiteral("name")].toString().toStdString(), p.outside[k].name);
    QCOMPARE(bytesIn(r[QStringLiteral("size")]), p.outside[k].size);
    QCOMPARE(r[QStringLiteral("first_step")].toInt(-2), p.outside[k].first);
  }
}

// The dock's plan of `model` is the one passlab-cli reports for it.
void expectTheReport(const MemoryPlan& p, const ir::Model& model, const QString& name) {
  QString why;
  const QJsonObject report = cliReport(model, name, why);
  QVERIFY2(!report.isEmpty(), qPrintable(why));
  compareWithReport(p, report);
}

// Writes `text` (ONNX text format) to the test's folder as `name`.
QString writeModel(const QString& name, const char* text) {
  const QString path = testing::tempDir() + QLatin1Char('/') + name;
  QFile f(path);
  if (f.open(QIODevice::WriteOnly)) f.write(text);
  return path;
}

// The panel, shown (it plans while visible), after its planning ends.
MemoryPanel* shownMemory(MainWindow& w) {
  w.memoryDock()->show();
  w.memoryDock()->raise();
  MemoryPanel* p = w.memoryPanel();
  QTest::qWait(0);
  return waitPlanner(p) ? p : nullptr;
}

// The ids of the nodes reading `value` in the main graph.
std::set<ir::NodeId> readersOf(const ir::Graph& g, const std::string& value) {
  std::set<ir::NodeId> ids;
  if (const ir::Value* v = g.findValue(value))
    for (const ir::Use& u : v->uses()) ids.insert(u.node->id());
  return ids;
}

void compareTensor(const exec::memory::PlannedTensor& a, const exec::memory::PlannedTensor& b) {
  QCOMPARE(a.name, b.name);
  QCOMPARE(a.offset, b.offset);
  QCOMPARE(a.size, b.size);
  QCOMPARE(a.first, b.first);
  QCOMPARE(a.last, b.last);
  QCOMPARE(a.region, b.region);
  QCOMPARE(a.scratch, b.scratch);
}

void compareTimeline(const MemoryTimeline& t, const MemoryPlan& expected) {
  QCOMPARE(t.state, MemoryTimeline::State::kPlanned);
  const MemoryPlan& p = t.plan;
  QCOMPARE(p.peak, expected.peak);
  QCOMPARE(p.lowerBound, expected.lowerBound);
  QCOMPARE(p.outsideBytes, expected.outsideBytes);
  QCOMPARE(p.lowerBoundWithOutside, expected.lowerBoundWithOutside);
  QCOMPARE(p.inOutputsCount, expected.inOutputsCount);
  QCOMPARE(p.scratchCount, expected.scratchCount);
  QVERIFY(p.liveBytesInOutputs == expected.liveBytesInOutputs);
  QCOMPARE(p.outside.size(), expected.outside.size());
  for (size_t k = 0; k < expected.outside.size(); ++k)
    compareTensor(p.outside[k], expected.outside[k]);
  QCOMPARE(p.peakStep, expected.peakStep);
  QCOMPARE(p.peakNode, expected.peakNode);
  QCOMPARE(p.stepCount, expected.stepCount);
  QVERIFY(p.liveBytes == expected.liveBytes);
  QCOMPARE(p.tensors.size(), expected.tensors.size());
  QCOMPARE(t.bands.size(), expected.tensors.size() + expected.outside.size());
  QCOMPARE(t.steps.size(), static_cast<size_t>(expected.stepCount));
  for (size_t i = 0; i < expected.tensors.size(); ++i) {
    compareTensor(p.tensors[i], expected.tensors[i]);
    QCOMPARE(t.bands[i].tensor, static_cast<int>(i));
    QCOMPARE(t.bands[i].outside, -1);
  }
  for (size_t k = 0; k < expected.outside.size(); ++k) {
    const MemoryBand& b = t.bands[expected.tensors.size() + k];
    QCOMPARE(b.tensor, -1);
    QCOMPARE(b.outside, static_cast<int>(k));
  }
}

// A graph output the executor writes where the caller gets it (y), and a
// tensor (b) that dies before y's step, placed inside y's buffer by the
// report's plan (x: 4 KiB; a, b and c live at step 2 without that).
const char* kOutputHoldsATensor = R"(<ir_version: 8, opset_import: ["" : 17]>
inout (float[1, 1024] x) => (float[1, 1024] y) {
  a = Relu(x)
  b = Sigmoid(x)
  c = Add(a, b)
  y = Mul(c, c)
}
)";

}  // namespace

class MemoryTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    testing::isolateSettings();
    Settings::layoutHelper.set(QStringLiteral(PASSLAB_LAYOUT_HELPER_PATH));
    Language::apply(QStringLiteral("en"));
  }

  // The chart's data is the planner's, and each band names the document's
  // nodes that write and read its tensor.
  void chartShowsThePlannersPlan() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openIn(w, QStringLiteral(":/demos/cnn_block.txt")));
    MemoryPanel* p = shownMemory(w);
    QVERIFY(p != nullptr);
    QVERIFY(p->outcome() != nullptr);
    QVERIFY2(p->messageText().isEmpty(), qPrintable(p->messageText()));
    auto expected = planOf(w.document()->model());
    QVERIFY(expected.has_value());
    QVERIFY(expected->lowerBound > 0);
    compareTimeline(p->outcome()->current, *expected);
    QVERIFY(p->outcome()->before == nullptr);
    expectTheReport(p->outcome()->current.plan, w.document()->model(), QStringLiteral("cnn_block"));
    QCOMPARE(p->chart()->curveCount(), 1);

    const ir::Graph& g = w.document()->model().graph();
    const MemoryTimeline& t = p->outcome()->current;
    int scratchBands = 0;
    for (size_t i = 0; i < t.bands.size(); ++i) {
      const MemoryBand& b = t.bands[i];
      const exec::memory::PlannedTensor& pt = t.tensorOf(b);
      const std::string& name = pt.name;
      if (pt.scratch) {  // a step's kernel scratch: its node, no readers
        ++scratchBands;
        QCOMPARE(b.producer, t.steps[static_cast<size_t>(pt.first)].node);
        QVERIFY(b.readers.empty());
        QVERIFY(!p->chart()->bandRect(static_cast<int>(i)).isEmpty());
        continue;
      }
      const ir::Value* v = g.findValue(name);
      QVERIFY2(v != nullptr && v->producer() != nullptr, name.c_str());
      QCOMPARE(b.producer, v->producer()->id());
      QVERIFY2(std::set<ir::NodeId>(b.readers.begin(), b.readers.end()) == readersOf(g, name),
               name.c_str());
      QVERIFY(!p->chart()->bandRect(static_cast<int>(i)).isEmpty());
    }
    // cnn_block's Convolutions ask for kernel scratch: planned as the report does.
    QCOMPARE(scratchBands, t.plan.scratchCount);
    QVERIFY(scratchBands > 0);
    // The peak's step, node and bytes are in the summary.
    const QString summary = p->summaryText();
    QVERIFY2(summary.contains(QString::fromStdString(expected->peakNode)), qPrintable(summary));
    QVERIFY2(summary.contains(memoryBytesText(expected->lowerBound)), qPrintable(summary));
    QVERIFY2(summary.contains(memoryBytesText(expected->peak)), qPrintable(summary));
  }

  // Clicking a band selects its tensor in the main graph: the arrows marked
  // go from its producer to each of its readers.
  void clickingABandSelectsProducerAndReaders() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openIn(w, QStringLiteral(":/demos/cnn_block.txt")));
    GraphPanel* main = w.graphTabs()->mainPanel();
    QTRY_VERIFY_WITH_TIMEOUT(!main->isLayoutRunning() && main->scene()->hasLayout(), 30000);
    MemoryPanel* p = shownMemory(w);
    QVERIFY(p != nullptr && p->outcome() != nullptr);
    MemoryChart* chart = p->chart();
    QTRY_VERIFY(chart->isVisible() && chart->width() > 100 && chart->height() > 60);
    const MemoryTimeline& t = p->outcome()->current;
    // A band with readers, and a pixel where no other band is drawn over it.
    int band = -1;
    QPoint click;
    for (int i = 0; i < static_cast<int>(t.bands.size()) && band < 0; ++i) {
      const MemoryBand& b = t.bands[static_cast<size_t>(i)];
      const QRectF r = chart->bandRect(i);
      for (double f : {0.5, 0.25, 0.75, 0.1}) {
        QPoint pt = QPointF(r.left() + f * r.width(), r.center().y()).toPoint();
        if (!b.readers.empty() && b.outside < 0 && chart->bandAt(pt) == i) {
          band = i;
          click = pt;
          break;
        }
      }
    }
    QVERIFY(band >= 0);
    const MemoryBand& b = t.bands[static_cast<size_t>(band)];
    const QString name = QString::fromStdString(t.tensorOf(b).name);
    QSignalSpy activated(p, &MemoryPanel::tensorActivated);
    QTest::mouseClick(chart, Qt::LeftButton, {}, click);
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.front().at(0).toString(), name);
    QCOMPARE(chart->selectedBand(), band);

    QCOMPARE(main->selection().kind, Selection::Kind::kValue);
    QCOMPARE(QString::fromStdString(main->selection().value), name);
    auto edges = main->scene()->edgesOfValue(name);
    QVERIFY(!edges.empty());
    std::set<ir::NodeId> from, to;
    for (EdgeItem* e : edges) {
      from.insert(main->scene()->item(e->from())->nodeId());
      to.insert(main->scene()->item(e->to())->nodeId());
    }
    QVERIFY(from == std::set<ir::NodeId>{b.producer});
    QVERIFY(to == std::set<ir::NodeId>(b.readers.begin(), b.readers.end()));

    // Empty space picks nothing.
    QCOMPARE(chart->bandAt(QPointF(2, 2)), -1);
  }

  // A Step chosen in the Timeline: two curves, the model before and after it,
  // each the planner's; the Step that lowers the peak most lowers it, and the
  // optimized model's peak is not above the original's.
  void stepShowsBeforeAndAfter() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openIn(w, QStringLiteral(":/demos/cnn_block.txt")));
    PipelineSession* s = w.pipeline();
    s->setNumericCheck(false);
    QVERIFY(s->runAll());
    QVERIFY(waitRun(s));
    QVERIFY(!s->steps().empty());

    int lowering = -1;
    uint64_t drop = 0;
    for (size_t i = 0; i < s->steps().size(); ++i) {
      const AppliedStep& st = *s->steps()[i];
      if (!st.step.changed) continue;
      auto before = planOf(*st.before), after = planOf(*st.after);
      QVERIFY(before && after);
      // The tensors' peak: a Convolution's kernel scratch is cnn_block's
      // peak before and after every Step (19 KiB), the tensors alone are not.
      const uint64_t b = before->lowerBoundWithoutScratch, a = after->lowerBoundWithoutScratch;
      if (a < b && b - a > drop) {
        drop = b - a;
        lowering = static_cast<int>(i);
      }
    }
    QVERIFY2(lowering >= 0, "no Step of the default level lowers cnn_block's peak");
    qInfo("Step %d (%s) lowers the peak by %llu bytes", lowering + 1,
          s->steps()[static_cast<size_t>(lowering)]->step.passId.c_str(),
          static_cast<unsigned long long>(drop));
    auto original = planOf(*s->steps().front()->before);
    auto optimized = planOf(w.document()->model());
    QVERIFY(original && optimized);
    QVERIFY(optimized->lowerBound <= original->lowerBound);
    QVERIFY(optimized->lowerBoundWithoutScratch < original->lowerBoundWithoutScratch);
    QVERIFY(optimized->peak <= original->peak);

    MemoryPanel* p = shownMemory(w);
    QVERIFY(p != nullptr);
    w.timeline()->chooseStep(lowering);
    QCOMPARE(p->step(), lowering);
    QTRY_VERIFY_WITH_TIMEOUT(p->outcome() && p->outcome()->step == lowering, 60000);
    QVERIFY(waitPlanner(p));
    const AppliedStep& st = *s->steps()[static_cast<size_t>(lowering)];
    QVERIFY(p->outcome()->before != nullptr);
    compareTimeline(p->outcome()->current, *planOf(*st.after));
    compareTimeline(*p->outcome()->before, *planOf(*st.before));
    // Both are the plans passlab-cli reports for the models before and after.
    expectTheReport(p->outcome()->current.plan, *st.after, QStringLiteral("step_after"));
    expectTheReport(p->outcome()->before->plan, *st.before, QStringLiteral("step_before"));
    QCOMPARE(p->chart()->curveCount(), 2);
    const MemoryPlan& beforePlan = p->outcome()->before->plan;
    const MemoryPlan& afterPlan = p->outcome()->current.plan;
    QVERIFY(afterPlan.lowerBoundWithoutScratch < beforePlan.lowerBoundWithoutScratch);
    QVERIFY(afterPlan.scratchCount > 0 && beforePlan.scratchCount > 0);
    const QString summary = p->summaryText();
    QVERIFY2(summary.contains(QStringLiteral("Step %1").arg(lowering + 1)), qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("peak %1 → %2 live")
                                  .arg(memoryBytesText(beforePlan.lowerBound),
                                       memoryBytesText(afterPlan.lowerBound))),
             qPrintable(summary));
    // The drop the scratch hides, said apart.
    QVERIFY2(summary.contains(QStringLiteral("without kernel scratch, peak %1 → %2 live")
                                  .arg(memoryBytesText(beforePlan.lowerBoundWithoutScratch),
                                       memoryBytesText(afterPlan.lowerBoundWithoutScratch))),
             qPrintable(summary));

    // No Step chosen: the current model alone again.
    w.timeline()->chooseStep(-1);
    p->showStep(-1);
    QTRY_VERIFY_WITH_TIMEOUT(p->outcome() && p->outcome()->step == -1, 60000);
    QVERIFY(waitPlanner(p));
    QCOMPARE(p->chart()->curveCount(), 1);
    compareTimeline(p->outcome()->current, *optimized);
  }

  // A size known only at run time: planned from one run on synthesized
  // inputs, the chart drawn, and the summary names the tensor and the inputs.
  void unknownSizesArePlannedFromARun() {
    const QString path = writeModel(QStringLiteral("dynamic.txt"),
                                    R"(<ir_version: 8, opset_import: ["" : 17]>
dynamic (float[N, 4] x) => (float[N, 4] y) {
  a = Relu(x)
  b = Sigmoid(a)
  y = Add(a, b)
}
)");
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openIn(w, path));
    MemoryPanel* p = shownMemory(w);
    QVERIFY(p != nullptr && p->outcome() != nullptr);
    const MemoryTimeline& t = p->outcome()->current;
    QCOMPARE(t.state, MemoryTimeline::State::kPlanned);
    QVERIFY(t.plannedFromRun);
    QCOMPARE(t.unknownTensor, std::string("a"));
    QCOMPARE(t.runInputs.size(), size_t{1});
    // The run's sizes: a, b and y (a graph output, outside the block as the
    // report plans it) are as large as the synthesized x; no kernel scratch
    // for these elementwise steps.
    auto inputs = pipeline::planInputs(w.document()->model(), pipeline::InputSpec{});
    QVERIFY(inputs && inputs->size() == 1);
    const uint64_t n = static_cast<uint64_t>(inputs->front().shape().at(0));
    QCOMPARE(t.plan.scratchCount, 0);
    QCOMPARE(t.plan.tensors.size(), size_t{2});
    QCOMPARE(t.plan.outside.size(), size_t{1});
    QCOMPARE(t.plan.outside.front().name, std::string("y"));
    for (const auto& tensor : t.plan.tensors) QCOMPARE(tensor.bytes, n * 4 * sizeof(float));
    QCOMPARE(t.plan.outside.front().bytes, n * 4 * sizeof(float));
    QVERIFY(exec::memory::checkPlan(t.plan).ok());
    // passlab-cli synthesizes the same inputs and plans from its run alike.
    expectTheReport(t.plan, w.document()->model(), QStringLiteral("dynamic"));
    QVERIFY(p->messageText().isEmpty());
    const QString summary = p->summaryText();
    QVERIFY2(summary.contains(QStringLiteral("'a'")) && summary.contains(QStringLiteral("run")) &&
                 summary.contains(QStringLiteral("x float[")),
             qPrintable(summary));
    QCOMPARE(p->chart()->curveCount(), 1);
  }

  // When that run fails (here a Reshape to a synthesized shape), the message
  // names the tensor and the run's error; no chart.
  void aFailingRunShowsTheMessage() {
    const QString path = writeModel(QStringLiteral("dynamic_fail.txt"),
                                    R"(<ir_version: 8, opset_import: ["" : 17]>
dynfail (float[N, 4] x, int64[2] s) => (float[?, ?] y) {
  a = Relu(x)
  y = Reshape(a, s)
}
)");
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openIn(w, path));
    MemoryPanel* p = shownMemory(w);
    QVERIFY(p != nullptr && p->outcome() != nullptr);
    QCOMPARE(p->outcome()->current.state, MemoryTimeline::State::kSizesUnknown);
    QCOMPARE(p->outcome()->current.unknownTensor, std::string("a"));
    QVERIFY(!p->outcome()->current.plannedFromRun);
    const QString message = p->messageText();
    QVERIFY2(message.contains(QStringLiteral("'a'")) &&
                 message.contains(QStringLiteral("run time")) &&
                 message.contains(QStringLiteral("reshape")),
             qPrintable(message));
    QCOMPARE(p->chart()->curveCount(), 0);
    QCOMPARE(p->chart()->bandAt(p->chart()->rect().center()), -1);
  }

  // The dock plans as `run --memory-report` does: y outside the block, b
  // placed inside y's buffer, the same offsets, peaks and bounds as the
  // report's options give; the chart draws y above the block and b inside
  // y's band; the summary names the outside output and the totals with it.
  void theDockPlansAsTheReport() {
    const QString path = writeModel(QStringLiteral("inout.txt"), kOutputHoldsATensor);
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openIn(w, path));
    MemoryPanel* p = shownMemory(w);
    QVERIFY(p != nullptr && p->outcome() != nullptr);
    auto expected = planOf(w.document()->model());
    QVERIFY(expected.has_value());
    // The model is one where the report's plan differs from the default's.
    QCOMPARE(expected->outside.size(), size_t{1});
    QCOMPARE(expected->outside.front().name, std::string("y"));
    QCOMPARE(expected->inOutputsCount, 1);
    QVERIFY(expected->peak < expected->peakWithoutRegions);
    const MemoryTimeline& t = p->outcome()->current;
    compareTimeline(t, *expected);
    if (QTest::currentTestFailed()) return;  // the bands below index the expected plan's
    QVERIFY(!t.plannedFromRun);
    expectTheReport(t.plan, w.document()->model(), QStringLiteral("inout"));
    if (QTest::currentTestFailed()) return;

    // y's band: above the block, from its step to the end of the run.
    MemoryChart* chart = p->chart();
    QTRY_VERIFY(chart->isVisible() && chart->width() > 100 && chart->height() > 60);
    const int yBand = static_cast<int>(t.plan.tensors.size());
    QCOMPARE(t.bands[static_cast<size_t>(yBand)].outside, 0);
    int inside = -1;
    for (size_t i = 0; i < t.plan.tensors.size(); ++i)
      if (t.plan.tensors[i].region == 0) inside = static_cast<int>(i);
    QVERIFY(inside >= 0);
    const QRectF yRect = chart->bandRect(yBand), insideRect = chart->bandRect(inside);
    QVERIFY(!yRect.isEmpty() && !insideRect.isEmpty());
    for (int i = 0; i < static_cast<int>(t.plan.tensors.size()); ++i) {
      if (i == inside) continue;
      const QRectF r = chart->bandRect(i);  // in the block: below y's buffer
      QVERIFY2(r.top() >= yRect.bottom() - 0.5,
               t.plan.tensors[static_cast<size_t>(i)].name.c_str());
    }
    // The tensor inside y's buffer: at y's height, before y's step.
    QVERIFY(std::abs(insideRect.top() - yRect.top()) < 0.5);
    QVERIFY(std::abs(insideRect.bottom() - yRect.bottom()) < 0.5);
    QVERIFY(insideRect.right() <= yRect.left() + 0.5);

    const QString summary = p->summaryText();
    QVERIFY2(summary.contains(QStringLiteral("Graph outputs outside the block: 1 (%1)")
                                  .arg(memoryBytesText(expected->outsideBytes))),
             qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("with them peak %1, lower bound %2")
                                  .arg(memoryBytesText(expected->peakWithOutside()),
                                       memoryBytesText(expected->lowerBoundWithOutside))),
             qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("1 tensor(s) placed inside their buffers")),
             qPrintable(summary));
  }

  // Clicking y's band (outside the block) selects y: the arrow from Mul, its
  // producer.
  void clickingAnOutsideOutputSelectsItsProducer() {
    const QString path = writeModel(QStringLiteral("inout_click.txt"), kOutputHoldsATensor);
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openIn(w, path));
    GraphPanel* main = w.graphTabs()->mainPanel();
    QTRY_VERIFY_WITH_TIMEOUT(!main->isLayoutRunning() && main->scene()->hasLayout(), 30000);
    MemoryPanel* p = shownMemory(w);
    QVERIFY(p != nullptr && p->outcome() != nullptr);
    MemoryChart* chart = p->chart();
    QTRY_VERIFY(chart->isVisible() && chart->width() > 100 && chart->height() > 60);
    const MemoryTimeline& t = p->outcome()->current;
    QCOMPARE(t.plan.outside.size(), size_t{1});
    const int yBand = static_cast<int>(t.plan.tensors.size());
    const QPoint click = chart->bandRect(yBand).center().toPoint();
    QCOMPARE(chart->bandAt(click), yBand);
    const ir::Value* y = w.document()->model().graph().findValue("y");
    QVERIFY(y != nullptr && y->producer() != nullptr);
    QCOMPARE(t.bands[static_cast<size_t>(yBand)].producer, y->producer()->id());

    QSignalSpy activated(p, &MemoryPanel::tensorActivated);
    QTest::mouseClick(chart, Qt::LeftButton, {}, click);
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.front().at(0).toString(), QStringLiteral("y"));
    QCOMPARE(activated.front().at(1).toULongLong(), static_cast<quint64>(y->producer()->id()));
    QCOMPARE(chart->selectedBand(), yBand);
    QCOMPARE(main->selection().kind, Selection::Kind::kValue);
    QCOMPARE(QString::fromStdString(main->selection().value), QStringLiteral("y"));
    auto edges = main->scene()->edgesOfValue(QStringLiteral("y"));
    QVERIFY(!edges.empty());
    for (EdgeItem* e : edges)
      QCOMPARE(main->scene()->item(e->from())->nodeId(), y->producer()->id());
  }

  // Planned from a run, the run's kernel scratch is planned with the tensors
  // as the report plans it (ReduceLogSumExp asks for its sums): the plan
  // equals planMemory's with the report's options, the same run's sizes and
  // scratch; the scratch band names its node and a click on it selects
  // nothing.
  void scratchOfTheRunIsPlanned() {
    const QString path = writeModel(QStringLiteral("scratch.txt"),
                                    R"(<ir_version: 8, opset_import: ["" : 17]>
scr (float[N, 64] x) => (float[N, 1] y) {
  a = Relu(x)
  y = ReduceLogSumExp <axes = [1]> (a)
}
)");
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openIn(w, path));
    MemoryPanel* p = shownMemory(w);
    QVERIFY(p != nullptr && p->outcome() != nullptr);
    const MemoryTimeline& t = p->outcome()->current;
    QCOMPARE(t.state, MemoryTimeline::State::kPlanned);
    QVERIFY(t.plannedFromRun);

    // The report's plan of the same run, made here.
    ir::Model typed = w.document()->model().clone();
    analysis::inferShapes(typed);
    auto ex = exec::Executor::create(typed);
    QVERIFY(static_cast<bool>(ex));
    auto planned = pipeline::planInputs(typed, pipeline::InputSpec{});
    QVERIFY(static_cast<bool>(planned));
    auto inputs = pipeline::fillInputs(*planned, typed, pipeline::InputSpec{});
    QVERIFY(static_cast<bool>(inputs));
    std::vector<uint64_t> observed;
    exec::RunOptions ro;
    ro.valueBytes = &observed;
    auto run = (*ex)->run(*inputs, ro);
    QVERIFY(static_cast<bool>(run));
    const std::vector<uint64_t> scratch = run->memory.scratchBytes;
    exec::memory::PlanOptions options = exec::memory::PlanOptions::withDirectOutputs({}, 0);
    options.scratchBytes = &scratch;
    auto expected = exec::memory::planMemory((*ex)->compiled(), &observed, options);
    QVERIFY(static_cast<bool>(expected));
    QCOMPARE(expected->scratchCount, 1);
    compareTimeline(t, *expected);
    if (QTest::currentTestFailed()) return;
    expectTheReport(t.plan, w.document()->model(), QStringLiteral("scratch"));
    if (QTest::currentTestFailed()) return;

    int band = -1;
    for (size_t i = 0; i < t.plan.tensors.size(); ++i)
      if (t.plan.tensors[i].scratch) band = static_cast<int>(i);
    QVERIFY(band >= 0);
    QCOMPARE(
        QString::fromStdString(t.plan.tensors[static_cast<size_t>(band)].producer),
        QString::fromStdString(
            t.steps[static_cast<size_t>(t.plan.tensors[static_cast<size_t>(band)].first)].name));
    MemoryChart* chart = p->chart();
    QTRY_VERIFY(chart->isVisible() && chart->width() > 100 && chart->height() > 60);
    const QPoint at = chart->bandRect(band).center().toPoint();
    QCOMPARE(chart->bandAt(at), band);
    QHelpEvent help(QEvent::ToolTip, at, chart->mapToGlobal(at));
    QApplication::sendEvent(chart, &help);
    QVERIFY2(QToolTip::text().contains(QStringLiteral("Kernel scratch")) &&
                 QToolTip::text().contains(QStringLiteral("ReduceLogSumExp")),
             qPrintable(QToolTip::text()));
    QSignalSpy activated(p, &MemoryPanel::tensorActivated);
    QTest::mouseClick(chart, Qt::LeftButton, {}, at);
    QCOMPARE(activated.size(), 0);
    QCOMPARE(chart->selectedBand(), -1);
    const QString summary = p->summaryText();
    QVERIFY2(summary.contains(QStringLiteral("Kernel scratch of 1 step(s)")), qPrintable(summary));
  }

  // Sizes known ahead: the dock still runs the model once, for the kernel
  // scratch its steps ask for, and plans it with the tensors as the report
  // does (before, the dock's plan had no scratch where the report's had).
  void scratchIsPlannedWhenSizesAreKnownAhead() {
    const QString path = writeModel(QStringLiteral("scratch_ahead.txt"),
                                    R"(<ir_version: 8, opset_import: ["" : 17]>
scrahead (float[8, 64] x) => (float[8, 1] y) {
  a = Relu(x)
  y = ReduceLogSumExp <axes = [1]> (a)
}
)");
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openIn(w, path));
    MemoryPanel* p = shownMemory(w);
    QVERIFY(p != nullptr && p->outcome() != nullptr);
    const MemoryTimeline& t = p->outcome()->current;
    QCOMPARE(t.state, MemoryTimeline::State::kPlanned);
    QVERIFY(!t.plannedFromRun);
    QVERIFY(t.scratchRunError.empty());
    QCOMPARE(t.plan.scratchCount, 1);
    QVERIFY(!t.plan.plannedAtRunTime);
    auto expected = planOf(w.document()->model());
    QVERIFY(expected.has_value());
    compareTimeline(t, *expected);
    expectTheReport(t.plan, w.document()->model(), QStringLiteral("scratch_ahead"));
    const QString summary = p->summaryText();
    QVERIFY2(summary.contains(QStringLiteral("Kernel scratch of 1 step(s)")) &&
                 !summary.contains(QStringLiteral("known only at run time")),
             qPrintable(summary));
  }

  // Sizes known ahead but the run for the scratch fails (a Reshape to the
  // synthesized shape input; y's type declared): planned without scratch,
  // and the summary says why.
  void aFailingScratchRunLeavesThePlanWithoutScratch() {
    const QString path = writeModel(QStringLiteral("scratch_fail.txt"),
                                    R"(<ir_version: 8, opset_import: ["" : 17]>
scrfail (float[2, 4] x, int64[2] s) => (float[4, 2] y) {
  a = Relu(x)
  y = Reshape(a, s)
}
)");
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openIn(w, path));
    MemoryPanel* p = shownMemory(w);
    QVERIFY(p != nullptr && p->outcome() != nullptr);
    const MemoryTimeline& t = p->outcome()->current;
    QCOMPARE(t.state, MemoryTimeline::State::kPlanned);
    QVERIFY(!t.plannedFromRun);
    QVERIFY(!t.scratchRunError.empty());
    QCOMPARE(t.plan.scratchCount, 0);
    QVERIFY(p->messageText().isEmpty());
    const QString summary = p->summaryText();
    QVERIFY2(summary.contains(QStringLiteral("Kernel scratch not planned")) &&
                 summary.contains(QStringLiteral("eshape")),
             qPrintable(summary));
  }

  // Pipeline → Memory Timeline shows the dock and plans the model.
  void theMenuActionShowsTheDock() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QAction* action = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
      if (a->text() == QStringLiteral("&Memory Timeline")) action = a;
    QVERIFY(action != nullptr);
    QVERIFY(!action->isEnabled());  // no model yet
    QVERIFY(openIn(w, QStringLiteral(":/demos/cnn_block.txt")));
    QTRY_VERIFY(action->isEnabled());
    w.memoryDock()->hide();
    QVERIFY(waitPlanner(w.memoryPanel()));
    action->trigger();
    QVERIFY(w.memoryDock()->isVisible());
    QVERIFY(waitPlanner(w.memoryPanel()));
    QVERIFY(w.memoryPanel()->outcome() != nullptr);
    QCOMPARE(w.memoryPanel()->chart()->curveCount(), 1);
  }

  // No model: nothing to plan, and the dock says so.
  void nothingToPlanWithoutAModel() {
    MainWindow w;
    w.show();
    MemoryPanel* p = shownMemory(w);
    QVERIFY(p != nullptr);
    QVERIFY(!p->refresh());
    QVERIFY(p->outcome() == nullptr);
    QCOMPARE(p->summaryText(), QStringLiteral("No model open."));
    QCOMPARE(p->chart()->curveCount(), 0);
  }

  // Requests in a row: the last one's outcome is shown, the others dropped.
  void aNewerRequestWins() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openIn(w, QStringLiteral(":/demos/cnn_block.txt")));
    PipelineSession* s = w.pipeline();
    s->setNumericCheck(false);
    QVERIFY(s->runAll());
    QVERIFY(waitRun(s));
    MemoryPanel* p = shownMemory(w);
    QVERIFY(p != nullptr);
    QSignalSpy finished(p->planner(), &MemoryPlanner::finished);
    p->showStep(0);
    p->showStep(-1);
    p->showStep(0);
    QVERIFY(p->planner()->isRunning());
    QVERIFY(waitPlanner(p));
    QCOMPARE(finished.size(), 1);
    QCOMPARE(p->outcome()->step, 0);
    QVERIFY(p->outcome()->before != nullptr);
  }

  // The legend in the dock's narrow default column: before, six rows of
  // full labels from the y axis on, cut at the right edge, the plot left a
  // third of the chart and the peak's labels against the legend. Now it
  // stays within the chart, above the plot: short labels in columns, each
  // entry's tooltip its full label; a wide chart keeps the full labels.
  void theLegendFitsANarrowChartAboveThePlot() {
    std::shared_ptr<const ir::Model> model = testing::demo(QStringLiteral("cnn_block"));
    QVERIFY(model != nullptr);
    MemoryPlanner planner;
    QSignalSpy finished(&planner, &MemoryPlanner::finished);
    planner.plan({.model = model, .before = model, .step = 0});  // a Step's two curves
    QVERIFY(finished.wait(60000));
    MemoryChart chart;
    chart.setOutcome(finished.front().front().value<MemoryOutcomePtr>());
    QCOMPARE(chart.curveCount(), 2);
    chart.resize(280, 260);  // the Memory dock's default column
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    const QFontMetrics fm = chart.fontMetrics();
    std::vector<MemoryChart::LegendItem> items = chart.legendItems();
    // After, before, planned peak (and lower bound), tensors, outputs
    // outside the block, kernel scratch.
    QVERIFY2(items.size() >= 6, qPrintable(QString::number(items.size())));
    std::set<double> rows;
    int brief = 0;
    for (const MemoryChart::LegendItem& item : items) {
      QVERIFY2(item.rect.left() >= 0 && item.rect.right() <= chart.width(), qPrintable(item.shown));
      QVERIFY2(item.rect.bottom() < chart.plotRect().top(), qPrintable(item.shown));
      QVERIFY2(fm.horizontalAdvance(item.shown) <= item.rect.width(), qPrintable(item.shown));
      if (item.shown != item.full) ++brief;
      rows.insert(item.rect.top());
      const QPoint at = item.rect.center().toPoint();
      QHelpEvent help(QEvent::ToolTip, at, chart.mapToGlobal(at));
      QApplication::sendEvent(&chart, &help);
      QCOMPARE(QToolTip::text(), item.full);
    }
    QVERIFY(brief > 0);
    QVERIFY2(rows.size() <= 3, qPrintable(QString::number(rows.size())));
    QVERIFY2(chart.plotRect().height() >= chart.height() / 2,
             qPrintable(QString::number(chart.plotRect().height())));
    // Wide: every full label, in at most two rows.
    chart.resize(1200, 260);
    items = chart.legendItems();
    rows.clear();
    for (const MemoryChart::LegendItem& item : items) {
      QCOMPARE(item.shown, item.full);
      QVERIFY(item.rect.right() <= chart.width());
      rows.insert(item.rect.top());
    }
    QVERIFY(rows.size() <= 2);
  }
};

QTEST_MAIN(MemoryTest)
#include "memory_test.moc"
