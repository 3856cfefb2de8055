// The Profile dock end to end: open a demo, profile it (a row per node, op
// totals, chart, roofline), the heat overlay on the graph, selection both
// ways with the timing in Properties, filtering, CSV and JSON export; after
// Run All, the comparison with the original (node groups, regressions first);
// a model that cannot run shows the error in the dock naming the node.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>

#include "tests/ui/ui_test_support.h"
#include "ui/document/graph_ref.h"
#include "ui/graphview/graph_items.h"
#include "ui/graphview/graph_panel.h"
#include "ui/graphview/graph_scene.h"
#include "ui/graphview/graph_tabs.h"
#include "ui/mainwindow/language.h"
#include "ui/mainwindow/main_window.h"
#include "ui/mainwindow/settings.h"
#include "ui/mainwindow/task_progress.h"
#include "ui/pipeline/pipeline_session.h"
#include "ui/profile/profile_chart.h"
#include "ui/profile/profile_panel.h"
#include "ui/profile/profile_tables.h"
#include "ui/profile/roofline_view.h"
#include "ui/properties/properties_panel.h"

using namespace passlab;
using namespace passlab::ui;

namespace {

constexpr int kWaitMs = 240000;

bool waitProfile(ProfilePanel* p) {
  QElapsedTimer t;
  t.start();
  while (p->runner()->isRunning() && t.elapsed() < kWaitMs) QTest::qWait(10);
  return !p->runner()->isRunning();
}

bool openIn(MainWindow& w, const QString& path) {
  QSignalSpy opened(&w, &MainWindow::modelOpened);
  w.openFile(path, QFileInfo(path).completeBaseName());
  return opened.wait(30000);
}

// Few, short runs: the tests check the wiring, not the numbers.
void quickSettings(ProfilePanel* p) {
  p->setSettings({.threads = 1, .warmup = 0, .repeats = 3});
}

}  // namespace

class ProfileTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    testing::isolateSettings();
    // The machine roofs are cached per test run, not in the user's cache.
    qputenv("XDG_CACHE_HOME", testing::tempDir().toUtf8());
    Settings::layoutHelper.set(QStringLiteral(PASSLAB_LAYOUT_HELPER_PATH));
    Language::apply(QStringLiteral("en"));
  }

  void profilesTheModel() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openIn(w, QStringLiteral(":/demos/cnn_block.txt")));
    ProfilePanel* p = w.profilePanel();
    quickSettings(p);
    QVERIFY(p->runProfile());
    QVERIFY(p->runner()->isRunning());
    QVERIFY(w.tasks()->isBusy());  // progress and Cancel in the status bar
    QVERIFY(waitProfile(p));
    QVERIFY2(p->outcome() != nullptr, qPrintable(p->errorText()));
    QVERIFY(p->errorText().isEmpty());
    QTRY_VERIFY(!w.tasks()->isBusy());

    // A row per node, each naming a node of the document.
    const ir::Model& model = w.document()->model();
    QCOMPARE(p->nodeModel()->rowCount(), static_cast<int>(model.graph().nodeCount()));
    for (const ProfileRow& r : p->nodeModel()->table().rows) {
      QCOMPARE(r.nodes.size(), size_t{1});
      QVERIFY(findNode(model, r.nodes.front()) != nullptr);
    }
    QVERIFY(p->opTypeModel()->rowCount() > 0);
    QVERIFY(p->chart()->barCount() > 0);
    QVERIFY(!p->summaryText().isEmpty());

    // Sorted by median time, slowest first.
    QSortFilterProxyModel* proxy = p->nodeProxy();
    for (int r = 1; r < proxy->rowCount(); ++r)
      QVERIFY(proxy->index(r - 1, 3).data(ProfileTableModel::kSortRole).toDouble() >=
              proxy->index(r, 3).data(ProfileTableModel::kSortRole).toDouble());
    // Filtering by op.
    p->setFilter(QStringLiteral("Conv"));
    QVERIFY(proxy->rowCount() > 0);
    QVERIFY(proxy->rowCount() < p->nodeModel()->rowCount());
    p->setFilter(QString());
    QCOMPARE(proxy->rowCount(), p->nodeModel()->rowCount());

    // The heat overlay colours the boxes of the main graph, and goes away.
    GraphPanel* main = w.graphTabs()->mainPanel();
    QTRY_VERIFY_WITH_TIMEOUT(!main->isLayoutRunning() && main->scene()->hasLayout(), 30000);
    p->setHeatShown(true);
    QVERIFY(!main->scene()->heat().empty());
    int heated = 0;
    for (NodeItem* item : main->scene()->nodeItems()) heated += item->heat() >= 0;
    QVERIFY(heated > 0);
    p->setHeatShown(false);
    QVERIFY(main->scene()->heat().empty());
    for (NodeItem* item : main->scene()->nodeItems()) QVERIFY(item->heat() < 0);

    // A row selects its node in the graph; Properties shows its timing.
    QModelIndex second = proxy->index(1, 0);
    auto node = second.data(ProfileTableModel::kNodeRole).toULongLong();
    p->nodeView()->setCurrentIndex(second);
    QCOMPARE(main->selection().kind, Selection::Kind::kNode);
    QCOMPARE(main->selection().node, node);
    QVERIFY2(w.properties()->timingText().contains(QStringLiteral("ms")),
             qPrintable(w.properties()->timingText()));
    // ... and the graph's selection selects the row.
    auto first = proxy->index(0, 0).data(ProfileTableModel::kNodeRole).toULongLong();
    main->select(Selection::ofNode(GraphRef(), first));
    QCOMPARE(p->selectedNode(), first);

    // The roofline has points for the nodes with FLOPs; picking one selects it.
    QVERIFY(p->outcome()->roofs.has_value());
    QVERIFY(p->outcome()->roofs->gemmGflops > 0 && p->outcome()->roofs->bandwidthGBps > 0);
    QVERIFY(!p->roofline()->plottedNodes().empty());
    ir::NodeId plotted = p->roofline()->plottedNodes().front();
    const pipeline::NodeTiming* t = nullptr;
    for (const auto& n : p->outcome()->profile.nodes)
      if (n.nodeId == plotted) t = &n;
    QVERIFY(t != nullptr);
    p->roofline()->pickNear(QPointF(t->cost.flops / static_cast<double>(t->bytesMoved), t->gflops));
    QCOMPARE(main->selection().node, plotted);
    QCOMPARE(p->selectedNode(), plotted);

    // Export: valid JSON with every node; CSV with a header and a line per node.
    QString json = testing::tempDir() + QStringLiteral("/profile.json");
    QString csv = testing::tempDir() + QStringLiteral("/profile.csv");
    QCOMPARE(p->exportJsonTo(json), QString());
    QCOMPARE(p->exportCsvTo(csv), QString());
    QFile jf(json);
    QVERIFY(jf.open(QIODevice::ReadOnly));
    QJsonParseError error;
    QJsonDocument doc = QJsonDocument::fromJson(jf.readAll(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QCOMPARE(doc.object().value(QStringLiteral("nodes")).toArray().size(),
             p->nodeModel()->rowCount());
    QFile cf(csv);
    QVERIFY(cf.open(QIODevice::ReadOnly));
    QCOMPARE(cf.readAll().trimmed().split('\n').size(), p->nodeModel()->rowCount() + 1);
  }

  void comparesWithTheOriginal() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openIn(w, QStringLiteral(":/demos/cnn_block.txt")));
    ProfilePanel* p = w.profilePanel();
    quickSettings(p);
    QVERIFY(!p->canCompare());  // nothing applied yet
    QVERIFY(w.pipeline()->runAll());
    QTRY_VERIFY_WITH_TIMEOUT(!w.pipeline()->isRunning(), 120000);
    QVERIFY(!w.pipeline()->steps().empty());
    QVERIFY(p->canCompare());
    QVERIFY(p->runCompare());
    QVERIFY(waitProfile(p));
    QVERIFY2(p->outcome() != nullptr, qPrintable(p->errorText()));
    QVERIFY(p->outcome()->compare);
    const pipeline::CompareResult& c = p->outcome()->comparison;
    QCOMPARE(QString::fromStdString(c.matching), QStringLiteral("provenance"));
    QVERIFY(!c.groups.empty());
    QCOMPARE(p->nodeModel()->rowCount(), static_cast<int>(c.groups.size()));
    // Groups in the run's order: regressions first.
    bool seenOther = false;
    for (int r = 0; r < p->nodeProxy()->rowCount(); ++r) {
      int source = p->nodeProxy()->mapToSource(p->nodeProxy()->index(r, 0)).row();
      bool regression = c.groups[static_cast<size_t>(source)].regression;
      QVERIFY(!(regression && seenOther));
      seenOther |= !regression;
    }
    bool rewritten = false;
    for (const auto& g : c.groups) rewritten |= g.kind == pipeline::GroupKind::kRewritten;
    QVERIFY(rewritten);
    QVERIFY(p->chart()->barCount() > 0);
    QVERIFY(p->summaryText().contains(QStringLiteral("×")));
    // The overlay shows the current model's shares.
    p->setHeatShown(true);
    QVERIFY(!w.graphTabs()->mainPanel()->scene()->heat().empty());
    QString json = testing::tempDir() + QStringLiteral("/compare.json");
    QCOMPARE(p->exportJsonTo(json), QString());
    QFile jf(json);
    QVERIFY(jf.open(QIODevice::ReadOnly));
    QJsonDocument doc = QJsonDocument::fromJson(jf.readAll());
    QCOMPARE(doc.object().value(QStringLiteral("groups")).toArray().size(),
             static_cast<qsizetype>(c.groups.size()));

    // Going back to the original keeps the figures, marked as older than the model.
    w.pipeline()->reset();
    QVERIFY(p->outcome() != nullptr);
    QVERIFY2(p->summaryText().contains(QStringLiteral("changed since")),
             qPrintable(p->summaryText()));
    // Another model: the figures (and the overlay) are gone.
    w.document()->undoStack()->setClean();  // no "discard changes?" question
    QVERIFY(openIn(w, QStringLiteral(":/demos/conv_relu.txt")));
    QVERIFY(p->outcome() == nullptr);
    QCOMPARE(p->nodeModel()->rowCount(), 0);
    QVERIFY(w.graphTabs()->mainPanel()->scene()->heat().empty());
  }

  void cancelStopsTheRun() {
    MainWindow w;
    w.show();
    QVERIFY(openIn(w, QStringLiteral(":/demos/cnn_block.txt")));
    ProfilePanel* p = w.profilePanel();
    p->setSettings({.threads = 1, .warmup = 1000, .repeats = 1000});
    QVERIFY(p->runProfile());
    QVERIFY(w.tasks()->isBusy());
    w.tasks()->cancelAll();  // the status bar's Cancel
    QVERIFY(waitProfile(p));
    QVERIFY(p->outcome() == nullptr);
    QVERIFY2(p->errorText().contains(QStringLiteral("cancelled")), qPrintable(p->errorText()));
    QTRY_VERIFY(!w.tasks()->isBusy());
  }

  void closingTheWindowWhileProfilingIsSafe() {
    auto* w = new MainWindow;
    w->show();
    QVERIFY(openIn(*w, QStringLiteral(":/demos/transformer_block.txt")));
    w->profilePanel()->setSettings({.threads = 1, .warmup = 100, .repeats = 1000});
    QVERIFY(w->profilePanel()->runProfile());
    QTest::qWait(20);
    delete w;  // cancels the run and waits for the worker
  }

  void aModelThatCannotRunShowsTheError() {
    QString path = testing::tempDir() + QStringLiteral("/no_kernel.txt");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"(<ir_version: 8, opset_import: ["" : 17, "com.example" : 1]>
no_kernel (float[1,4] X) => (float[1,4] Y)
{
  [first] A = Relu(X)
  [mystery] Y = com.example.Mystery(A)
}
)");
    f.close();
    MainWindow w;
    w.show();
    QVERIFY(openIn(w, path));
    ProfilePanel* p = w.profilePanel();
    quickSettings(p);
    QVERIFY(p->runProfile());
    QVERIFY(waitProfile(p));
    QVERIFY(p->outcome() == nullptr);
    QVERIFY2(p->errorText().contains(QStringLiteral("mystery")), qPrintable(p->errorText()));
    qInfo("%s", qPrintable(p->errorText()));
    // The document stays usable: it can be profiled again, the pipeline runs.
    QVERIFY(w.document()->hasModel());
    QVERIFY(p->runProfile());
    QVERIFY(waitProfile(p));
    QVERIFY(w.pipeline()->step());
    QTRY_VERIFY_WITH_TIMEOUT(!w.pipeline()->isRunning(), 60000);
  }
};

QTEST_MAIN(ProfileTest)
#include "profile_test.moc"
