// The graph view: Graphviz through the helper, the fallback when the helper is
// missing, killed, hung or cancelled (the window keeps running), grouping of
// large graphs, search, selection, bodies in tabs, drawing at every zoom.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

#include "tests/ui/ui_test_support.h"
#include "ui/document/commands.h"
#include "ui/document/document.h"
#include "ui/document/graph_ref.h"
#include "ui/document/model_files.h"
#include "ui/graphview/graph_items.h"
#include "ui/graphview/graph_panel.h"
#include "ui/graphview/graph_scene.h"
#include "ui/graphview/graph_tabs.h"
#include "ui/graphview/graph_view.h"
#include "ui/graphview/minimap.h"

using namespace passlab;
using namespace passlab::ui;

namespace {

ViewSettings withHelper(const QString& helper, int timeoutSeconds = 20) {
  ViewSettings v;
  v.helperPath = helper;
  v.layoutTimeoutSeconds = timeoutSeconds;
  return v;
}

// Waits for the panel's current layout (started in its constructor or later).
bool waitForLayout(GraphPanel& p, int ms = 30000) {
  QElapsedTimer t;
  t.start();
  while (p.isLayoutRunning() && t.elapsed() < ms) QTest::qWait(10);
  return !p.isLayoutRunning() && p.scene()->hasLayout();
}

ir::NodeId nodeNamed(const ir::Graph& g, const std::string& name) {
  for (const auto& n : g.nodes())
    if (n->name() == name) return n->id();
  return 0;
}

int opBoxes(const GraphScene& s) {
  int n = 0;
  for (NodeItem* item : s.nodeItems()) n += item->kind() == layout::ItemKind::kOp;
  return n;
}

}  // namespace

class GraphViewTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { testing::isolateSettings(); }

  void graphvizThroughTheHelper() {
    Document doc;
    doc.open(testing::demo(QStringLiteral("cnn_block")), QString(), QStringLiteral("cnn"));
    GraphPanel panel(&doc, GraphRef(), withHelper(QStringLiteral(PASSLAB_LAYOUT_HELPER_PATH)));
    QVERIFY(waitForLayout(panel));
    QCOMPARE(panel.scene()->result()->engine, layout::Engine::kGraphviz);
    QCOMPARE(opBoxes(*panel.scene()), static_cast<int>(doc.model().graph().nodeCount()));
    QVERIFY(!panel.scene()->edgeItems().empty());
    QVERIFY2(panel.layoutNote().contains(QStringLiteral("Graphviz")),
             qPrintable(panel.layoutNote()));
    // Arrows carry inferred types.
    bool typed = false;
    for (const auto& e : panel.scene()->request()->request.edges)
      typed |= e.label == "float[1,8,16,16]";
    QVERIFY(typed);
    QString svg = panel.svg();
    QVERIFY(svg.startsWith(QStringLiteral("<?xml")));
    QCOMPARE(svg.count(QStringLiteral("<rect ")),
             static_cast<int>(panel.scene()->request()->request.nodes.size()) + 1);
    QVERIFY(!panel.image(1000).isNull());
  }

  void fallbackWhenTheHelperIsMissing() {
    Document doc;
    doc.open(testing::demo(QStringLiteral("transformer_block")), QString(), QStringLiteral("tf"));
    GraphPanel panel(&doc, GraphRef(), withHelper(QStringLiteral("/nonexistent/passlab-layout")));
    QVERIFY(waitForLayout(panel));
    QCOMPARE(panel.scene()->result()->engine, layout::Engine::kLayered);
    QVERIFY2(panel.layoutNote().contains(QStringLiteral("could not be started")),
             qPrintable(panel.layoutNote()));
    QCOMPARE(opBoxes(*panel.scene()), static_cast<int>(doc.model().graph().nodeCount()));
  }

  void fallbackWhenTheHelperIsKilled() {
    Document doc;
    doc.open(testing::demo(QStringLiteral("cnn_block")), QString(), QStringLiteral("cnn"));
    GraphPanel panel(
        &doc, GraphRef(),
        withHelper(testing::fakeHelper(QStringLiteral("cat > /dev/null; kill -9 $$"))));
    QVERIFY(waitForLayout(panel));
    QCOMPARE(panel.scene()->result()->engine, layout::Engine::kLayered);
    QVERIFY2(panel.layoutNote().contains(QStringLiteral("signal 9")),
             qPrintable(panel.layoutNote()));
  }

  void hungHelperIsStoppedAndTheWindowKeepsRunning() {
    Document doc;
    doc.open(testing::demo(QStringLiteral("cnn_block")), QString(), QStringLiteral("cnn"));
    QElapsedTimer t;
    t.start();
    GraphPanel panel(&doc, GraphRef(),
                     withHelper(testing::fakeHelper(QStringLiteral("sleep 60")), 1));
    // The layout runs on a worker: the event loop turns meanwhile.
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, [&] { ++ticks; });
    ticker.start(20);
    QVERIFY(panel.isLayoutRunning());
    QVERIFY(waitForLayout(panel));
    QVERIFY2(t.elapsed() < 10000, qPrintable(QString::number(t.elapsed())));
    QVERIFY2(ticks > 10, "the event loop was blocked while laying out");
    QCOMPARE(panel.scene()->result()->engine, layout::Engine::kLayered);
    QVERIFY2(panel.layoutNote().contains(QStringLiteral("longer than")),
             qPrintable(panel.layoutNote()));
  }

  void cancelShowsTheFallbackAtOnce() {
    Document doc;
    doc.open(testing::demo(QStringLiteral("cnn_block")), QString(), QStringLiteral("cnn"));
    GraphPanel panel(&doc, GraphRef(),
                     withHelper(testing::fakeHelper(QStringLiteral("sleep 60")), 60));
    QVERIFY(panel.isLayoutRunning());
    QTest::qWait(100);
    QElapsedTimer t;
    t.start();
    panel.cancelLayout();
    QVERIFY(waitForLayout(panel, 5000));
    QVERIFY(t.elapsed() < 3000);
    QVERIFY(panel.scene()->result()->cancelled);
    QVERIFY2(panel.layoutNote().contains(QStringLiteral("cancelled")),
             qPrintable(panel.layoutNote()));
  }

  void largeGraphsStartGroupedAndOpenOnDemand() {
    Document doc;
    doc.open(testing::scopedLayers(100), QString(), QStringLiteral("big"));  // 801 nodes
    ViewSettings v = withHelper(QStringLiteral(PASSLAB_LAYOUT_HELPER_PATH));
    v.boxBudget = 40;
    GraphPanel panel(&doc, GraphRef(), v);
    QVERIFY(waitForLayout(panel));
    QCOMPARE(panel.groups().mode(), layout::GroupingMode::kScope);
    const int collapsed = static_cast<int>(panel.scene()->nodeItems().size());
    QVERIFY2(collapsed <= 40, qPrintable(QString::number(collapsed)));
    QVERIFY(opBoxes(*panel.scene()) <= 1);  // at most /head's single node
    // Selecting a hidden node opens the groups around it.
    const ir::NodeId target = nodeNamed(doc.model().graph(), "/model/layers.57/mlp/Relu_461");
    QVERIFY(target != 0);
    QSignalSpy selected(&panel, &GraphPanel::selectionChanged);
    panel.select(Selection::ofNode(GraphRef(), target));
    QCOMPARE(selected.count(), 1);
    QVERIFY(waitForLayout(panel));
    QVERIFY(panel.expandedGroups().count("/model/layers.57/mlp"));
    NodeItem* box = panel.scene()->itemForNode(target);
    QVERIFY(box);
    QCOMPARE(box->kind(), layout::ItemKind::kOp);
    QVERIFY(box->isMarked());
    QVERIFY(panel.view()
                ->mapToScene(panel.view()->viewport()->rect())
                .boundingRect()
                .intersects(box->rect()));
    // Collapsing hides it again; everything open shows every node.
    panel.collapseGroup("/model/layers.57");
    QVERIFY(waitForLayout(panel));
    QCOMPARE(panel.scene()->itemForNode(target)->kind(), layout::ItemKind::kGroup);
    panel.expandAll();
    QVERIFY(waitForLayout(panel, 120000));
    QCOMPARE(opBoxes(*panel.scene()), static_cast<int>(doc.model().graph().nodeCount()));
    panel.collapseAll();
    QVERIFY(waitForLayout(panel));
    QVERIFY(static_cast<int>(panel.scene()->nodeItems().size()) < collapsed + 5);
  }

  void searchNextAndPrevious() {
    Document doc;
    doc.open(testing::demo(QStringLiteral("cnn_block")), QString(), QStringLiteral("cnn"));
    GraphPanel panel(&doc, GraphRef(), withHelper(QStringLiteral(PASSLAB_LAYOUT_HELPER_PATH)));
    QVERIFY(waitForLayout(panel));
    QSignalSpy status(&panel, &GraphPanel::searchStatusChanged);
    panel.setSearch(QStringLiteral("reshape"), SearchField::kOpType);
    QCOMPARE(panel.hitCount(), 2);
    QCOMPARE(panel.currentHit(), 0);
    QCOMPARE(status.last().at(0).toInt(), 0);
    QCOMPARE(status.last().at(1).toInt(), 2);
    const ir::NodeId first = panel.selection().node;
    QCOMPARE(findNode(doc.model(), first)->opType(), std::string("Reshape"));
    panel.nextHit();
    QCOMPARE(panel.currentHit(), 1);
    QVERIFY(panel.selection().node != first);
    panel.nextHit();  // wraps
    QCOMPARE(panel.currentHit(), 0);
    panel.previousHit();  // wraps back
    QCOMPARE(panel.currentHit(), 1);
    // Every hit's box is marked.
    int marked = 0;
    for (NodeItem* item : panel.scene()->nodeItems()) marked += item->isHit();
    QCOMPARE(marked, 2);
    // Node names, tensor names (initializers too), nothing.
    panel.setSearch(QStringLiteral("to_n"), SearchField::kNodeName);
    QCOMPARE(panel.hitCount(), 2);  // to_nhwc, to_nchw
    panel.setSearch(QStringLiteral("bn_"), SearchField::kTensorName);
    QCOMPARE(panel.hitCount(), 4);  // bn_scale, bn_bias, bn_mean, bn_var
    QCOMPARE(panel.selection().kind, Selection::Kind::kValue);
    panel.setSearch(QStringLiteral("conv"), SearchField::kAny);
    QVERIFY(panel.hitCount() >= 3);  // node conv, op Conv, conv_w, conv_b
    panel.setSearch(QStringLiteral("no such thing"), SearchField::kAny);
    QCOMPARE(panel.hitCount(), 0);
    QCOMPARE(status.last().at(1).toInt(), 0);
  }

  void clickingSelects() {
    Document doc;
    doc.open(testing::demo(QStringLiteral("conv_relu")), QString(), QStringLiteral("cr"));
    GraphPanel panel(&doc, GraphRef(), withHelper(QStringLiteral(PASSLAB_LAYOUT_HELPER_PATH)));
    panel.resize(800, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(waitForLayout(panel));
    const ir::NodeId relu = nodeNamed(doc.model().graph(), "relu");
    NodeItem* box = panel.scene()->itemForNode(relu);
    QVERIFY(box);
    panel.view()->centerOn(box);
    QSignalSpy spy(&panel, &GraphPanel::selectionChanged);
    QPoint at = panel.view()->mapFromScene(box->rect().center());
    QTest::mouseClick(panel.view()->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(spy.count(), 1);
    auto s = spy.at(0).at(0).value<Selection>();
    QCOMPARE(s.kind, Selection::Kind::kNode);
    QCOMPARE(s.node, relu);
    // An arrow selects its value.
    EdgeItem* edge = panel.scene()->edgeItems().front();
    QPainterPath path = edge->shape();
    QPointF mid = path.pointAtPercent(0.5);
    // Click on the stroke: find a point of the path inside the shape.
    for (qreal f = 0.3; f < 0.7 && !edge->shape().contains(mid); f += 0.05)
      mid = path.pointAtPercent(f);
    panel.view()->centerOn(mid);
    QTest::mouseClick(panel.view()->viewport(), Qt::LeftButton, {},
                      panel.view()->mapFromScene(mid));
    QVERIFY(spy.count() >= 2);
    auto v = spy.last().at(0).value<Selection>();
    QCOMPARE(v.kind, Selection::Kind::kValue);
    QCOMPARE(QString::fromStdString(v.value), edge->valueName());
  }

  void renamingRelabelsWithoutANewLayout() {
    Document doc;
    doc.open(testing::demo(QStringLiteral("conv_relu")), QString(), QStringLiteral("cr"));
    GraphPanel panel(&doc, GraphRef(), withHelper(QStringLiteral(PASSLAB_LAYOUT_HELPER_PATH)));
    QVERIFY(waitForLayout(panel));
    QSignalSpy started(&panel, &GraphPanel::layoutStarted);
    const ir::NodeId relu = nodeNamed(doc.model().graph(), "relu");
    doc.undoStack()->push(new RenameNodeCommand(&doc, relu, "activation"));
    QCOMPARE(started.count(), 0);
    QVERIFY(panel.scene()->itemForNode(relu)->lines().contains(QStringLiteral("activation")));
    doc.undoStack()->undo();
    QVERIFY(panel.scene()->itemForNode(relu)->lines().contains(QStringLiteral("relu")));
  }

  void bodiesOpenInTabsAndCloseWhenGone() {
    Document doc;
    auto parsed = loadModelText(R"(<ir_version: 8, opset_import: ["" : 17]>
      main (bool c, float[2] x) => (float[2] z) {
        s = Relu(x)
        [branch] z = If <then_branch = t () => (float[2] a) { a = Identity(s) },
                         else_branch = e () => (float[2] b) { b = Neg(x) }> (c)
      })",
                                "if.txt");
    QVERIFY2(parsed.model, qPrintable(parsed.error));
    doc.open(std::move(parsed.model), QString(), QStringLiteral("if"));
    GraphTabs tabs(&doc, withHelper(QStringLiteral(PASSLAB_LAYOUT_HELPER_PATH)));
    QCOMPARE(tabs.count(), 1);
    const ir::Node* iff = findNode(doc.model(), nodeNamed(doc.model().graph(), "branch"));
    auto bodies = subgraphsOf(*iff);
    GraphPanel* then = tabs.open(bodies[0]);
    QCOMPARE(tabs.count(), 2);
    QCOMPARE(tabs.current(), then);
    QVERIFY(tabs.tabText(1).contains(QStringLiteral("then_branch")));
    QVERIFY(waitForLayout(*then));
    // The body reads s from outside: drawn as an input box.
    QVERIFY(then->scene()->itemForKey(QStringLiteral("in:s")) != nullptr);
    QCOMPARE(tabs.open(bodies[0]), then);  // not twice
    tabs.open(bodies[1]);
    QCOMPARE(tabs.count(), 3);
    // A pass that removes the If closes its bodies' tabs; undo brings the graph back.
    auto after = std::make_unique<ir::Model>(doc.model().clone());
    ir::Graph& g = after->graph();
    ir::Node* node = g.findNode(iff->id());
    ir::Node* neg = g.addNode("Neg", "", {g.findValue("x")}, std::vector<std::string>{"z2"});
    g.replaceAllUsesWith(node->output(0), neg->output(0));
    g.removeNode(node);
    doc.undoStack()->push(
        new ReplaceModelCommand(&doc, std::move(after), QStringLiteral("drop If")));
    QTRY_COMPARE(tabs.count(), 1);
    doc.undoStack()->undo();
    QVERIFY(tabs.mainPanel()->graph() != nullptr);
    // Opening another model closes body tabs.
    tabs.open(bodies[0]);
    QCOMPARE(tabs.count(), 2);
    doc.open(testing::demo(QStringLiteral("conv_relu")), QString(), QStringLiteral("cr"));
    QTRY_COMPARE(tabs.count(), 1);
  }

  void farOutOnBigGraphsTheViewShowsOnePicture() {
    Document doc;
    doc.open(testing::scopedLayers(600), QString(), QStringLiteral("huge"));  // 4,801 nodes
    ViewSettings v;
    v.useGraphviz = false;  // the built-in layout: this test is about drawing
    GraphPanel panel(&doc, GraphRef(), v);
    panel.resize(1000, 700);
    panel.show();
    QVERIFY(waitForLayout(panel));
    QVERIFY(!panel.view()->showsOverview());  // grouped: few boxes
    panel.expandAll();
    QVERIFY(waitForLayout(panel, 120000));
    QVERIFY(panel.scene()->nodeItems().size() > 4800);
    panel.view()->fitAll();
    QVERIFY2(panel.view()->showsOverview(), qPrintable(QString::number(panel.view()->zoom())));
    // Clicks still reach the graph's items through the picture.
    const ir::NodeId target = panel.scene()->nodeItems()[2000]->nodeId();
    QVERIFY(target != 0);
    NodeItem* box = panel.scene()->itemForNode(target);
    QSignalSpy spy(&panel, &GraphPanel::selectionChanged);
    // Still far out, but as near as the picture allows: a box is a few pixels.
    const qreal z = panel.view()->overviewResolution();
    QVERIFY2(z > 0.05, qPrintable(QStringLiteral("%1, scene %2 x %3")
                                      .arg(z)
                                      .arg(panel.scene()->sceneRect().width())
                                      .arg(panel.scene()->sceneRect().height())));
    panel.view()->setZoom(z);
    QVERIFY(panel.view()->showsOverview());
    panel.view()->centerOn(box->rect().center());
    QPoint at = panel.view()->mapFromScene(box->rect().center());
    QTest::mouseClick(panel.view()->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<Selection>().node, target);
    // Zoomed in, the items are drawn again.
    panel.view()->setZoom(1.0);
    QVERIFY(!panel.view()->showsOverview());
    QCOMPARE(panel.view()->scene(), static_cast<QGraphicsScene*>(panel.scene()));
  }

  // A tall graph opens at a readable zoom at its inputs, not fitted into
  // unreadable boxes; fitting on open is a remembered choice; a small graph
  // that fits at a readable zoom is shown whole either way.
  void firstViewIsReadableAtTheInputs() {
    Document doc;
    doc.open(testing::scopedLayers(25), QString(), QStringLiteral("tall"));  // 201 nodes
    ViewSettings v;
    v.useGraphviz = false;
    GraphPanel panel(&doc, GraphRef(), v);
    panel.resize(900, 700);
    panel.show();
    QVERIFY(waitForLayout(panel));
    const QRectF all = panel.scene()->itemsBoundingRect();
    auto visible = [&panel] {
      return panel.view()->mapToScene(panel.view()->viewport()->rect()).boundingRect();
    };
    QVERIFY2(panel.view()->zoom() >= GraphView::kReadableZoom - 1e-9,
             qPrintable(QString::number(panel.view()->zoom())));
    QVERIFY2(visible().top() <= all.top() + 1,
             qPrintable(QStringLiteral("top %1 vs %2").arg(visible().top()).arg(all.top())));
    QVERIFY(visible().bottom() < all.bottom());  // tall: the rest is a scroll away
    NodeItem* first = nullptr;                   // the topmost box: an input or the first op
    for (NodeItem* item : panel.scene()->nodeItems())
      if (!first || item->rect().top() < first->rect().top()) first = item;
    QVERIFY(first && visible().intersects(first->rect()));

    v.fitOnOpen = true;
    GraphPanel fitted(&doc, GraphRef(), v);
    fitted.resize(900, 700);
    fitted.show();
    QVERIFY(waitForLayout(fitted));
    QVERIFY(fitted.view()->zoom() < GraphView::kReadableZoom);
    const QRectF whole =
        fitted.view()->mapToScene(fitted.view()->viewport()->rect()).boundingRect();
    QVERIFY(whole.contains(fitted.scene()->itemsBoundingRect()));

    Document small;
    small.open(testing::demo(QStringLiteral("conv_relu")), QString(), QStringLiteral("cr"));
    v.fitOnOpen = false;
    GraphPanel smallPanel(&small, GraphRef(), v);
    smallPanel.resize(900, 700);
    smallPanel.show();
    QVERIFY(waitForLayout(smallPanel));
    QVERIFY(smallPanel.view()
                ->mapToScene(smallPanel.view()->viewport()->rect())
                .boundingRect()
                .contains(smallPanel.scene()->itemsBoundingRect()));
  }

  // The minimap floats over the graph: translucent at rest, and its corner
  // button collapses it to a small square in the same corner and back.
  void minimapCollapsesToACornerAndBack() {
    Document doc;
    doc.open(testing::scopedLayers(10), QString(), QStringLiteral("m"));
    ViewSettings v;
    v.useGraphviz = false;
    GraphPanel panel(&doc, GraphRef(), v);
    panel.resize(900, 700);
    panel.show();
    QVERIFY(waitForLayout(panel));
    MiniMap* map = panel.minimap();
    QVERIFY(map->isVisible());
    QVERIFY(MiniMap::kRestingOpacity < 1.0);
    const QSize expanded = map->size();
    const QPoint corner = map->geometry().bottomRight();
    QSignalSpy spy(map, &MiniMap::collapsedChanged);
    QTest::mouseClick(map, Qt::LeftButton, {}, map->toggleButton().center());
    QCOMPARE(spy.count(), 1);
    QVERIFY(map->isCollapsed());
    QCOMPARE(map->size(), QSize(MiniMap::kCollapsedSize, MiniMap::kCollapsedSize));
    QCOMPARE(map->geometry().bottomRight(), corner);
    // A click on the collapsed square moves nothing and opens it again.
    const QPointF centre = panel.view()->mapToScene(panel.view()->viewport()->rect().center());
    QTest::mouseClick(map, Qt::LeftButton, {}, map->rect().center());
    QVERIFY(!map->isCollapsed());
    QCOMPARE(map->size(), expanded);
    QCOMPARE(panel.view()->mapToScene(panel.view()->viewport()->rect().center()), centre);
  }

  void drawsAtEveryZoom() {
    Document doc;
    doc.open(testing::demo(QStringLiteral("transformer_block")), QString(), QStringLiteral("tf"));
    GraphPanel panel(&doc, GraphRef(), withHelper(QStringLiteral(PASSLAB_LAYOUT_HELPER_PATH)));
    panel.resize(900, 700);
    QVERIFY(waitForLayout(panel));
    QVector<int> inks;
    for (qreal zoom : {0.05, 0.3, 0.6, 1.0, 2.0}) {
      panel.view()->setZoom(zoom);
      QCOMPARE(panel.view()->zoom(), zoom);
      NodeItem* box = panel.scene()->nodeItems()[panel.scene()->nodeItems().size() / 2];
      panel.view()->centerOn(box);
      QImage img = panel.view()->viewport()->grab().toImage();
      int ink = 0;
      for (int y = 0; y < img.height(); y += 3)
        for (int x = 0; x < img.width(); x += 3) ink += img.pixel(x, y) != qRgb(255, 255, 255);
      QVERIFY2(ink > 0, qPrintable(QStringLiteral("nothing drawn at zoom %1").arg(zoom)));
      inks << ink;
    }
    panel.view()->fitAll();
    QVERIFY(panel.view()->zoom() <= 1.0);
  }
};

QTEST_MAIN(GraphViewTest)
#include "graph_view_test.moc"
