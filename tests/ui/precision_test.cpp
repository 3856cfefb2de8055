// The Precision dock end to end, on a chain of MatMul layers whose last layer
// has a weight float16 cannot hold (1e5, clamped to 65504): ranking for FP16
// draws one bar per layer the pass converts alone, that layer on top;
// clicking its bar selects its node; mixed precision keeps it in float32 and
// lands as a pipeline Step (in the Timeline with its accuracy figures,
// undoable) with the kept node marked on the graph; Cancel stops a run and
// changes nothing; a bad calibration folder is named in the error and the
// model is left as it is; after calibration a selected tensor shows its
// histogram and the method's range.
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCheckBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QHorizontalStackedBarSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>
#include <cmath>

#include "core/analysis/shape_inference.h"
#include "core/passes/calibration_stats.h"
#include "core/pipeline/calibration.h"
#include "core/pipeline/precision_checker.h"
#include "tests/ui/ui_test_support.h"
#include "ui/graphview/graph_panel.h"
#include "ui/graphview/graph_scene.h"
#include "ui/graphview/graph_tabs.h"
#include "ui/mainwindow/language.h"
#include "ui/mainwindow/main_window.h"
#include "ui/mainwindow/settings.h"
#include "ui/pipeline/budget_editor.h"
#include "ui/pipeline/pipeline_panel.h"
#include "ui/pipeline/pipeline_session.h"
#include "ui/pipeline/timeline_model.h"
#include "ui/pipeline/timeline_panel.h"
#include "ui/precision/precision_panel.h"
#include "ui/precision/sensitivity_chart.h"
#include "ui/precision/tensor_histogram.h"

using namespace passlab;
using namespace passlab::ui;

namespace {

// `layers` MatMul layers fc1..fcN on a [2,4] activation; the last one's
// weight holds 1e5. Written to a file in the test's temporary folder.
QString chainModel(int layers) {
  QString text = QStringLiteral(
      "<ir_version: 8, opset_import: [\"\" : 13]>\n"
      "chain (float[2,4] x) => (float[2,4] y)\n<");
  for (int l = 1; l <= layers; ++l) {
    const bool last = l == layers;
    text += QStringLiteral(
                "float[4,4] w%1 = {%2, 0.25, 0, 0, 0, 0.5, 0.25, 0, 0, 0, 0.5, 0.25, "
                "0.25, 0, 0, 0.5}%3")
                .arg(l)
                .arg(last ? QStringLiteral("100000") : QStringLiteral("0.5"))
                .arg(last ? QStringLiteral(">\n{\n") : QStringLiteral(",\n"));
  }
  for (int l = 1; l <= layers; ++l)
    text += QStringLiteral("  [fc%1] %2 = MatMul(%3, w%1)\n")
                .arg(l)
                .arg(l == layers ? QStringLiteral("y") : QStringLiteral("h%1").arg(l))
                .arg(l == 1 ? QStringLiteral("x") : QStringLiteral("h%1").arg(l - 1));
  text += QStringLiteral("}\n");
  const QString path = testing::tempDir() + QStringLiteral("/precision_chain_%1.txt").arg(layers);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write(text.toUtf8());
  return path;
}

// A classifier (float[2,12] logits: top-1 and top-k are measured on it):
// two MatMul layers fc1, fc2 with 12x12 weights. Written to a file in the
// test's temporary folder.
QString classifierModel() {
  QString text = QStringLiteral(
      "<ir_version: 8, opset_import: [\"\" : 13]>\n"
      "classifier (float[2,12] x) => (float[2,12] y)\n<");
  for (int l = 1; l <= 2; ++l) {
    QStringList w;
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j)
        w << QString::number(i == j ? 1.0 : 0.01 * double(i + 2 * j + l), 'g', 6);
    text += QStringLiteral("float[12,12] w%1 = {%2}%3")
                .arg(l)
                .arg(w.join(QStringLiteral(", ")))
                .arg(l == 2 ? QStringLiteral(">\n{\n") : QStringLiteral(",\n"));
  }
  text += QStringLiteral(
      "  [fc1] h = MatMul(x, w1)\n"
      "  [fc2] y = MatMul(h, w2)\n}\n");
  const QString path = testing::tempDir() + QStringLiteral("/precision_classifier.txt");
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write(text.toUtf8());
  return path;
}

