#include "ui/graphview/graph_panel.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QImage>
#include <QMenu>
#include <QPainter>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/layout/layout_engine.h"
#include "core/layout/svg_export.h"
#include "ui/graphview/graph_items.h"
#include "ui/graphview/graph_scene.h"
#include "ui/graphview/graph_view.h"
#include "ui/graphview/minimap.h"

namespace passlab::ui {

namespace {
const QSize kMinimapSize(200, 150);
}  // namespace

GraphPanel::GraphPanel(Document* doc, GraphRef ref, const ViewSettings& settings, QWidget* parent)
    : QWidget(parent), doc_(doc), ref_(std::move(ref)), settings_(settings) {
  qRegisterMetaType<passlab::ui::Selection>();
  qRegisterMetaType<passlab::ui::GraphRef>();
  scene_ = new GraphScene(this);
  view_ = new GraphView(this);
  view_->setGraphScene(scene_);
  minimap_ = new MiniMap(view_, view_);
  minimap_->setFixedSize(kMinimapSize);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view_);
  // The minimap floats in the view's bottom-right corner.
  auto placeMinimap = [this] {
    QSize s = view_->viewport()->size();
    minimap_->move(s.width() - minimap_->width() - 8, s.height() - minimap_->height() - 8);
  };
  connect(view_, &GraphView::viewChanged, this, placeMinimap);
  connect(minimap_, &MiniMap::collapsedChanged, this, [this, placeMinimap](bool collapsed) {
    minimap_->setFixedSize(collapsed ? QSize(MiniMap::kCollapsedSize, MiniMap::kCollapsedSize)
                                     : kMinimapSize);
    placeMinimap();
    if (!collapsed) minimap_->refresh();
  });
  connect(view_, &GraphView::itemClicked, this, &GraphPanel::onItemClicked);
  connect(view_, &GraphView::itemDoubleClicked, this, &GraphPanel::onItemDoubleClicked);
  connect(doc_, &Document::changed, this, &GraphPanel::onDocumentChanged);
  view_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(view_, &QWidget::customContextMenuRequested, this, &GraphPanel::showContextMenu);
  EdgeItem::setLabelsVisible(settings_.edgeLabels);
  relayout();
}

GraphPanel::~GraphPanel() {
  if (stop_) stop_->request_stop();  // a running helper is killed; its result is dropped
  // The view is a child, destroyed by ~QWidget after this panel's members:
  // its last viewChanged (hidden, resized) must not reach the half-destroyed
  // panel (UBSan's vptr check caught the minimap placement there).
  view_->disconnect(this);
}

ir::Graph* GraphPanel::graph() const {
  return doc_->hasModel() ? ref_.resolve(doc_->model()) : nullptr;
}

void GraphPanel::setViewSettings(const ViewSettings& settings) {
  if (settings == settings_) return;
  bool relayoutNeeded = settings.groupingThreshold != settings_.groupingThreshold ||
                        settings.boxBudget != settings_.boxBudget ||
                        settings.useGraphviz != settings_.useGraphviz ||
                        settings.helperPath != settings_.helperPath;
  bool regroup = settings.groupingThreshold != settings_.groupingThreshold ||
                 settings.boxBudget != settings_.boxBudget;
  settings_ = settings;
  EdgeItem::setLabelsVisible(settings_.edgeLabels);
  view_->viewport()->update();
  if (regroup) groupsValid_ = false;
  if (relayoutNeeded) relayout();
}

void GraphPanel::setMinimapVisible(bool visible) {
  minimap_->setVisible(visible);
  if (visible) minimap_->refresh();
}

// ---- layout ----

void GraphPanel::rebuildGroups(bool keepExpansion) {
  ir::Graph* g = graph();
  std::set<std::string> before = expanded_;
  layout::GroupingOptions o;
  o.threshold = static_cast<size_t>(std::max(0, settings_.groupingThreshold));
  tree_ = g ? layout::GroupTree::build(*g, o) : layout::GroupTree();
  expanded_.clear();
  if (keepExpansion) {
    for (const std::string& id : before)
      if (tree_.find(id) >= 0) expanded_.insert(id);
  } else {
    expanded_ = tree_.defaultExpansion(static_cast<size_t>(std::max(1, settings_.boxBudget)));
  }
  groupsValid_ = true;
}

