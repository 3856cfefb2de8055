#include "ui/graphview/graph_tabs.h"

#include <QEvent>
#include <QTabBar>

#include "ui/graphview/graph_panel.h"

namespace passlab::ui {

GraphTabs::GraphTabs(Document* doc, const ViewSettings& settings, QWidget* parent)
    : QTabWidget(parent), doc_(doc), settings_(settings) {
  setTabsClosable(true);
  setDocumentMode(true);
  setMovable(true);
  addPanel(GraphRef());
  // The main graph's tab cannot be closed.
  tabBar()->setTabButton(0, QTabBar::RightSide, nullptr);
  tabBar()->setTabButton(0, QTabBar::LeftSide, nullptr);
  connect(this, &QTabWidget::tabCloseRequested, this, [this](int index) {
    QWidget* w = widget(index);
    auto* p = qobject_cast<GraphPanel*>(w);
    if (p && !p->graphRef().isMain()) {
      removeTab(index);
      p->deleteLater();
    } else if (p == nullptr && w != nullptr) {
      removeTab(index);  // another view (a Step's diff): hidden, its owner keeps it
      emit extraTabClosed(w);
    }
  });
  connect(this, &QTabWidget::currentChanged, this, [this] { emit currentPanelChanged(current()); });
  connect(doc_, &Document::changed, this, &GraphTabs::onDocumentChanged);
  retitle();
}

GraphPanel* GraphTabs::current() const {
  return qobject_cast<GraphPanel*>(currentWidget());
}

GraphPanel* GraphTabs::mainPanel() const {
  return panelFor(GraphRef());
}

QList<GraphPanel*> GraphTabs::panels() const {
  QList<GraphPanel*> out;
  for (int i = 0; i < count(); ++i)
    if (auto* p = qobject_cast<GraphPanel*>(widget(i))) out << p;
  return out;
}

GraphPanel* GraphTabs::panelFor(const GraphRef& ref) const {
  for (GraphPanel* p : panels())
    if (p->graphRef() == ref) return p;
  return nullptr;
}

GraphPanel* GraphTabs::addPanel(const GraphRef& ref) {
  auto* p = new GraphPanel(doc_, ref, settings_, this);
  p->setMinimapVisible(minimap_);
  QString title = doc_->hasModel() ? ref.title(doc_->model()) : tr("(no model)");
  addTab(p, title);
  connect(p, &GraphPanel::openSubgraphRequested, this, [this](const GraphRef& r) { open(r); });
  connect(p, &GraphPanel::graphGone, this, [this, p] {
    int i = indexOf(p);
    if (i > 0) {
      removeTab(i);
      p->deleteLater();
    }
  });
  emit panelAdded(p);
  return p;
}

GraphPanel* GraphTabs::open(const GraphRef& ref) {
  GraphPanel* p = panelFor(ref);
  if (p == nullptr) p = addPanel(ref);
  setCurrentWidget(p);
  return p;
}

void GraphTabs::showExtraTab(QWidget* w, const QString& title) {
  int i = indexOf(w);
  if (i < 0) i = addTab(w, title);
  setTabText(i, title);
  setCurrentIndex(i);
}

void GraphTabs::hideExtraTab(QWidget* w) {
  int i = indexOf(w);
  if (i > 0) removeTab(i);
}

void GraphTabs::setViewSettings(const ViewSettings& settings) {
  settings_ = settings;
  for (GraphPanel* p : panels()) p->setViewSettings(settings);
}

void GraphTabs::setMinimapVisible(bool visible) {
  minimap_ = visible;
  for (GraphPanel* p : panels()) p->setMinimapVisible(visible);
}

void GraphTabs::onDocumentChanged(const DocumentChange& change) {
  if (change.has(DocumentChange::kFile) && change.has(DocumentChange::kModel)) {
    // Another model: bodies of the old one go.
    for (int i = count() - 1; i > 0; --i) {
      QWidget* w = widget(i);
      if (qobject_cast<GraphPanel*>(w) == nullptr) continue;  // not ours
      removeTab(i);
      w->deleteLater();
    }
  }
  retitle();
}

void GraphTabs::retitle() {
  for (int i = 0; i < count(); ++i)
    if (auto* p = qobject_cast<GraphPanel*>(widget(i)))
      setTabText(i, doc_->hasModel() ? p->graphRef().title(doc_->model()) : tr("(no model)"));
}

void GraphTabs::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retitle();
  QTabWidget::changeEvent(event);
}

}  // namespace passlab::ui
