// The Memory dock end to end: on a demo the chart shows what the executor's
// memory planner makes of the model (live bytes per step, peak, lower bound,
// one band per tensor at its offset); clicking a band selects its tensor in
// the graph (the arrows from its producer to its readers); a Step chosen in
// the Timeline shows the model before and after it, and the Step that
// removes work lowers the peak; a model whose sizes are only known at run
// time gets the message instead of a chart; a newer request wins.
#include <QDockWidget>
#include <QSignalSpy>
#include <QtTest>

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

// The plan as `passlab-cli run --memory-report` makes it: shapes inferred,
// compiled for the executor, planned ahead.
std::optional<MemoryPlan> planOf(const ir::Model& model) {
  ir::Model typed = model.clone();
  analysis::inferShapes(typed);
  auto ex = exec::Executor::create(typed);
  if (!ex) return std::nullopt;
  auto plan = exec::memory::planMemory((*ex)->compiled());
  if (!plan) return std::nullopt;
  return std::move(plan).value();
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

void compareTimeline(const MemoryTimeline& t, const MemoryPlan& expected) {
  QCOMPARE(t.state, MemoryTimeline::State::kPlanned);
  const MemoryPlan& p = t.plan;
  QCOMPARE(p.peak, expected.peak);
  QCOMPARE(p.lowerBound, expected.lowerBound);
  QCOMPARE(p.peakStep, expected.peakStep);
  QCOMPARE(p.peakNode, expected.peakNode);
  QCOMPARE(p.stepCount, expected.stepCount);
  QVERIFY(p.liveBytes == expected.liveBytes);
  QCOMPARE(p.tensors.size(), expected.tensors.size());
  QCOMPARE(t.bands.size(), expected.tensors.size());
  QCOMPARE(t.steps.size(), static_cast<size_t>(expected.stepCount));
  for (size_t i = 0; i < expected.tensors.size(); ++i) {
    QCOMPARE(p.tensors[i].name, expected.tensors[i].name);
    QCOMPARE(p.tensors[i].offset, expected.tensors[i].offset);
    QCOMPARE(p.tensors[i].size, expected.tensors[i].size);
    QCOMPARE(p.tensors[i].first, expected.tensors[i].first);
    QCOMPARE(p.tensors[i].last, expected.tensors[i].last);
    QCOMPARE(t.bands[i].tensor, static_cast<int>(i));
  }
}

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
    QCOMPARE(p->chart()->curveCount(), 1);

    const ir::Graph& g = w.document()->model().graph();
    const MemoryTimeline& t = p->outcome()->current;
    for (const MemoryBand& b : t.bands) {
      const std::string& name = t.plan.tensors[static_cast<size_t>(b.tensor)].name;
      const ir::Value* v = g.findValue(name);
      QVERIFY2(v != nullptr && v->producer() != nullptr, name.c_str());
      QCOMPARE(b.producer, v->producer()->id());
      QVERIFY2(std::set<ir::NodeId>(b.readers.begin(), b.readers.end()) == readersOf(g, name),
               name.c_str());
      QVERIFY(!p->chart()->bandRect(b.tensor).isEmpty());
    }
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
    for (const MemoryBand& b : t.bands) {
      const QRectF r = chart->bandRect(b.tensor);
      for (double f : {0.5, 0.25, 0.75, 0.1}) {
        QPoint pt = QPointF(r.left() + f * r.width(), r.center().y()).toPoint();
        if (!b.readers.empty() && chart->bandAt(pt) == b.tensor) {
          band = b.tensor;
          click = pt;
          break;
        }
      }
      if (band >= 0) break;
    }
    QVERIFY(band >= 0);
    const MemoryBand& b = t.bands[static_cast<size_t>(band)];
    const QString name = QString::fromStdString(t.plan.tensors[static_cast<size_t>(band)].name);
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
      if (after->lowerBound < before->lowerBound && before->lowerBound - after->lowerBound > drop) {
        drop = before->lowerBound - after->lowerBound;
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
    QCOMPARE(p->chart()->curveCount(), 2);
    QVERIFY(p->outcome()->current.plan.lowerBound < p->outcome()->before->plan.lowerBound);
    const QString summary = p->summaryText();
    QVERIFY2(summary.contains(QStringLiteral("Step %1").arg(lowering + 1)), qPrintable(summary));
    QVERIFY2(summary.contains(memoryBytesText(p->outcome()->before->plan.lowerBound) +
                              QStringLiteral(" → ") +
                              memoryBytesText(p->outcome()->current.plan.lowerBound)),
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
    // The run's sizes: a, b and y (a graph output, in the dock's block) are
    // as large as the synthesized x.
    auto inputs = pipeline::planInputs(w.document()->model(), pipeline::InputSpec{});
    QVERIFY(inputs && inputs->size() == 1);
    const uint64_t n = static_cast<uint64_t>(inputs->front().shape().at(0));
    QCOMPARE(t.plan.tensors.size(), size_t{3});
    for (const auto& tensor : t.plan.tensors) QCOMPARE(tensor.bytes, n * 4 * sizeof(float));
    QVERIFY(exec::memory::checkPlan(t.plan).ok());
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
};

QTEST_MAIN(MemoryTest)
#include "memory_test.moc"