void GraphPanel::relayout() {
  ir::Graph* g = graph();
  if (g == nullptr) {
    if (stop_) stop_->request_stop();
    ++generation_;
    scene_->clearLayout();
    minimap_->refresh();
    return;
  }
  if (!groupsValid_) rebuildGroups(false);
  layout::RequestOptions ro;
  ro.inlineConstants = tree_.mode() != layout::GroupingMode::kNone;
  // Built here, on the UI thread (linear, milliseconds); laid out elsewhere.
  auto request =
      std::make_shared<const layout::BuiltRequest>(layout::buildRequest(*g, tree_, expanded_, ro));

  if (stop_) stop_->request_stop();  // the superseded layout's answer is ignored
  stop_ = std::make_shared<std::stop_source>();
  const int generation = ++generation_;
  layout::EngineOptions eo;
  eo.prefer = settings_.useGraphviz ? layout::EngineOptions::Prefer::kGraphviz
                                    : layout::EngineOptions::Prefer::kLayered;
  eo.helperPath = settings_.helperPath.toStdString();
  eo.timeout = std::chrono::milliseconds(std::max(1, settings_.layoutTimeoutSeconds) * 1000);
  auto stop = stop_;
  auto* watcher = new QFutureWatcher<std::shared_ptr<const layout::LayoutResult>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, request] {
    --running_;
    auto result = watcher->result();
    watcher->deleteLater();
    onLayoutDone(generation, request, result);
  });
  ++running_;
  watcher->setFuture(QtConcurrent::run([request, eo, stop] {
    return std::make_shared<const layout::LayoutResult>(
        layout::computeLayout(request->request, eo, stop->get_token()));
  }));
  emit layoutStarted(this);
}

void GraphPanel::cancelLayout() {
  if (stop_) stop_->request_stop();
}

void GraphPanel::onLayoutDone(int generation, std::shared_ptr<const layout::BuiltRequest> request,
                              std::shared_ptr<const layout::LayoutResult> result) {
  if (generation != generation_) {
    if (running_ == 0) emit layoutFinished(this);  // nothing newer is coming
    return;
  }
  QPointF centre = view_->mapToScene(view_->viewport()->rect().center());
  scene_->setLayout(std::move(request), std::move(result));
  if (fitOnNextLayout_) {
    if (settings_.fitOnOpen)
      view_->fitAll();
    else
      view_->showStart();
    fitOnNextLayout_ = false;
  } else {
    view_->centerOn(centre);
  }
  // Search hits refer to nodes; their boxes may have changed.
  std::set<int> boxes;
  for (const SearchHit& h : hits_) {
    NodeItem* item =
        h.node != 0 ? scene_->itemForNode(h.node)
                    : scene_->itemForKey(QStringLiteral("in:") + QString::fromStdString(h.value));
    if (item) boxes.insert(item->index());
  }
  scene_->markHits(boxes);
  applyMarks();
  if (afterLayout_) {
    auto f = std::move(afterLayout_);
    afterLayout_ = nullptr;
    f();
  }
  if (minimap_->isVisible()) minimap_->refresh();
  emit layoutFinished(this);
}

QString GraphPanel::layoutNote() const {
  const layout::LayoutResult* r = scene_->result();
  if (r == nullptr) return {};
  QString engine =
      r->engine == layout::Engine::kGraphviz ? tr("Graphviz") : tr("built-in layered layout");
  QString text = tr("%1 boxes laid out by %2 in %3 s")
                     .arg(scene_->request()->request.nodes.size())
                     .arg(engine)
                     .arg(r->seconds, 0, 'f', 2);
  // Why the fallback drew it; the helper's own words (English) as details.
  const QString detail = QString::fromStdString(r->note);
  QString why;
  switch (r->fallback) {
    case layout::Fallback::kNone:
    case layout::Fallback::kChosen:
      break;
    case layout::Fallback::kTooLarge:
      why = tr("too many boxes for Graphviz");
      break;
    case layout::Fallback::kHelperMissing:
      why = tr("the layout helper passlab-layout was not found");
      break;
    case layout::Fallback::kHelperFailed:
      why = tr("Graphviz failed (%1)").arg(detail);
      break;
    case layout::Fallback::kTimedOut:
      why =
          tr("Graphviz took longer than %1 s and was stopped").arg(settings_.layoutTimeoutSeconds);
      break;
    case layout::Fallback::kCancelled:
      why = tr("Graphviz layout cancelled");
      break;
    case layout::Fallback::kBadAnswer:
      why = tr("Graphviz answered with something unreadable (%1)").arg(detail);
      break;
  }
  if (!why.isEmpty()) text += QStringLiteral(" — ") + why;
  return text;
}

