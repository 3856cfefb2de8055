// The Profile dock end to end: open a demo, profile it (a row per node, op
// totals, chart, roofline), the heat overlay on the graph, selection both
// ways with the timing in Properties, filtering, CSV and JSON export; after
// Run All, the comparison with the original (node groups, regressions first);
// a model that cannot run shows the error in the dock naming the node. The
// Device selector: CPU first, then what exec::listDevices finds (a hint when
// none), CPU profiles as before, a device run's summary and fallback rows.
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>

#include "core/exec/backend.h"
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
#include "ui/profile/profile_export.h"
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

  void deviceSelectorListsCpuFirstThenTheDevicesFound() {
    MainWindow w;
    ProfilePanel* p = w.profilePanel();
    QComboBox* box = p->deviceSelector();
    std::vector<std::string> notes;
    std::vector<exec::DeviceDescription> devices = exec::listDevices(&notes);
    QCOMPARE(box->count(), static_cast<int>(devices.size()) + 1);
    QCOMPARE(box->itemText(0), QStringLiteral("CPU"));
    QCOMPARE(box->itemData(0).toString(), QStringLiteral("cpu"));
    QCOMPARE(box->currentIndex(), 0);
    for (size_t i = 0; i < devices.size(); ++i) {
      const QString id = QStringLiteral("%1:%2")
                             .arg(QString::fromStdString(devices[i].backend))
                             .arg(devices[i].index);
      QCOMPARE(box->itemData(static_cast<int>(i) + 1).toString(), id);
      QVERIFY(box->itemText(static_cast<int>(i) + 1).startsWith(id + QLatin1Char(' ')));
    }
    QStringList noteList;
    for (const std::string& n : notes) noteList << QString::fromStdString(n);
    if (devices.empty() && !notes.empty())
      QCOMPARE(p->deviceHintText(),
               QStringLiteral("No GPU: ") + noteList.join(QStringLiteral("; ")));
    else
      QCOMPARE(p->deviceHintText(), QString());
    QCOMPARE(p->settings().device, std::string("cpu"));

    // A GPU listed: its entry after the CPU, chosen through the settings too.
    p->setDevices({{.backend = "cuda",
                    .index = 0,
                    .name = "NVIDIA H100 80GB HBM3",
                    .details = "compute 9.0, 79.1 GiB"}},
                  {});
    QCOMPARE(box->count(), 2);
    QCOMPARE(box->itemText(0), QStringLiteral("CPU"));
    QCOMPARE(box->itemText(1), QStringLiteral("cuda:0 NVIDIA H100 80GB HBM3"));
    QCOMPARE(box->itemData(1).toString(), QStringLiteral("cuda:0"));
    QCOMPARE(box->itemData(1, Qt::ToolTipRole).toString(), QStringLiteral("compute 9.0, 79.1 GiB"));
    QCOMPARE(p->deviceHintText(), QString());
    box->setCurrentIndex(1);
    QCOMPARE(p->settings().device, std::string("cuda:0"));
    p->setSettings({.device = "cpu", .threads = 1, .warmup = 0, .repeats = 3});
    QCOMPARE(box->currentIndex(), 0);
    p->setSettings({.device = "cuda:0", .threads = 1, .warmup = 0, .repeats = 3});
    QCOMPARE(p->settings().device, std::string("cuda:0"));
    p->setSettings({.device = "cpu", .threads = 1, .warmup = 0, .repeats = 3});
    p->setSettings({.device = "cuda", .threads = 1, .warmup = 0, .repeats = 3});  // its first
    QCOMPARE(p->settings().device, std::string("cuda:0"));

    // No GPU: only the CPU, the note as a hint and in the tooltip; a device
    // no longer listed is not kept.
    p->setDevices({}, {"cuda: the NVIDIA driver is missing"});
    QCOMPARE(box->count(), 1);
    QCOMPARE(p->settings().device, std::string("cpu"));
    QCOMPARE(p->deviceHintText(), QStringLiteral("No GPU: cuda: the NVIDIA driver is missing"));
    QVERIFY(box->toolTip().contains(QStringLiteral("the NVIDIA driver is missing")));
    p->setSettings({.device = "cuda:0", .threads = 1, .warmup = 0, .repeats = 3});
    QCOMPARE(p->settings().device, std::string("cpu"));

    // In Chinese.
    Language::apply(QStringLiteral("zh_CN"));
    QVERIFY(p->deviceHintText().contains(QStringLiteral("cuda: the NVIDIA driver is missing")));
    QVERIFY(!p->deviceHintText().startsWith(QStringLiteral("No GPU")));
    Language::apply(QStringLiteral("en"));
    QCOMPARE(box->itemText(0), QStringLiteral("CPU"));
  }

  void choosingTheCpuProfilesAsBefore() {
    MainWindow w;
    w.show();
    QVERIFY(openIn(w, QStringLiteral(":/demos/cnn_block.txt")));
    ProfilePanel* p = w.profilePanel();
    // A GPU listed, the CPU chosen.
    p->setDevices({{.backend = "cuda", .index = 0, .name = "NVIDIA H100 80GB HBM3", .details = ""}},
                  {});
    p->deviceSelector()->setCurrentIndex(1);
    quickSettings(p);  // device "cpu"
    QCOMPARE(p->deviceSelector()->currentIndex(), 0);
    QCOMPARE(p->whereText(), QString());
    QVERIFY(p->runProfile());
    QVERIFY(waitProfile(p));
    QVERIFY2(p->outcome() != nullptr, qPrintable(p->errorText()));
    const pipeline::ProfileResult& r = p->outcome()->profile;
    QCOMPARE(r.device, std::string("cpu"));
    QCOMPARE(r.deviceRun.device, std::string());
    QCOMPARE(p->nodeModel()->rowCount(), static_cast<int>(r.nodes.size()));
    QVERIFY(p->outcome()->roofs.has_value());
    QVERIFY2(p->whereText().startsWith(QStringLiteral("Ran on the CPU")),
             qPrintable(p->whereText()));
    for (const ProfileRow& row : p->nodeModel()->table().rows) QVERIFY(!row.fallback);
    QVERIFY(!profileToJson(*p->outcome()).contains(QStringLiteral("device_run")));
  }

  void theThreadsColumnSaysWhatChoseEachStepsThreads() {
    // Issue #26: the threads a node ran on and what chose them, the step
    // trials' times in the tip; "—" where no kernel ran.
    auto outcome = std::make_shared<ProfileOutcome>();
    pipeline::NodeTiming tried;
    tried.nodeId = 1;
    tried.name = "mm";
    tried.op = "MatMul";
    tried.threadUse = {.threads = 2,
                       .choice = exec::ThreadChoice::kTrial,
                       .trialOneMicros = 250,
                       .trialSplitMicros = 125};
    pipeline::NodeTiming small = tried;
    small.nodeId = 2;
    small.name = "relu";
    small.threadUse = {.threads = 1, .choice = exec::ThreadChoice::kCostModel};
    pipeline::NodeTiming oneThreadRun = tried;
    oneThreadRun.nodeId = 4;
    oneThreadRun.name = "conv";
    oneThreadRun.threadUse = {.threads = 1, .choice = exec::ThreadChoice::kOneThreadRun};
    pipeline::NodeTiming kept = tried;
    kept.nodeId = 3;
    kept.name = "kept";
    kept.threadUse = {};
    outcome->profile.nodes = {tried, small, kept, oneThreadRun};
    ProfileTable t = ProfileTables::nodes(*outcome);
    const int column = static_cast<int>(t.headers.indexOf(QStringLiteral("Threads")));
    QVERIFY(column >= 0);
    QCOMPARE(t.rows.size(), size_t{4});
    QCOMPARE(t.rows[0].cells[size_t(column)].text, QStringLiteral("2 (trial)"));
    QCOMPARE(t.rows[0].cells[size_t(column)].sortKey.toInt(), 2);
    QVERIFY2(t.rows[0].tip.contains(QStringLiteral("chosen by: trial")), qPrintable(t.rows[0].tip));
    QVERIFY2(t.rows[0].tip.contains(QStringLiteral("one thread 0.250 ms, split 0.125 ms")),
             qPrintable(t.rows[0].tip));
    QCOMPARE(t.rows[1].cells[size_t(column)].text, QStringLiteral("1 (cost model)"));
    QVERIFY(!t.rows[1].tip.contains(QStringLiteral("Step trials")));
    QCOMPARE(t.rows[2].cells[size_t(column)].text, QStringLiteral("—"));
    QCOMPARE(t.rows[2].cells[size_t(column)].sortKey.toInt(), 0);
    QVERIFY(!t.rows[2].tip.contains(QStringLiteral("thread")));
    QCOMPARE(t.rows[3].cells[size_t(column)].text, QStringLiteral("1 (one-thread run)"));
    QCOMPARE(t.rows[3].cells[size_t(column)].sortKey.toInt(), 1);
    QVERIFY2(t.rows[3].tip.contains(QStringLiteral("chosen by: one-thread run")),
             qPrintable(t.rows[3].tip));
    QVERIFY(!t.rows[3].tip.contains(QStringLiteral("Step trials")));
  }

  void aDeviceRunShowsWhereItRanAndMarksFallbacks() {
    // The figures a GPU run brings, without a GPU: the texts and the table.
    auto outcome = std::make_shared<ProfileOutcome>();
    pipeline::ProfileResult& r = outcome->profile;
    r.device = "cuda";
    r.deviceRun.device = "cuda:0 NVIDIA H100 80GB HBM3";
    r.deviceRun.deviceSteps = 40;
    r.deviceRun.hostSteps = 2;
    r.deviceRun.fallbackSteps = 3;
    r.deviceRun.copiesToDevice = 4;
    r.deviceRun.copiesToHost = 5;
    r.deviceRun.bytesToDevice = 4096;
    r.deviceRun.bytesToHost = 2048;
    r.deviceRun.fallbacks = {{"loop", "Loop", "no CUDA kernel for Loop"},
                             {"nms1", "NonMaxSuppression", "no CUDA kernel for NonMaxSuppression"},
                             {"nms2", "NonMaxSuppression", "no CUDA kernel for NonMaxSuppression"}};
    pipeline::NodeTiming conv;
    conv.nodeId = 1;
    conv.name = "conv";
    conv.op = "Conv";
    conv.kernel = "cudnn.Conv";
    pipeline::NodeTiming loop = conv;
    loop.nodeId = 2;
    loop.name = "loop";
    loop.op = "Loop";
    loop.kernel = "cpu-fallback:Loop";
    r.nodes = {conv, loop};

    const QString where = ProfilePanel::ranOnText(r);
    QVERIFY2(where.startsWith(QStringLiteral("Ran on cuda:0 NVIDIA H100 80GB HBM3: 40 steps on the "
                                             "device, 2 on the host (dims only), 3 on the CPU")),
             qPrintable(where));
    QVERIFY2(where.contains(QStringLiteral("copies: 4 to the device")), qPrintable(where));
    const QString fallbacks = ProfilePanel::fallbackText(r);
    QVERIFY2(fallbacks.contains(QStringLiteral("Loop: no CUDA kernel for Loop")),
             qPrintable(fallbacks));
    QVERIFY2(fallbacks.contains(QStringLiteral("NonMaxSuppression ×2: no CUDA kernel")),
             qPrintable(fallbacks));

    ProfileTable t = ProfileTables::nodes(*outcome);
    QCOMPARE(t.rows.size(), size_t{2});
    QVERIFY(!t.rows[0].fallback);
    QVERIFY(t.rows[1].fallback);
    QVERIFY(t.rows[1].cells[2].text.contains(QStringLiteral("(CPU fallback)")));
    QVERIFY2(t.rows[1].tip.contains(QStringLiteral("no CUDA kernel for Loop")),
             qPrintable(t.rows[1].tip));
    ProfileTableModel model;
    model.setTable(t);
    QVERIFY(!model.index(0, 1).data(Qt::BackgroundRole).isValid());
    QVERIFY(model.index(1, 1).data(Qt::BackgroundRole).isValid());
    QJsonObject json = profileToJson(*outcome);
    QCOMPARE(json.value(QStringLiteral("device_run"))
                 .toObject()
                 .value(QStringLiteral("fallback_steps"))
                 .toInt(),
             3);
    // The CLI's fields (core/pipeline/profile_json.h), the runs' node sums and time outside them
    // too.
    QCOMPARE(json.value(QStringLiteral("nodes"))
                 .toArray()
                 .at(1)
                 .toObject()
                 .value(QStringLiteral("node_id"))
                 .toInt(),
             2);
    QVERIFY(json.value(QStringLiteral("run_node_sums")).isObject());
    QVERIFY(json.value(QStringLiteral("outside_nodes")).isObject());

    // A CPU profile says so.
    pipeline::ProfileResult cpu;
    cpu.device = "cpu";
    cpu.machine.cpuModel = "Test CPU";
    QCOMPARE(ProfilePanel::ranOnText(cpu), QStringLiteral("Ran on the CPU (Test CPU)"));
    QCOMPARE(ProfilePanel::fallbackText(cpu), QString());
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
    // Both sides on the CPU: one line says so.
    QVERIFY2(p->whereText().startsWith(QStringLiteral("Ran on the CPU")) &&
                 !p->whereText().contains(QLatin1Char('\n')),
             qPrintable(p->whereText()));
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
    QCOMPARE(p->whereText(), QString());
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