// Opens `path` and waits for the main graph's first layout (selections need it).
bool openIn(MainWindow& w, const QString& path) {
  QSignalSpy opened(&w, &MainWindow::modelOpened);
  w.openFile(path, QFileInfo(path).completeBaseName());
  if (!opened.wait(30000)) return false;
  GraphPanel* main = w.graphTabs()->mainPanel();
  QElapsedTimer t;
  t.start();
  while ((main->isLayoutRunning() || !main->scene()->hasLayout()) && t.elapsed() < 30000)
    QTest::qWait(5);
  return main->scene()->hasLayout();
}

// The SNR spin box of a panel's budget.
QDoubleSpinBox* snrBox(QWidget* panel) {
  for (QDoubleSpinBox* b : panel->findChildren<QDoubleSpinBox*>())
    if (b->prefix().startsWith(QStringLiteral("SNR"))) return b;
  return nullptr;
}

// `w` shown with `path` open and the Precision panel's target set to
// `choice`: the panel, or null when the model did not open.
PrecisionPanel* openWithChoice(MainWindow& w, const QString& path, const PrecisionChoice& choice) {
  w.resize(1400, 900);
  w.show();
  if (!openIn(w, path)) return nullptr;
  PrecisionPanel* p = w.precisionPanel();
  p->setChoice(choice);
  return p;
}

bool waitIdle(MainWindow& w, int ms = 120000) {
  QElapsedTimer t;
  t.start();
  while ((w.precisionPanel()->worker()->isRunning() || w.pipeline()->isRunning()) &&
         t.elapsed() < ms)
    QTest::qWait(5);
  return !w.precisionPanel()->worker()->isRunning() && !w.pipeline()->isRunning();
}

ir::NodeId idOf(const ir::Model& m, const std::string& name) {
  for (const auto& n : m.graph().nodes())
    if (n->name() == name) return n->id();
  return 0;
}

PrecisionChoice fp16() {
  return PrecisionChoice{PrecisionTarget::kFloat16, passes::CalibrationMethod::kMinMax, true};
}

}  // namespace

class PrecisionTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    testing::isolateSettings();
    Settings::layoutHelper.set(QStringLiteral(PASSLAB_LAYOUT_HELPER_PATH));
    Language::apply(QStringLiteral("en"));
  }

  // Every registered target is offered; magnitude pruning only with its pass.
  void theTargetsFollowTheRegisteredPasses() {
    const std::vector<PrecisionTarget> targets = availableTargets();
    QVERIFY(targets.size() >= 5);
    QCOMPARE(targets.front(), PrecisionTarget::kFloat16);
    for (PrecisionTarget t : targets) QVERIFY(!targetText(t).isEmpty());
    pipeline::PassSpec s =
        specOf({PrecisionTarget::kInt8Static, passes::CalibrationMethod::kEntropy, false});
    QCOMPARE(s.id, std::string("quantize_static"));
    QVERIFY((s.options == passes::Options{{"method", "entropy"}, {"per_channel", "false"}}));
    QVERIFY(specOf(fp16()).options.empty());
  }

  // One bar per layer the pass converts alone, the most sensitive on top;
  // its bar selects its node in the graph.
  void rankingDrawsABarPerConvertedLayer() {
    MainWindow w;
    PrecisionPanel* p = openWithChoice(w, chainModel(6), fp16());
    QVERIFY(p);
    QVERIFY(p->rankLayers());
    QVERIFY(waitIdle(w));
    QVERIFY2(p->messageText().isEmpty(), qPrintable(p->messageText()));
    SensitivityChart* chart = p->chart();
    // Each of the six MatMuls converts alone; nothing else does.
    QCOMPARE(chart->barCount(), 6);
    const ir::NodeId fc6 = idOf(w.document()->model(), "fc6");
    QCOMPARE(chart->ranking().front().node, fc6);
    QVERIFY(chart->ranking().front().snrDb < 30);
    QVERIFY(chart->ranking()[1].snrDb > 40);
    QVERIFY2(p->summaryText().contains(QStringLiteral("6 layer")), qPrintable(p->summaryText()));
    // The top bar is the last category of the chart (index 5).
    auto* series = qobject_cast<QHorizontalStackedBarSeries*>(chart->chart()->series().front());
    QVERIFY(series != nullptr);
    QCOMPARE(chart->convertedSet()->count(), 6);
    GraphPanel* main = w.graphTabs()->mainPanel();
    emit series->clicked(5, chart->convertedSet());
    QCOMPARE(main->selection().kind, Selection::Kind::kNode);
    QCOMPARE(main->selection().node, fc6);
    // No classifier output ([2,4] has too few classes): no top-k in the labels.
    QVERIFY(!chart->ranking().front().topK.has_value());
    QVERIFY2(!chart->barText(0).contains(QStringLiteral("top-")), qPrintable(chart->barText(0)));
    QVERIFY(chart->barText(0).endsWith(snrText(chart->ranking().front().snrDb)));
    // The model itself is untouched by the ranking.
    QVERIFY(w.pipeline()->steps().empty());
  }

  // A bar's label gives the top-k agreement where the layer's trial measured
  // one, with the k it was measured with; none where it did not.
  void aBarShowsTheTopKAgreement() {
    SensitivityChart chart;
    pipeline::LayerSensitivity a, b;
    a.node = 1;
    a.describe = "MatMul 'fc1' (#1)";
    a.snrDb = 12.5;
    a.topK = 0.8;
    b.node = 2;
    b.describe = "MatMul 'fc2' (#2)";
    b.snrDb = 40;
    chart.setRanking({a, b}, {}, 3);
    QCOMPARE(chart.topK(), 3);
    QCOMPARE(chart.barText(0), QStringLiteral("MatMul 'fc1' (#1)  12.5 dB  top-3 80%"));
    QCOMPARE(chart.barText(1), QStringLiteral("MatMul 'fc2' (#2)  40.0 dB"));
    QCOMPARE(chart.barText(2), QString());
    // The chart's axis carries the same labels (the top bar last).
    auto* axis = qobject_cast<QBarCategoryAxis*>(chart.chart()->axes(Qt::Vertical).value(0));
    QVERIFY(axis != nullptr);
    QCOMPARE(axis->categories(), (QStringList{chart.barText(1), chart.barText(0)}));
  }

  // On a classifier the ranking measures top-k with the budget's k and the
  // panel's bars show it; a mixed-precision run after k changed ranks again
  // with the new k instead of reusing the old ranking's agreements.
  void theRankingShowsTheBudgetsTopK() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openIn(w, classifierModel()));
    pipeline::AccuracyBudget budget = w.pipeline()->accuracyBudget();
    budget.topK = 3;
    w.pipeline()->setAccuracyBudget(budget);
    PrecisionPanel* p = w.precisionPanel();
    p->setChoice(fp16());
    QVERIFY(p->rankLayers());
    QVERIFY(waitIdle(w));
    QVERIFY2(p->messageText().isEmpty(), qPrintable(p->messageText()));
    SensitivityChart* chart = p->chart();
    QCOMPARE(chart->barCount(), 2);
    QCOMPARE(chart->topK(), 3);
    for (int i = 0; i < chart->barCount(); ++i) {
      QVERIFY(chart->ranking()[static_cast<size_t>(i)].topK.has_value());
      QVERIFY2(chart->barText(i).contains(QStringLiteral("  top-3 ")),
               qPrintable(chart->barText(i)));
    }
    budget.topK = 4;
    w.pipeline()->setAccuracyBudget(budget);
    QVERIFY(p->mixedPrecision());
    QVERIFY(waitIdle(w));
    QVERIFY2(p->messageText().isEmpty(), qPrintable(p->messageText()));
    QCOMPARE(chart->topK(), 4);
    QVERIFY2(chart->barText(0).contains(QStringLiteral("  top-4 ")), qPrintable(chart->barText(0)));
  }

  // Every figure of the budget is set in the Precision panel too, and the
  // Pipeline panel shows it (one budget, the session's): max rel and top-1,
  // not limited by default as on the command line.
  void everyFigureOfTheBudgetIsOneWithThePipelinePanels() {
    MainWindow w;
    auto* mine = w.precisionPanel()->findChild<BudgetEditor*>();
    auto* theirs = w.pipelinePanel()->findChild<BudgetEditor*>();
    QVERIFY(mine != nullptr && theirs != nullptr && mine != theirs);
    QVERIFY(std::isinf(w.pipeline()->accuracyBudget().maxRelError));
    QVERIFY(!mine->maxRelLimited()->isChecked());
    mine->maxRelLimited()->setChecked(true);
    mine->maxRelBox()->setValue(5);
    mine->top1Box()->setValue(40);
    QCOMPARE(w.pipeline()->accuracyBudget().maxRelError, 0.05);
    QCOMPARE(w.pipeline()->accuracyBudget().minTop1, 0.4);
    QVERIFY(theirs->maxRelLimited()->isChecked());
    QCOMPARE(theirs->maxRelBox()->value(), 5.0);
    QCOMPARE(theirs->top1Box()->value(), 40.0);
    // Switched off in the Pipeline panel: not limited, in both.
    theirs->maxRelLimited()->setChecked(false);
    QVERIFY(std::isinf(w.pipeline()->accuracyBudget().maxRelError));
    QVERIFY(!mine->maxRelLimited()->isChecked());
    QVERIFY(!mine->maxRelBox()->isEnabled());
    // Top-k and its k too; the other panel's box names the new k.
    mine->kBox()->setValue(3);
    mine->topKBox()->setValue(90);
    QCOMPARE(w.pipeline()->accuracyBudget().topK, 3);
    QCOMPARE(w.pipeline()->accuracyBudget().minTopK, 0.9);
    QCOMPARE(theirs->kBox()->value(), 3);
    QCOMPARE(theirs->topKBox()->value(), 90.0);
    QCOMPARE(theirs->topKBox()->prefix(), QStringLiteral("top-3 ≥ "));
  }

  // Mixed precision keeps fc6 for a 30 dB budget and applies FP16 to the rest
  // as a Step; the Timeline shows its accuracy; the kept node is marked; undo
  // takes the Step and the mark away.
  void mixedPrecisionAddsAStep() {
    MainWindow w;
    PrecisionPanel* p = openWithChoice(w, chainModel(6), fp16());
    QVERIFY(p);
    // One budget: set in the Precision panel, the Pipeline panel shows it.
    QDoubleSpinBox* snr = snrBox(p);
    QVERIFY(snr != nullptr && snrBox(w.pipelinePanel()) != nullptr);
    snr->setValue(30);
    QCOMPARE(w.pipeline()->accuracyBudget().minSnrDb, 30.0);
    QCOMPARE(snrBox(w.pipelinePanel())->value(), 30.0);
    const ir::NodeId fc6 = idOf(w.document()->model(), "fc6");
    QVERIFY(p->mixedPrecision());
    QVERIFY(waitIdle(w));
    QTRY_VERIFY_WITH_TIMEOUT(!w.pipeline()->isRunning(), 30000);
    QVERIFY2(p->messageText().isEmpty(), qPrintable(p->messageText()));
    QCOMPARE(w.pipeline()->steps().size(), size_t(1));
    const AppliedStep& s = *w.pipeline()->steps().front();
    QCOMPARE(s.step.passId, std::string("convert_to_float16"));
    QVERIFY(s.step.changed);
    QVERIFY(!s.step.rolledBack);
    QVERIFY((s.filter.excluded == std::unordered_set<ir::NodeId>{fc6}));
    QVERIFY(s.step.check.ran && s.step.check.lossy && s.step.check.passed);
    // fc6 is still a float32 MatMul reading float32 weights.
    const ir::Node* kept = findNode(w.document()->model(), fc6);
    QVERIFY(kept != nullptr);
    QCOMPARE(kept->input(1)->type().elemType(), ir::DataType::kFloat);
    // The Timeline's check column gives the accuracy figures.
    TimelineModel* model = w.timeline()->model();
    const QString check = model->index(0, TimelineModel::kCheck).data().toString();
    QVERIFY2(
        check.startsWith(QStringLiteral("within budget")) && check.contains(QStringLiteral("dB")),
        qPrintable(check));
    // The kept node is marked on the graph, and the bar drawn apart.
    QVERIFY((p->keptNodes() == std::set<ir::NodeId>{fc6}));
    GraphPanel* main = w.graphTabs()->mainPanel();
    QCOMPARE(main->scene()->diffMarks().count(fc6), size_t(1));
    QCOMPARE(p->chart()->keptSet()->at(5), p->chart()->ranking().front().snrDb);
    // Undo: the Step and the mark go.
    w.document()->undoStack()->undo();
    QVERIFY(w.pipeline()->steps().empty());
    QVERIFY(p->keptNodes().empty());
    QCOMPARE(main->scene()->diffMarks().count(fc6), size_t(0));
  }

  // A budget that only keeping every layer meets (the SNR box's maximum): no Step (it
  // would be the model unchanged), a message that says the budget cannot be
  // met and what the least sensitive layer alone gives; the ranking drawn.
  // Before, a Step with every layer excluded was applied.
  void aBudgetNothingMeetsAddsNoStep() {
    MainWindow w;
    PrecisionPanel* p = openWithChoice(w, chainModel(6), fp16());
    QVERIFY(p);
    QDoubleSpinBox* snr = snrBox(p);
    QVERIFY(snr != nullptr);
    snr->setValue(snr->maximum());
    QVERIFY(w.pipeline()->accuracyBudget().minSnrDb >= 200);
    QVERIFY(p->mixedPrecision());
    QVERIFY(waitIdle(w));
    QTRY_VERIFY_WITH_TIMEOUT(!w.pipeline()->isRunning(), 30000);
    QVERIFY(w.pipeline()->steps().empty());
    const QString message = p->messageText();
    QVERIFY2(message.contains(QStringLiteral("The budget cannot be met: convert_to_float16")) &&
                 message.contains(QStringLiteral("dB is below")),
             qPrintable(message));
    QVERIFY(p->keptNodes().empty());
    QCOMPARE(p->chart()->barCount(), 6);
  }

  // INT8 static: the method and per-channel chosen are the Step's options,
  // and its calibration runs on the pipeline's synthesized sets.
  void int8StaticRunsWithTheChosenMethod() {
    MainWindow w;
    PrecisionPanel* p =
        openWithChoice(w, chainModel(4),
                       {PrecisionTarget::kInt8Static, passes::CalibrationMethod::kEntropy, false});
    QVERIFY(p);
    pipeline::AccuracyBudget loose;
    loose.minSnrDb = -100;
    loose.minCosine = -1;
    w.pipeline()->setAccuracyBudget(loose);
    w.pipeline()->setSynthesizedCalibrationSets(4);
    QVERIFY(p->mixedPrecision());
    QVERIFY(waitIdle(w));
    QVERIFY2(p->messageText().isEmpty(), qPrintable(p->messageText()));
    QCOMPARE(p->chart()->barCount(), 4);  // each MatMul quantizes alone
    QCOMPARE(w.pipeline()->steps().size(), size_t(1));
    const pipeline::Step& s = w.pipeline()->steps().front()->step;
    QCOMPARE(s.passId, std::string("quantize_static"));
    QVERIFY(s.changed && !s.rolledBack);
    auto option = [&s](const std::string& name) {
      for (const auto& [k, v] : s.options)
        if (k == name) return v;
      return std::string();
    };
    QCOMPARE(option("method"), std::string("entropy"));
    QCOMPARE(option("per_channel"), std::string("false"));
    QVERIFY(p->keptNodes().empty());  // anything holds: nothing kept
  }

  void cancelStopsARun() {
    MainWindow w;
    PrecisionPanel* p = openWithChoice(w, chainModel(40), fp16());
    QVERIFY(p);
    QSignalSpy failed(p->worker(), &PrecisionWorker::failed);
    QSignalSpy finished(p->worker(), &PrecisionWorker::finished);
    const int undoIndex = w.document()->undoStack()->index();
    QVERIFY(p->mixedPrecision());
    p->cancel();
    QVERIFY(waitIdle(w));
    QCOMPARE(finished.size(), 0);
    QCOMPARE(failed.size(), 1);
    QVERIFY2(p->messageText().contains(QStringLiteral("Cancelled")), qPrintable(p->messageText()));
    QCOMPARE(p->chart()->barCount(), 0);
    QVERIFY(w.pipeline()->steps().empty());
    QCOMPARE(w.document()->undoStack()->index(), undoIndex);
  }

  // INT8 mixed precision with no ranking yet calibrates once for its ranking
  // and its bisection (each calibrated the model again before; a ranking
  // alone calibrates once too), and ranks as a ranking run does.
  void int8MixedPrecisionCalibratesOnce() {
    const PrecisionChoice int8{PrecisionTarget::kInt8Static, passes::CalibrationMethod::kMinMax,
                               true};
    auto runOnce = [&](bool mixed) -> PrecisionOutcomePtr {
      MainWindow w;
      PrecisionPanel* p = openWithChoice(w, chainModel(6), int8);
      if (!p) return nullptr;
      w.pipeline()->setSynthesizedCalibrationSets(4);
      QSignalSpy finished(p->worker(), &PrecisionWorker::finished);
      if (!(mixed ? p->mixedPrecision() : p->rankLayers()) || !waitIdle(w) || finished.count() != 1)
        return nullptr;
      return finished.at(0).at(0).value<PrecisionOutcomePtr>();
    };
    const PrecisionOutcomePtr ranking = runOnce(false);
    const PrecisionOutcomePtr mixed = runOnce(true);
    QVERIFY(ranking && mixed);
    QCOMPARE(ranking->calibrations, size_t(1));
    QCOMPARE(mixed->calibrations, size_t(1));
    QVERIFY(mixed->mixed.has_value());
    QCOMPARE(mixed->ranked.size(), ranking->ranked.size());
    QVERIFY(!ranking->ranked.empty());
    for (size_t i = 0; i < ranking->ranked.size(); ++i) {
      QVERIFY(mixed->ranked[i].node == ranking->ranked[i].node);
      QVERIFY(mixed->ranked[i].snrDb == ranking->ranked[i].snrDb);
    }
  }

  // A calibration folder that is not there: the error names it, nothing runs
  // on the model.
  void aBadCalibrationFolderIsNamed() {
    MainWindow w;
    PrecisionPanel* p = openWithChoice(
        w, chainModel(6), {PrecisionTarget::kInt8Static, passes::CalibrationMethod::kMinMax, true});
    QVERIFY(p);
    const QString folder = testing::tempDir() + QStringLiteral("/no_such_calibration_folder");
    w.pipeline()->setCalibrationFolder(folder.toStdString());
    const int nodes = static_cast<int>(w.document()->model().graph().nodeCount());
    for (auto run : {&PrecisionPanel::mixedPrecision, &PrecisionPanel::calibrate}) {
      QVERIFY((p->*run)());
      QVERIFY(waitIdle(w));
      QVERIFY2(p->messageText().contains(folder), qPrintable(p->messageText()));
      QVERIFY(w.pipeline()->steps().empty());
      QCOMPARE(w.document()->undoStack()->count(), 0);
      QCOMPARE(static_cast<int>(w.document()->model().graph().nodeCount()), nodes);
    }
  }

  // After calibration a selected activation shows its histogram: every value
  // counted, the method's range and clipped share from core's statistics.
  void aCalibratedTensorShowsItsHistogram() {
    MainWindow w;
    PrecisionPanel* p = openWithChoice(
        w, chainModel(6),
        {PrecisionTarget::kInt8Static, passes::CalibrationMethod::kPercentile, true});
    QVERIFY(p);
    w.pipeline()->setSynthesizedCalibrationSets(4);
    GraphPanel* main = w.graphTabs()->mainPanel();
    main->select(Selection::ofValue(GraphRef(), "h3"));  // before calibration: a hint only
    QVERIFY(!p->histogram()->hasData());
    QVERIFY(p->calibrate());
    QVERIFY(waitIdle(w));
    QVERIFY2(p->messageText().isEmpty(), qPrintable(p->messageText()));
    TensorHistogram* h = p->histogram();
    QVERIFY(h->hasData());
    QCOMPARE(h->tensor(), QStringLiteral("h3"));
    // 4 sets of [2,4] values, every one in a bar.
    const TensorCalibration& c = *h->stats();
    QCOMPARE(c.count, uint64_t(32));
    uint64_t counted = 0;
    for (uint64_t n : c.bins) counted += n;
    QCOMPARE(counted, c.count);
    const passes::QuantRange& r = c.range(passes::CalibrationMethod::kPercentile);
    QVERIFY(r.lo <= 0 && r.hi >= 0 && r.lo >= std::min(c.min, 0.0f) &&
            r.hi <= std::max(c.max, 0.0f));
    QVERIFY(c.clippedShare(passes::CalibrationMethod::kMinMax) == 0);
    QVERIFY(h->caption().contains(QStringLiteral("Percentile")));
    QVERIFY(h->caption().contains(QStringLiteral("% clipped")));
    // A weight is not an activation: no histogram.
    main->select(Selection::ofValue(GraphRef(), "w2"));
    QVERIFY(!p->histogram()->hasData());
    // The output is.
    main->select(Selection::ofValue(GraphRef(), "y"));
    QVERIFY(p->histogram()->hasData());
  }

  // On a corpus model the panel's ranking is core's, as `passlab-cli
  // precision` computes it (same reference, same order, same figures); both
  // timed in one run.
  void theRankingOnACorpusModelIsCores() {
    const auto path = testing::corpusModel(QStringLiteral("ppocr_cls_mobile_v2.onnx"));
    if (!path) QSKIP("the corpus (ppocr_cls_mobile_v2.onnx) is not there");
    MainWindow w;
    PrecisionPanel* p = openWithChoice(w, *path, fp16());
    QVERIFY(p);
    // Twice each, interleaved (the first run of either warms caches up).
    std::optional<std::vector<pipeline::LayerSensitivity>> ranked;
    for (int round = 0; round < 2; ++round) {
      QElapsedTimer t;
      t.start();
      QVERIFY(p->rankLayers());
      QVERIFY(waitIdle(w));
      const qint64 panelMs = t.elapsed();
      QVERIFY2(p->messageText().isEmpty(), qPrintable(p->messageText()));
      t.restart();
      ir::Model model = w.document()->model().clone();
      analysis::inferShapes(model);
      auto checker = pipeline::precisionChecker(model, {}, w.pipeline()->checkInputSets());
      QVERIFY(static_cast<bool>(checker));
      pipeline::ExecEvaluator constants;
      pipeline::SensitivityOptions o;
      o.evaluator = &constants;
      auto r = pipeline::rankLayers(model, **checker, o);
      QVERIFY(static_cast<bool>(r));
      const qint64 coreMs = t.elapsed();
      qInfo("ranking %zu layers: panel %lld ms (from the click to the chart), core %lld ms",
            r->size(), static_cast<long long>(panelMs), static_cast<long long>(coreMs));
      ranked = std::move(r.value());
    }
    const auto& shown = p->chart()->ranking();
    QCOMPARE(shown.size(), ranked->size());
    QCOMPARE(p->chart()->barCount(), static_cast<int>(ranked->size()));
    for (size_t i = 0; i < shown.size(); ++i) {
      QCOMPARE(shown[i].node, (*ranked)[i].node);
      QCOMPARE(shown[i].snrDb, (*ranked)[i].snrDb);
    }
  }
};

QTEST_MAIN(PrecisionTest)
#include "precision_test.moc"
