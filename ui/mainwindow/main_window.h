// The main window: menus, docks and the status bar, wiring the document to the
// graph tabs, search, properties and summary. It holds no model logic itself.
#pragma once

#include <QMainWindow>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ui/demos/demos.h"
#include "ui/document/document.h"
#include "ui/document/selection.h"
#include "ui/mainwindow/action_table.h"
#include "ui/pipeline/pass_help.h"

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QUndoView;

namespace passlab::ui {

class DiffPanel;
class GraphPanel;
class GraphTabs;
class LessonPanel;
class LessonSession;
struct LessonLibrary;
class MemoryPanel;
class ModelFileController;
class PipelinePanel;
class PipelineSession;
class PrecisionPanel;
class ProfilePanel;
class TimelinePanel;
class PropertiesPanel;
class SearchBar;
class SummaryPanel;
class TaskProgress;

class MainWindow : public QMainWindow, public LessonLinks {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  Document* document() const { return doc_; }
  GraphTabs* graphTabs() const { return tabs_; }
  PropertiesPanel* properties() const { return properties_; }
  SummaryPanel* summary() const { return summary_; }
  SearchBar* searchBar() const { return search_; }
  TaskProgress* tasks() const { return tasks_; }
  PipelineSession* pipeline() const { return pipeline_; }
  PipelinePanel* pipelinePanel() const { return pipelinePanel_; }
  TimelinePanel* timeline() const { return timeline_; }
  DiffPanel* diffPanel() const { return diff_; }
  ProfilePanel* profilePanel() const { return profile_; }
  QDockWidget* profileDock() const { return profileDock_; }
  MemoryPanel* memoryPanel() const { return memory_; }
  QDockWidget* memoryDock() const { return memoryDock_; }
  PrecisionPanel* precisionPanel() const { return precision_; }
  QDockWidget* precisionDock() const { return precisionDock_; }
  LessonSession* lessons() const { return lessonSession_; }
  LessonPanel* lessonPanel() const { return lessonPanel_; }
  QDockWidget* lessonsDock() const { return lessonsDock_; }
  const LessonLibrary& lessonLibrary() const { return *lessonLibrary_; }
  // Opens lesson `id`: its model in the document, its text in the Lessons dock.
  bool openLesson(const QString& id);
  // LessonLinks (the pass help's link): the first lesson, in order, that
  // runs pass `passId`.
  QString lessonTitleFor(const QString& passId) const override;
  void openLessonFor(const QString& passId) override;
  // Reads the bundled lessons and those of the lessons folder setting again.
  void reloadLessons();
  // The graph the view actions (fit, zoom, export) apply to: the current
  // tab's, or the Step view's.
  GraphPanel* viewPanel() const;
  // Shows what Step `step` (0-based) changed, in the Step tab; -1 hides it.
  void showStep(int step);
  // Writes the recipe of the applied Steps / the HTML report of the run.
  bool exportRecipeTo(const QString& path);
  bool exportReportTo(const QString& path);
  bool loadRecipeFrom(const QString& path);
  // The nodes of the current graph's selection (a node, or a group's members).
  std::vector<ir::NodeId> selectedNodes() const;
  // Passes work only on the selection / never on it.
  void limitPassesToSelection();
  void excludeSelectionFromPasses();

  // Opens a model file (ONNX or text format, or a ":/demos/..." resource) on
  // a worker thread; the window stays responsive and the load can be cancelled.
  void openFile(const QString& path, const QString& displayName = {});
  void openDemo(const DemoModel& demo);
  bool isLoading() const;
  // Saves a copy in the background; refuses the opened file unless confirmed.
  // The whole model is verified first (on the worker): with errors it did not
  // have when opened, nothing is written and the user is asked whether to
  // save anyway (saveNeedsConfirmation) unless `allowNewVerifierErrors`.
  void saveTo(const QString& path, bool overwriteOpened, bool allowNewVerifierErrors = false);

 signals:
  void modelOpened();
  void loadFailed(const QString& message);
  void saved(const QString& path);
  void saveFailed(const QString& message);
  // A save found new verifier errors and asks whether to save anyway.
  void saveNeedsConfirmation(const QString& message);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  // The rows of the action table (ui/mainwindow/action_table.h).
  std::vector<ActionSpec> actionSpecs();
  QAction* action(ActionId id) const { return (*actions_)[id]; }
  void createMenus();
  void createDocks();
  void retranslateUi();
  void updateTitle();
  void updateRecentMenu();
  void updateDemoMenu();
  void updateLessonMenu();
  // The Lessons dock and menu: the session follows the document, the main
  // graph's clicks pick predicted nodes, which the graph marks.
  void connectLessons();
  void markPredictedNodes();
  void openLessonsFolder();
  void updateActions();
  bool confirmDiscard();
  void showError(const QString& title, const QString& text);
  void connectFileController();
  // The Profile dock: progress in the status bar, selection both ways, the heat overlay.
  void connectProfile();
  void applyHeat();
  // The Memory dock: follows the Timeline's chosen Step; a band selects its tensor.
  void connectMemory();
  // The Precision dock: progress in the status bar, a bar selects its node, a
  // selected value shows its histogram, the kept float32 nodes are marked.
  void connectPrecision();
  // Asks whether to write the checked copy, which has new verifier errors.
  void confirmUnverifiedSave(const QString& problems);

  void openDialog();
  void saveAsDialog();
  void exportSvg();
  void exportPng();
  void exportRecipe();
  void loadRecipe();
  void exportReport();
  void showSettings();
  void about();

  void onPanelAdded(GraphPanel* panel);
  void onCurrentPanelChanged(GraphPanel* panel);
  void onSelection(const Selection& s);

  Document* doc_;
  GraphTabs* tabs_;
  SearchBar* search_;
  PropertiesPanel* properties_;
  SummaryPanel* summary_;
  QUndoView* history_;
  TaskProgress* tasks_;
  QLabel* layoutStatus_;
  QDockWidget* propertiesDock_;
  QDockWidget* summaryDock_;
  QDockWidget* historyDock_;
  QDockWidget* pipelineDock_;
  QDockWidget* timelineDock_;
  PipelineSession* pipeline_;
  PipelinePanel* pipelinePanel_;
  TimelinePanel* timeline_;
  DiffPanel* diff_;
  int pipelineTask_ = 0;
  ProfilePanel* profile_;
  QDockWidget* profileDock_;
  int profileTask_ = 0;
  MemoryPanel* memory_;
  QDockWidget* memoryDock_;
  PrecisionPanel* precision_;
  QDockWidget* precisionDock_;
  int precisionTask_ = 0;

  QMenu* fileMenu_;
  QMenu* demoMenu_;
  QMenu* recentMenu_;
  QMenu* editMenu_;
  QMenu* viewMenu_;
  QMenu* pipelineMenu_;
  QMenu* helpMenu_;
  QMenu* lessonsMenu_;
  LessonSession* lessonSession_;
  LessonPanel* lessonPanel_;
  QDockWidget* lessonsDock_;
  std::unique_ptr<LessonLibrary> lessonLibrary_;
  std::unique_ptr<ActionTable> actions_;
  ModelFileController* files_;

  std::map<GraphPanel*, int> layoutTasks_;
};

}  // namespace passlab::ui