void GraphPanel::expandGroup(const std::string& id) {
  if (tree_.find(id) < 0 || !expanded_.insert(id).second) return;
  afterLayout_ = [this, id] {
    if (const auto* req = scene_->request())
      for (size_t c = 0; c < req->request.clusters.size(); ++c)
        if (req->request.clusters[c].groupId == id && c < scene_->result()->clusters.size()) {
          const auto& r = scene_->result()->clusters[c];
          view_->centerOn(QPointF(r.x + r.width / 2, r.y + std::min(r.height / 2, 300.0)));
        }
  };
  relayout();
}

void GraphPanel::collapseGroup(const std::string& id) {
  if (expanded_.erase(id) == 0) return;
  afterLayout_ = [this, id] {
    if (NodeItem* item = scene_->itemForGroup(id)) view_->centerOn(item);
  };
  relayout();
}

void GraphPanel::expandAll() {
  for (const layout::Group& g : tree_.groups()) expanded_.insert(g.id);
  relayout();
}

void GraphPanel::collapseAll() {
  expanded_.clear();
  relayout();
}

// ---- document ----

void GraphPanel::onDocumentChanged(const DocumentChange& change) {
  if (change.has(DocumentChange::kModel) || change.has(DocumentChange::kStructure)) {
    if (graph() == nullptr) {
      scene_->clearLayout();
      if (!ref_.isMain()) emit graphGone();
      return;
    }
    // A newly opened file starts afresh; a replaced model (a pass, undo) keeps
    // the groups that still exist open.
    bool reopened = change.has(DocumentChange::kFile);
    rebuildGroups(!reopened);
    if (reopened) {
      fitOnNextLayout_ = true;
      selection_ = Selection();
      hits_.clear();
      hitIndex_ = -1;
      emit searchStatusChanged(-1, 0);
    }
    relayout();
    return;
  }
  if (change.has(DocumentChange::kNodes) && scene_->hasLayout()) {
    // Names changed: new labels for the same boxes, no new layout.
    ir::Graph* g = graph();
    if (g == nullptr) return;
    layout::RequestOptions ro;
    ro.inlineConstants = tree_.mode() != layout::GroupingMode::kNone;
    layout::BuiltRequest fresh = layout::buildRequest(*g, tree_, expanded_, ro);
    if (fresh.request.nodes.size() != scene_->request()->request.nodes.size()) {
      relayout();
      return;
    }
    for (ir::NodeId id : change.nodes) {
      auto it = fresh.nodeItem.find(id);
      if (it == fresh.nodeItem.end()) continue;
      NodeItem* item = scene_->item(it->second);
      const auto& node = fresh.request.nodes[static_cast<size_t>(it->second)];
      if (item == nullptr || item->nodeId() != id) continue;
      QStringList lines;
      for (const std::string& l : node.lines) lines << QString::fromStdString(l);
      item->setLines(lines);
    }
  }
}

// ---- diff marks ----

void GraphPanel::setDiffMarks(std::unordered_map<ir::NodeId, DiffMark> marks) {
  scene_->setDiffMarks(std::move(marks));
  if (minimap_->isVisible()) minimap_->refresh();
}

void GraphPanel::setHeat(std::unordered_map<ir::NodeId, double> shares) {
  scene_->setHeat(std::move(shares));
  if (minimap_->isVisible()) minimap_->refresh();
}

void GraphPanel::revealNodes(const std::vector<ir::NodeId>& nodes, size_t maxOpened) {
  bool opened = false;
  for (size_t i = 0; i < nodes.size() && i < maxOpened; ++i)
    for (const std::string& id : tree_.pathTo(nodes[i])) opened |= expanded_.insert(id).second;
  auto fit = [this, nodes, maxOpened] {
    std::vector<QRectF> boxes;
    QRectF all;
    for (size_t i = 0; i < nodes.size() && i < maxOpened; ++i)
      if (NodeItem* box = scene_->itemForNode(nodes[i])) {
        boxes.push_back(box->rect());
        all |= box->rect();
      }
    if (boxes.empty()) return;
    view_->fitRect(all);
    if (view_->zoom() >= 0.3) return;
    // Changes spread over the whole graph: the topmost of them and those near
    // it, readable.
    QRectF top =
        *std::min_element(boxes.begin(), boxes.end(),
                          [](const QRectF& a, const QRectF& b) { return a.top() < b.top(); });
    QRectF near = top;
    for (const QRectF& b : boxes)
      if (b.top() < top.top() + 600 && std::abs(b.center().x() - top.center().x()) < 700) near |= b;
    view_->fitRect(near);
    if (view_->zoom() < 0.5) {
      view_->setZoom(0.5);
      view_->centerOn(near.center());
    }
  };
  if (opened) {
    afterLayout_ = fit;
    relayout();
  } else if (scene_->hasLayout() && !isLayoutRunning()) {
    fit();
  } else {
    afterLayout_ = fit;
  }
}

