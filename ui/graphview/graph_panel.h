// One graph on screen (the main graph or an If/Loop/Scan body): its scene,
// view and minimap; which groups are open; the layout running in the
// background (cancellable); selection and search within it.
#pragma once

#include <QFutureWatcher>
#include <QWidget>

#include <functional>
#include <memory>
#include <set>
#include <stop_token>
#include <unordered_map>
#include <vector>

#include "core/layout/grouping.h"
#include "core/layout/layout_types.h"
#include "core/layout/request_builder.h"
#include "ui/document/document.h"
#include "ui/document/selection.h"
#include "ui/graphview/diff_mark.h"
#include "ui/graphview/graph_search.h"
#include "ui/graphview/view_settings.h"

class QGraphicsItem;

namespace passlab::ui {

class GraphScene;
class GraphView;
class MiniMap;

class GraphPanel : public QWidget {
  Q_OBJECT

 public:
  GraphPanel(Document* doc, GraphRef ref, const ViewSettings& settings, QWidget* parent = nullptr);
  ~GraphPanel() override;

  const GraphRef& graphRef() const { return ref_; }
  ir::Graph* graph() const;  // nullptr when it no longer exists
  GraphScene* scene() const { return scene_; }
  GraphView* view() const { return view_; }
  MiniMap* minimap() const { return minimap_; }
  const layout::GroupTree& groups() const { return tree_; }
  const std::set<std::string>& expandedGroups() const { return expanded_; }
  const Selection& selection() const { return selection_; }

  void setViewSettings(const ViewSettings& settings);
  void setMinimapVisible(bool visible);

  // ---- layout ----
  void relayout();
  bool isLayoutRunning() const { return running_ > 0; }
  void cancelLayout();  // Graphviz stops; the fallback layout is drawn
  // What drew the current picture and any note ("Graphviz timed out ...").
  QString layoutNote() const;
  void expandGroup(const std::string& id);
  void collapseGroup(const std::string& id);
  void expandAll();
  void collapseAll();

  // ---- diff marks (the pipeline's step view) ----
  void setDiffMarks(std::unordered_map<ir::NodeId, DiffMark> marks);
  // The profiler's heat overlay: each node's share of the run time (empty: off).
  void setHeat(std::unordered_map<ir::NodeId, double> shares);

  // Opens the groups hiding the first `maxOpened` of `nodes` and fits the view
  // around the boxes showing them (after the layout this may need).
  void revealNodes(const std::vector<ir::NodeId>& nodes, size_t maxOpened = 40);

  // ---- selection and search ----
  void select(const Selection& s, bool reveal = true);
  void setSearch(const QString& text, SearchField field);
  void nextHit();
  void previousHit();
  int hitCount() const { return static_cast<int>(hits_.size()); }
  int currentHit() const { return hitIndex_; }

  // ---- export ----
  QString svg() const;  // "" without a layout
  QImage image(int maxSide = 8000) const;

 signals:
  void selectionChanged(const passlab::ui::Selection& selection);
  void openSubgraphRequested(const passlab::ui::GraphRef& ref);
  void layoutStarted(passlab::ui::GraphPanel* panel);
  void layoutFinished(passlab::ui::GraphPanel* panel);  // the scene shows the new layout
  void searchStatusChanged(int current, int total);
  void graphGone();  // the body this panel shows no longer exists

 private:
  void onDocumentChanged(const DocumentChange& change);
  void onLayoutDone(int generation, std::shared_ptr<const layout::BuiltRequest> request,
                    std::shared_ptr<const layout::LayoutResult> result);
  void onItemClicked(QGraphicsItem* item);
  void onItemDoubleClicked(QGraphicsItem* item);
  void showContextMenu(const QPoint& pos);
  void rebuildGroups(bool keepExpansion);
  void applyMarks();
  void revealSelection();
  void gotoHit(int index);
  // Opens the groups hiding `node`; true if a relayout was started.
  bool openPathTo(ir::NodeId node);

  Document* doc_;
  GraphRef ref_;
  ViewSettings settings_;
  GraphScene* scene_;
  GraphView* view_;
  MiniMap* minimap_;

  layout::GroupTree tree_;
  std::set<std::string> expanded_;
  bool groupsValid_ = false;

  int generation_ = 0;
  int running_ = 0;
  std::shared_ptr<std::stop_source> stop_;
  bool fitOnNextLayout_ = true;
  std::function<void()> afterLayout_;

  Selection selection_;
  std::vector<SearchHit> hits_;
  int hitIndex_ = -1;
};

}  // namespace passlab::ui
