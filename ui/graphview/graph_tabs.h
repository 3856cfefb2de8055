// The main graph and any opened If/Loop/Scan bodies, one tab each.
#pragma once

#include <QTabWidget>

#include "ui/document/document.h"
#include "ui/document/graph_ref.h"
#include "ui/graphview/view_settings.h"

namespace passlab::ui {

class GraphPanel;

class GraphTabs : public QTabWidget {
  Q_OBJECT

 public:
  GraphTabs(Document* doc, const ViewSettings& settings, QWidget* parent = nullptr);

  GraphPanel* current() const;
  GraphPanel* mainPanel() const;
  GraphPanel* panelFor(const GraphRef& ref) const;
  // Shows a body in its tab, opening one if needed.
  GraphPanel* open(const GraphRef& ref);
  void setViewSettings(const ViewSettings& settings);
  void setMinimapVisible(bool visible);
  QList<GraphPanel*> panels() const;
  // A tab for another view (a Step's diff) that its owner keeps: shown and
  // made current, or taken away (closing it only takes it away too).
  void showExtraTab(QWidget* w, const QString& title);
  void hideExtraTab(QWidget* w);

 signals:
  void panelAdded(passlab::ui::GraphPanel* panel);
  void currentPanelChanged(passlab::ui::GraphPanel* panel);
  void extraTabClosed(QWidget* w);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void onDocumentChanged(const DocumentChange& change);
  void retitle();
  GraphPanel* addPanel(const GraphRef& ref);

  Document* doc_;
  ViewSettings settings_;
  bool minimap_ = true;
};

}  // namespace passlab::ui