// ---- selection ----

void GraphPanel::onItemClicked(QGraphicsItem* item) {
  Selection s;
  s.graph = ref_;
  if (item == nullptr) {
    // empty space: nothing selected
  } else if (item->type() == NodeItem::Type) {
    auto* n = static_cast<NodeItem*>(item);
    switch (n->kind()) {
      case layout::ItemKind::kOp:
        s = Selection::ofNode(ref_, n->nodeId());
        break;
      case layout::ItemKind::kGroup:
        s = Selection::ofGroup(ref_, n->groupId().toStdString());
        break;
      case layout::ItemKind::kInput:
      case layout::ItemKind::kOutput:
        s = Selection::ofValue(ref_, n->valueName().toStdString());
        break;
    }
  } else if (item->type() == EdgeItem::Type) {
    s = Selection::ofValue(ref_, static_cast<EdgeItem*>(item)->valueName().toStdString());
  } else if (item->type() == ClusterItem::Type) {
    s = Selection::ofGroup(ref_, static_cast<ClusterItem*>(item)->groupId().toStdString());
  }
  select(s, false);
}

void GraphPanel::onItemDoubleClicked(QGraphicsItem* item) {
  if (item == nullptr) return;
  if (item->type() == NodeItem::Type) {
    auto* n = static_cast<NodeItem*>(item);
    if (n->kind() == layout::ItemKind::kGroup) {
      expandGroup(n->groupId().toStdString());
    } else if (n->kind() == layout::ItemKind::kOp && n->hasSubgraphs()) {
      if (ir::Node* node = findNode(doc_->model(), n->nodeId()))
        for (const GraphRef& body : subgraphsOf(*node)) emit openSubgraphRequested(body);
    }
  } else if (item->type() == ClusterItem::Type) {
    collapseGroup(static_cast<ClusterItem*>(item)->groupId().toStdString());
  }
}

void GraphPanel::showContextMenu(const QPoint& pos) {
  QMenu menu(this);
  QGraphicsItem* item = nullptr;
  for (QGraphicsItem* it : view_->items(pos))
    if (it->type() == NodeItem::Type || it->type() == ClusterItem::Type) {
      item = it;
      break;
    }
  if (item && item->type() == NodeItem::Type) {
    auto* n = static_cast<NodeItem*>(item);
    if (n->kind() == layout::ItemKind::kGroup) {
      std::string id = n->groupId().toStdString();
      menu.addAction(tr("Expand Group"), this, [this, id] { expandGroup(id); });
    }
    if (n->kind() == layout::ItemKind::kOp && n->hasSubgraphs()) {
      ir::NodeId nodeId = n->nodeId();
      menu.addAction(tr("Open Bodies in Tabs"), this, [this, nodeId] {
        if (ir::Node* node = findNode(doc_->model(), nodeId))
          for (const GraphRef& body : subgraphsOf(*node)) emit openSubgraphRequested(body);
      });
    }
    // The group around a drawn node can be closed from the node too.
    int g = n->kind() == layout::ItemKind::kOp ? tree_.groupOf(n->nodeId()) : -1;
    if (g >= 0) {
      std::string id = tree_.group(g).id;
      menu.addAction(tr("Collapse Group “%1”").arg(QString::fromStdString(tree_.group(g).label)),
                     this, [this, id] { collapseGroup(id); });
    }
  } else if (item && item->type() == ClusterItem::Type) {
    std::string id = static_cast<ClusterItem*>(item)->groupId().toStdString();
    menu.addAction(tr("Collapse Group"), this, [this, id] { collapseGroup(id); });
  }
  if (!menu.isEmpty()) menu.addSeparator();
  if (!tree_.empty()) {
    menu.addAction(tr("Expand All Groups"), this, &GraphPanel::expandAll);
    menu.addAction(tr("Collapse All Groups"), this, &GraphPanel::collapseAll);
    menu.addSeparator();
  }
  menu.addAction(tr("Fit to Window"), view_, &GraphView::fitAll);
  menu.exec(view_->viewport()->mapToGlobal(pos));
}

void GraphPanel::select(const Selection& s, bool reveal) {
  selection_ = s;
  selection_.graph = ref_;
  applyMarks();
  if (reveal) revealSelection();
  emit selectionChanged(selection_);
}

