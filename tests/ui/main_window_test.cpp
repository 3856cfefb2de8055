// The main window end to end (offscreen): the default demo on start, every
// demo, a corpus model, properties of nodes and initializers (statistics,
// histogram, documentation, "no data yet" slots and real data once a pipeline
// provides it), the summary, search, recent files, Save As, language switch.
#include <QFileInfo>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QtTest>
#include <algorithm>

#include "core/passes/registry.h"
#include "tests/ui/ui_test_support.h"
#include "ui/demos/demos.h"
#include "ui/document/commands.h"
#include "ui/document/model_files.h"
#include "ui/graphview/graph_items.h"
#include "ui/graphview/graph_panel.h"
#include "ui/graphview/graph_scene.h"
#include "ui/graphview/graph_tabs.h"
#include "ui/graphview/search_bar.h"
#include "ui/lessons/lesson_library.h"
#include "ui/lessons/lesson_session.h"
#include "ui/mainwindow/language.h"
#include "ui/mainwindow/main_window.h"
#include "ui/mainwindow/settings.h"
#include "ui/mainwindow/task_progress.h"
#include "ui/pipeline/pass_help.h"
#include "ui/properties/histogram_widget.h"
#include "ui/properties/port_model.h"
#include "ui/properties/properties_panel.h"
#include "ui/summary/summary_models.h"
#include "ui/summary/summary_panel.h"

using namespace passlab;
using namespace passlab::ui;

namespace {

bool openAndWait(MainWindow& w, const QString& path, const QString& name = {}) {
  QSignalSpy opened(&w, &MainWindow::modelOpened);
  w.openFile(path, name);
  if (!opened.wait(60000)) return false;
  GraphPanel* p = w.graphTabs()->mainPanel();
  QElapsedTimer t;
  t.start();
  while ((p->isLayoutRunning() || w.summary()->isComputing()) && t.elapsed() < 60000)
    QTest::qWait(10);
  return !p->isLayoutRunning();
}

ir::NodeId nodeNamed(Document* doc, const std::string& name) {
  for (const auto& n : doc->model().graph().nodes())
    if (n->name() == name) return n->id();
  return 0;
}

}  // namespace

class MainWindowTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    testing::isolateSettings();
    Settings::layoutHelper.set(QStringLiteral(PASSLAB_LAYOUT_HELPER_PATH));
    Language::apply(QStringLiteral("en"));
  }

  void everyDemoOpensAndIsDrawn() {
    MainWindow w;
    w.show();
    for (const DemoModel& d : demoModels()) {
      QSignalSpy opened(&w, &MainWindow::modelOpened);
      w.openDemo(d);
      QVERIFY(w.isLoading() || opened.count() == 1);
      QVERIFY2(opened.count() == 1 || opened.wait(30000), qPrintable(d.title));
      GraphPanel* p = w.graphTabs()->mainPanel();
      QTRY_VERIFY_WITH_TIMEOUT(!p->isLayoutRunning() && p->scene()->hasLayout(), 30000);
      QCOMPARE(w.document()->displayName(), d.title);
      QVERIFY(w.document()->filePath().isEmpty());
      QVERIFY(w.windowTitle().contains(d.title));
      QCOMPARE(p->scene()->result()->engine, layout::Engine::kGraphviz);
      QTRY_VERIFY(!w.tasks()->isBusy());
    }
  }

  // On a 1280x800 screen (or 2560x1600 at 200%) the window and every panel
  // fit: panels taller than their dock scroll instead of growing the window.
  void theWindowFitsA1280x800Screen() {
    MainWindow w;
    QVERIFY(openAndWait(w, QStringLiteral(":/demos/transformer_block.txt"), QStringLiteral("tf")));
    w.show();
    const QSize least = w.minimumSizeHint().expandedTo(w.minimumSize());
    QVERIFY2(least.width() <= 1280 && least.height() <= 800,
             qPrintable(QStringLiteral("%1 x %2").arg(least.width()).arg(least.height())));
    const QSize available = w.screen()->availableGeometry().size();
    // Never larger than the screen, unless the screen is below that least size.
    QVERIFY(w.width() <= std::max(available.width(), least.width()));
    QVERIFY(w.height() <= std::max(available.height(), least.height()));
  }

  // A pass's help links to the lesson that runs it, and the link opens it.
  void passHelpLinksToTheLessonOfThePass() {
    MainWindow w;
    QCOMPARE(w.lessonTitleFor(QStringLiteral("fuse_conv_batchnorm")),
             w.lessonLibrary().find(QStringLiteral("08_fusion"))->text(QStringLiteral("en")).title);
    QCOMPARE(w.lessonTitleFor(QStringLiteral("fuse_gemm_activation")), QString());
    const QString page = PassHelpDialog::html(passes::findPass("fuse_conv_batchnorm")->info(), &w);
    QVERIFY(page.contains(QStringLiteral("lesson:fuse_conv_batchnorm")));
    QSignalSpy opened(&w, &MainWindow::modelOpened);
    w.openLessonFor(QStringLiteral("fuse_conv_batchnorm"));
    QVERIFY(opened.count() == 1 || opened.wait(30000));
    QVERIFY(w.lessons()->lesson() != nullptr);
    QCOMPARE(w.lessons()->lesson()->id, QStringLiteral("08_fusion"));
  }

  void propertiesOfNodesAndInitializers() {
    MainWindow w;
    QVERIFY(openAndWait(w, QStringLiteral(":/demos/cnn_block.txt"), QStringLiteral("cnn")));
    GraphPanel* p = w.graphTabs()->mainPanel();
    PropertiesPanel* props = w.properties();
    // A node: its documentation comes from the operator table.
    p->select(Selection::ofNode(GraphRef(), nodeNamed(w.document(), "bn")));
    QCOMPARE(props->title(), QStringLiteral("BatchNormalization"));
    QVERIFY2(
        props->documentationText().contains(QStringLiteral("normalization"), Qt::CaseInsensitive),
        qPrintable(props->documentationText()));
    QCOMPARE(props->inputModel()->rowCount(), 5);
    // No pipeline has run: the slots say so instead of showing invented data.
    QVERIFY(props->provenanceText().startsWith(QStringLiteral("No data yet")));
    QVERIFY(props->matchFailureText().startsWith(QStringLiteral("No data yet")));
    // When the pipeline provides insights, they are shown.
    auto store = std::make_shared<NodeInsightsStore>();
    const ir::NodeId bn = nodeNamed(w.document(), "bn");
    store->setProvenance(bn, {"fold_demo", 3, {bn}, {"BatchNormalization 'bn'"}});
    store->recordMatchFailure(
        bn, {"fuse_conv_bn", "conv+bn", "the Conv output has a second reader", 3});
    w.document()->setInsights(store);
    QVERIFY2(props->provenanceText().contains(QStringLiteral("fold_demo")),
             qPrintable(props->provenanceText()));
    QVERIFY(props->matchFailureText().contains(QStringLiteral("second reader")));

    // An initializer: shape and statistics with a histogram.
    p->select(Selection::ofValue(GraphRef(), "bn_var"));
    QCOMPARE(props->title(), QStringLiteral("bn_var"));
    QTRY_VERIFY(!props->statisticsPending());
    QString stats = props->statisticsText();
    QVERIFY2(stats.contains(QStringLiteral("min 0.")) && stats.contains(QStringLiteral("zeros 0")),
             qPrintable(stats));
    int64_t total = 0;
    for (int64_t b : props->histogram()->bins()) total += b;
    QCOMPARE(total, int64_t{8});
    // A renamed node is shown with its new name; the edit is undoable.
    p->select(Selection::ofNode(GraphRef(), bn));
    w.document()->undoStack()->push(new RenameNodeCommand(w.document(), bn, "batchnorm"));
    QVERIFY(w.windowTitle().contains(QStringLiteral("*")) || w.isWindowModified());
    w.document()->undoStack()->undo();
    QVERIFY(!w.isWindowModified());
  }

  // A value's readers are listed in node order, whatever order its use list
  // is in (detaching a use moves the last one into its place).
  void valueReadersAreListedInNodeOrder() {
    MainWindow w;
    QVERIFY(openAndWait(w, QStringLiteral(":/demos/elementwise.txt"), QStringLiteral("ew")));
    ir::Graph& g = w.document()->model().graph();
    ir::Value* x1 = g.findValue("x1");
    ir::Value* x2 = g.findValue("x2");
    QVERIFY(x1 && x2);
    ir::Node* log = g.findNode(nodeNamed(w.document(), "ln_x1"));
    QVERIFY(log);
    log->setInput(0, x2);
    log->setInput(0, x1);  // x1's use list is now Mul first, Log second
    QCOMPARE(x1->uses().front().node->name(), std::string("x1_times_x2"));
    w.graphTabs()->mainPanel()->select(Selection::ofValue(GraphRef(), "x1"));
    const QString text = w.properties()->valueInfoText();
    const auto logAt = text.indexOf(QStringLiteral("ln_x1"));
    const auto mulAt = text.indexOf(QStringLiteral("x1_times_x2"));
    QVERIFY2(logAt >= 0 && mulAt > logAt, qPrintable(text));
  }

  void largeInitializerStatisticsRunInTheBackground() {
    auto m = std::make_unique<ir::Model>();
    m->setOpsetVersion("", 17);
    ir::Graph& g = m->graph();
    std::vector<float> data(3'000'000);
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i % 1000) / 1000.0f;
    data[0] = 0;
    ir::Value* w0 =
        g.addInitializer("big", ir::Tensor::fromVector(ir::DataType::kFloat, {3000, 1000}, data));
    ir::Value* x = g.addInput("x", ir::Type::tensor(ir::DataType::kFloat, ir::Shape({1, 3000})));
    g.addOutput(g.addNode("MatMul", "", {x, w0}, 1)->output(0));
    MainWindow w;
    w.document()->open(std::move(m), QString(), QStringLiteral("big"));
    w.graphTabs()->mainPanel()->select(Selection::ofValue(GraphRef(), "big"));
    QVERIFY(w.properties()->statisticsPending());
    QTRY_VERIFY_WITH_TIMEOUT(!w.properties()->statisticsPending(), 30000);
    QString stats = w.properties()->statisticsText();
    QVERIFY2(stats.contains(QStringLiteral("max 0.999")), qPrintable(stats));
    QVERIFY2(stats.contains(QStringLiteral("zeros 3,000")), qPrintable(stats));
  }

  void summaryMatchesTheModel() {
    MainWindow w;
    QVERIFY(openAndWait(w, QStringLiteral(":/demos/transformer_block.txt"), QStringLiteral("tf")));
    QTRY_VERIFY(!w.summary()->isComputing());
    QString facts = w.summary()->factsText();
    QVERIFY2(facts.contains(QStringLiteral("IR version: 8")), qPrintable(facts));
    QVERIFY2(facts.contains(QStringLiteral("ai.onnx 17")), qPrintable(facts));
    QVERIFY2(facts.contains(QStringLiteral("GFLOP")), qPrintable(facts));
    int total = 0;
    OpCountModel* ops = w.summary()->opCounts();
    for (int r = 0; r < ops->rowCount(); ++r)
      total += ops->data(ops->index(r, OpCountModel::kCount)).toInt();
    QCOMPARE(static_cast<size_t>(total), w.document()->model().graph().nodeCount());
  }

  void corpusModelOpensGroupedAndFast() {
    auto path = testing::corpusModel(QStringLiteral("ort_gpt2_past.onnx"));
    if (!path) QSKIP("corpus not found (set PASSLAB_CORPUS_DIR)");
    MainWindow w;
    w.show();
    QElapsedTimer t;
    t.start();
    QVERIFY(openAndWait(w, *path));
    qInfo("ort_gpt2_past: opened and laid out in %lld ms", static_cast<long long>(t.elapsed()));
    GraphPanel* p = w.graphTabs()->mainPanel();
    QCOMPARE(p->groups().mode(), layout::GroupingMode::kBlock);
    QVERIFY(p->scene()->nodeItems().size() <= 200);
    QCOMPARE(w.document()->filePath(), QFileInfo(*path).absoluteFilePath());
    QVERIFY(Settings::recentFiles.get().contains(QFileInfo(*path).absoluteFilePath()));
    // Search reaches nodes hidden in collapsed blocks.
    w.searchBar()->lineEdit()->setText(QStringLiteral("Softmax"));
    QTRY_VERIFY(p->hitCount() > 0);
    QCOMPARE(p->hitCount(), 12);
    QTRY_VERIFY_WITH_TIMEOUT(!p->isLayoutRunning(), 30000);
    QCOMPARE(p->selection().kind, Selection::Kind::kNode);
    QVERIFY(p->scene()->itemForNode(p->selection().node)->kind() == layout::ItemKind::kOp);
  }

  void saveAsKeepsTheOriginal() {
    MainWindow w;
    QString original = testing::tempDir() + QStringLiteral("/orig.onnx");
    {
      Document d;
      d.open(testing::demo(QStringLiteral("conv_relu")), QString(), QStringLiteral("cr"));
      QVERIFY(d.saveAs(original).isOk());
    }
    QVERIFY(openAndWait(w, original));
    QSignalSpy saved(&w, &MainWindow::saved), failed(&w, &MainWindow::saveFailed);
    w.saveTo(original, false);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(saved.count(), 0);
    QString copy = testing::tempDir() + QStringLiteral("/copy.onnx");
    w.document()->undoStack()->push(new RenameNodeCommand(
        w.document(), w.document()->model().graph().nodes().front()->id(), "c"));
    w.saveTo(copy, false);
    QVERIFY(saved.wait(30000));
    QVERIFY(QFileInfo::exists(copy));
    QVERIFY(!w.document()->isModified());
    QVERIFY(openAndWait(w, copy));
    QCOMPARE(w.document()->model().graph().nodes().front()->name(), std::string("c"));
  }

  // A model with verifier errors it did not have when opened (here from an
  // attribute edit; a faulty pass would do the same) is not written until the
  // user confirms; errors it came with do not block a save.
  void saveAsksBeforeWritingNewVerifierErrors() {
    MainWindow w;
    QVERIFY(openAndWait(w, QStringLiteral(":/demos/conv_relu.txt"), QStringLiteral("cr")));
    QVERIFY(w.document()->openedVerifierErrors().empty());
    w.document()->undoStack()->push(
        new SetAttributeCommand(w.document(), nodeNamed(w.document(), "conv"), "kernel_shape",
                                ir::Attribute::makeString("kernel_shape", "3x3")));
    const QString path = testing::tempDir() + QStringLiteral("/unverified.onnx");
    QFile::remove(path);
    QSignalSpy saved(&w, &MainWindow::saved), failed(&w, &MainWindow::saveFailed),
        asked(&w, &MainWindow::saveNeedsConfirmation);
    auto question = [&w]() -> QMessageBox* {
      for (QMessageBox* b : w.findChildren<QMessageBox*>())
        if (b->isVisible() && b->button(QMessageBox::Save)) return b;
      return nullptr;
    };

    w.saveTo(path, false);
    QVERIFY(asked.wait(30000));
    QVERIFY2(asked.front().front().toString().contains(QStringLiteral("kernel_shape")),
             qPrintable(asked.front().front().toString()));
    QVERIFY(!QFileInfo::exists(path));
    QVERIFY(w.document()->isModified());
    QTRY_VERIFY(question() != nullptr);
    question()->button(QMessageBox::Cancel)->click();
    QTRY_COMPARE(failed.count(), 1);
    QVERIFY(!QFileInfo::exists(path));
    QCOMPARE(saved.count(), 0);

    w.saveTo(path, false);
    QVERIFY(asked.wait(30000));
    QTRY_VERIFY(question() != nullptr);
    // An edit while the question is open: "Save" writes the model that was
    // checked, and the document stays modified.
    w.document()->undoStack()->push(
        new RenameNodeCommand(w.document(), nodeNamed(w.document(), "relu"), "renamed"));
    question()->button(QMessageBox::Save)->click();
    QVERIFY(saved.wait(30000));
    QVERIFY(QFileInfo::exists(path));
    QVERIFY(w.document()->isModified());
    {
      LoadOutcome written = loadModelFile(path);
      QVERIFY2(written.model, qPrintable(written.error));
      bool hasRelu = false, hasRenamed = false;
      for (const auto& n : written.model->graph().nodes()) {
        hasRelu = hasRelu || n->name() == "relu";
        hasRenamed = hasRenamed || n->name() == "renamed";
      }
      QVERIFY(hasRelu && !hasRenamed);
    }

    // Opened again, the model comes with that error: saving it asks nothing.
    w.document()->undoStack()->setClean();  // the rename is not wanted: no "discard?" question
    QVERIFY(openAndWait(w, path));
    QCOMPARE(w.document()->openedVerifierErrors().size(), size_t{1});
    const int askedBefore = static_cast<int>(asked.count());
    const QString again = testing::tempDir() + QStringLiteral("/unverified_again.onnx");
    w.saveTo(again, false);
    QVERIFY(saved.wait(30000));
    QVERIFY(QFileInfo::exists(again));
    QCOMPARE(static_cast<int>(asked.count()), askedBefore);
  }

  void cancelledOpenKeepsTheCurrentModel() {
    MainWindow w;
    QVERIFY(openAndWait(w, QStringLiteral(":/demos/conv_relu.txt"), QStringLiteral("cr")));
    QSignalSpy opened(&w, &MainWindow::modelOpened);
    w.openFile(QStringLiteral(":/demos/transformer_block.txt"), QStringLiteral("tf"));
    QVERIFY(w.tasks()->isBusy());
    w.tasks()->cancelAll();
    QVERIFY(!w.isLoading());
    QTest::qWait(1000);
    QCOMPARE(opened.count(), 0);
    QCOMPARE(w.document()->displayName(), QStringLiteral("cr"));
    // A failing open says why and keeps the model too.
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    w.openFile(testing::tempDir() + QStringLiteral("/missing.onnx"));
    QVERIFY(failed.wait(10000));
    QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("missing.onnx")));
    QCOMPARE(w.document()->displayName(), QStringLiteral("cr"));
  }

  // The texts of the menu actions that have no Chinese character (the dock
  // toggles and the demo and recent-file entries are not the table's).
  static QStringList menuActionsWithoutChinese(const MainWindow& w) {
    QStringList out;
    for (QAction* top : w.menuBar()->actions())
      for (QAction* a : top->menu()->actions()) {
        if (a->isSeparator() || a->menu() != nullptr) continue;
        bool chinese = false;
        for (QChar c : a->text())
          chinese = chinese || (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF);
        if (!chinese) out << a->text();
      }
    return out;
  }

  void languageSwitchesAtRunTime() {
    MainWindow w;
    QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("&File"));
    QCOMPARE(Language::apply(QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
    // Widgets retranslate on the LanguageChange event the translator posts.
    QTRY_COMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("文件(&F)"));
    QVERIFY(w.searchBar()->lineEdit()->placeholderText().contains(QStringLiteral("查找")));
    QVERIFY(w.properties()->title().contains(QStringLiteral("未选中")));
    // Texts made outside widgets too (demo titles, op families).
    QVERIFY(demoModels()[3].title.contains(QStringLiteral("Transformer")));
    QCOMPARE(demoModels()[1].title, QStringLiteral("Conv + ReLU"));
    QVERIFY(demoModels()[2].title.contains(QStringLiteral("批归一化")));
    // Every action of every menu (the window's action table) is retranslated.
    const QStringList untranslated = menuActionsWithoutChinese(w);
    QVERIFY2(untranslated.isEmpty(), qPrintable(untranslated.join(QStringLiteral(", "))));
    Language::apply(QStringLiteral("en"));
    QTRY_COMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("&File"));
    QCOMPARE(Language::apply(QStringLiteral("xx")), QStringLiteral("en"));
  }
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