void GraphPanel::applyMarks() {
  NodeItem* box = nullptr;
  QString value;
  switch (selection_.kind) {
    case Selection::Kind::kNode:
      box = scene_->itemForNode(selection_.node);
      break;
    case Selection::Kind::kGroup:
      box = scene_->itemForGroup(selection_.group);
      break;
    case Selection::Kind::kValue:
      value = QString::fromStdString(selection_.value);
      box = scene_->itemForKey(QStringLiteral("in:") + value);
      if (box == nullptr)
        for (NodeItem* n : scene_->nodeItems())
          if (n->kind() == layout::ItemKind::kOutput && n->valueName() == value) box = n;
      break;
    case Selection::Kind::kNone:
      break;
  }
  scene_->markSelection(box, value);
}

bool GraphPanel::openPathTo(ir::NodeId node) {
  bool opened = false;
  for (const std::string& id : tree_.pathTo(node)) opened |= expanded_.insert(id).second;
  if (opened) relayout();
  return opened;
}

void GraphPanel::revealSelection() {
  ir::Graph* g = graph();
  if (g == nullptr) return;
  ir::NodeId target = 0;
  if (selection_.kind == Selection::Kind::kNode) target = selection_.node;
  if (selection_.kind == Selection::Kind::kValue)
    if (ir::Value* v = g->findValue(selection_.value); v && v->producer())
      target = v->producer()->id();
  auto centre = [this, target] {
    NodeItem* box = target != 0 ? scene_->itemForNode(target) : nullptr;
    if (box == nullptr && selection_.kind == Selection::Kind::kValue) {
      auto edges = scene_->edgesOfValue(QString::fromStdString(selection_.value));
      if (!edges.empty()) {
        view_->reveal(edges.front()->boundingRect());
        return;
      }
      box = scene_->itemForKey(QStringLiteral("in:") + QString::fromStdString(selection_.value));
    }
    if (box == nullptr && selection_.kind == Selection::Kind::kGroup)
      box = scene_->itemForGroup(selection_.group);
    if (box) view_->reveal(box->rect());
  };
  if (target != 0 && openPathTo(target)) {
    afterLayout_ = centre;  // after the groups hiding it are laid out open
    return;
  }
  centre();
}

// ---- search ----

void GraphPanel::setSearch(const QString& text, SearchField field) {
  hits_.clear();
  hitIndex_ = -1;
  if (ir::Graph* g = graph()) hits_ = searchGraph(*g, text, field);
  std::set<int> boxes;
  for (const SearchHit& h : hits_) {
    NodeItem* item =
        h.node != 0 ? scene_->itemForNode(h.node)
                    : scene_->itemForKey(QStringLiteral("in:") + QString::fromStdString(h.value));
    if (item) boxes.insert(item->index());
  }
  scene_->markHits(boxes);
  if (!hits_.empty()) gotoHit(0);
  emit searchStatusChanged(hitIndex_, static_cast<int>(hits_.size()));
}

void GraphPanel::gotoHit(int index) {
  if (hits_.empty()) return;
  int n = static_cast<int>(hits_.size());
  hitIndex_ = ((index % n) + n) % n;
  const SearchHit& h = hits_[static_cast<size_t>(hitIndex_)];
  if (h.isValue())
    select(Selection::ofValue(ref_, h.value), true);
  else
    select(Selection::ofNode(ref_, h.node), true);
  emit searchStatusChanged(hitIndex_, n);
}

void GraphPanel::nextHit() {
  gotoHit(hitIndex_ + 1);
}

void GraphPanel::previousHit() {
  gotoHit(hitIndex_ - 1);
}

// ---- export ----

QString GraphPanel::svg() const {
  if (!scene_->hasLayout()) return {};
  layout::SvgOptions o;
  o.edgeLabels = settings_.edgeLabels;
  if (doc_->hasModel()) o.title = ref_.title(doc_->model()).toStdString();
  return QString::fromStdString(
      layout::renderSvg(scene_->request()->request, *scene_->result(), o));
}

QImage GraphPanel::image(int maxSide) const {
  QRectF r = scene_->itemsBoundingRect().adjusted(-20, -20, 20, 20);
  if (r.isEmpty()) return {};
  qreal scale = std::min<qreal>(2.0, maxSide / std::max(r.width(), r.height()));
  QImage img((r.size() * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
  img.fill(Qt::white);
  QPainter p(&img);
  p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  scene_->render(&p, QRectF(QPointF(0, 0), r.size() * scale), r);
  return img;
}

}  // namespace passlab::ui
