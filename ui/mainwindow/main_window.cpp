#include "ui/mainwindow/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QSaveFile>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QUndoView>
#include <QVBoxLayout>

#include <optional>
#include <string>

#include "core/pipeline/recipe.h"

#include "ui/document/model_files.h"
#include "ui/graphview/graph_panel.h"
#include "ui/graphview/graph_tabs.h"
#include "ui/graphview/graph_view.h"
#include "ui/graphview/search_bar.h"
#include "ui/i18n/core_text.h"
#include "ui/lessons/lesson_library.h"
#include "ui/lessons/lesson_panel.h"
#include "ui/lessons/lesson_session.h"
#include "ui/lessons/lesson_settings.h"
#include "ui/mainwindow/language.h"
#include "ui/mainwindow/model_file_controller.h"
#include "ui/mainwindow/settings.h"
#include "ui/mainwindow/settings_dialog.h"
#include "ui/mainwindow/task_progress.h"
#include "ui/memory/memory_panel.h"
#include "ui/pipeline/diff_panel.h"
#include "ui/pipeline/pipeline_panel.h"
#include "ui/pipeline/pipeline_session.h"
#include "ui/pipeline/run_report.h"
#include "ui/pipeline/timeline_panel.h"
#include "ui/precision/precision_panel.h"
#include "ui/profile/profile_panel.h"
#include "ui/properties/properties_panel.h"
#include "ui/summary/summary_panel.h"

namespace passlab::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  doc_ = new Document(this);
  auto* central = new QWidget(this);
  auto* col = new QVBoxLayout(central);
  col->setContentsMargins(0, 0, 0, 0);
  col->setSpacing(0);
  search_ = new SearchBar(central);
  tabs_ = new GraphTabs(doc_, Settings::view(), central);
  col->addWidget(search_);
  col->addWidget(tabs_, 1);
  setCentralWidget(central);

  properties_ = new PropertiesPanel(doc_, this);
  summary_ = new SummaryPanel(doc_, this);
  history_ = new QUndoView(doc_->undoStack(), this);
  pipeline_ = new PipelineSession(doc_);
  pipelinePanel_ = new PipelinePanel(pipeline_, this);
  timeline_ = new TimelinePanel(pipeline_, this);
  diff_ = new DiffPanel(Settings::view(), this);
  diff_->hide();
  profile_ = new ProfilePanel(doc_, pipeline_, this);
  memory_ = new MemoryPanel(doc_, pipeline_, this);
  precision_ = new PrecisionPanel(doc_, pipeline_, this);
  lessonSession_ = new LessonSession(pipeline_, this);
  lessonPanel_ = new LessonPanel(lessonSession_, this);
  lessonLibrary_ = std::make_unique<LessonLibrary>();
  createDocks();

  tasks_ = new TaskProgress(this);
  layoutStatus_ = new QLabel(this);
  statusBar()->addWidget(layoutStatus_, 1);
  statusBar()->addPermanentWidget(tasks_);

  actions_ = std::make_unique<ActionTable>(this, actionSpecs());
  action(ActionId::kEdgeLabels)->setChecked(Settings::edgeLabels.get());
  action(ActionId::kMinimap)->setChecked(Settings::minimap.get());
  tabs_->setMinimapVisible(Settings::minimap.get());
  diff_->setMinimapVisible(Settings::minimap.get());
  createMenus();
  files_ = new ModelFileController(doc_, tasks_, this);
  connectLessons();
  connectFileController();
  reloadLessons();
  connectProfile();
  connectMemory();
  connectPrecision();

  connect(tabs_, &GraphTabs::panelAdded, this, &MainWindow::onPanelAdded);
  connect(tabs_, &GraphTabs::currentPanelChanged, this, &MainWindow::onCurrentPanelChanged);
  for (GraphPanel* p : tabs_->panels()) onPanelAdded(p);
  connect(search_, &SearchBar::searchChanged, this, [this](const QString& text, SearchField field) {
    if (GraphPanel* p = tabs_->current()) p->setSearch(text, field);
  });
  connect(search_, &SearchBar::nextRequested, this, [this] {
    if (GraphPanel* p = tabs_->current()) p->nextHit();
  });
  connect(search_, &SearchBar::previousRequested, this, [this] {
    if (GraphPanel* p = tabs_->current()) p->previousHit();
  });
  connect(properties_, &PropertiesPanel::valueActivated, this, [this](const QString& name) {
    if (GraphPanel* p = tabs_->current())
      p->select(Selection::ofValue(p->graphRef(), name.toStdString()));
  });
  connect(properties_, &PropertiesPanel::openBodyRequested, this,
          [this](const GraphRef& ref) { tabs_->open(ref); });
  connect(doc_, &Document::changed, this, [this](const DocumentChange& c) {
    if (c.has(DocumentChange::kFile) || c.has(DocumentChange::kModel)) updateTitle();
    if (c.has(DocumentChange::kModel)) {
      properties_->setSelection(Selection());
      updateActions();
    }
  });
  connect(doc_->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);

  // The pipeline: runs in the status bar, Steps in the Timeline, a chosen Step in its tab.
  connect(timeline_, &TimelinePanel::stepChosen, this, &MainWindow::showStep);
  connect(diff_, &DiffPanel::titleChanged, this, [this](const QString& title) {
    if (int i = tabs_->indexOf(diff_); i >= 0) tabs_->setTabText(i, title);
  });
  // A node picked in the Step view shows in the properties as it is in the
  // document now (with its provenance), if it still exists.
  for (GraphPanel* p : {diff_->overlayPanel(), diff_->beforePanel(), diff_->afterPanel()})
    connect(p, &GraphPanel::selectionChanged, this, [this, p](const Selection& s) {
      if (s.kind != Selection::Kind::kNode || !doc_->hasModel()) return;
      if (p == diff_->overlayPanel() && diff_->diff().ghostOf.count(s.node)) return;  // removed
      if (findNode(doc_->model(), s.node))
        properties_->setSelection(Selection::ofNode(GraphRef(), s.node));
    });
  connect(tabs_, &GraphTabs::extraTabClosed, this, [this](QWidget* w) {
    if (w == diff_) diff_->showStep(nullptr, 0);
  });
  connect(pipeline_, &PipelineSession::runningChanged, this, [this](bool running) {
    if (running && pipelineTask_ == 0) {
      pipelineTask_ = tasks_->begin(tr("Running passes…"), [this] { pipeline_->cancel(); });
    } else if (!running && pipelineTask_ != 0) {
      tasks_->end(pipelineTask_);
      pipelineTask_ = 0;
    }
    updateActions();
  });
  connect(pipeline_, &PipelineSession::runFinished, this, [this](const QString& message) {
    if (!message.isEmpty()) statusBar()->showMessage(message, 10000);
    // The newest Step that changed something is shown.
    const auto& steps = pipeline_->steps();
    for (int i = static_cast<int>(steps.size()) - 1; i >= 0; --i)
      if (steps[static_cast<size_t>(i)]->step.changed) {
        timeline_->chooseStep(i);
        break;
      }
  });
  connect(pipeline_, &PipelineSession::nodeFilterChanged, this, &MainWindow::updateActions);
  connect(pipeline_, &PipelineSession::planChanged, this, &MainWindow::updateActions);
  connect(pipeline_, &PipelineSession::stepsChanged, this, [this] {
    // A Step undone (or reset) is no longer shown.
    const auto& steps = pipeline_->steps();
    int k = diff_->stepNumber() - 1;
    if (diff_->step() && (k < 0 || k >= static_cast<int>(steps.size()) ||
                          steps[static_cast<size_t>(k)] != diff_->step()))
      showStep(-1);
    updateActions();
  });

  setAcceptDrops(true);
  // The default size, kept within the screen (a 1280x800 laptop, 200% scaling).
  const QSize preferred(1440, 900);
  const QSize available = screen() ? screen()->availableGeometry().size() : preferred;
  resize(preferred.boundedTo(available * 0.95));
  if (QByteArray g = Settings::windowGeometry.get(); !g.isEmpty()) restoreGeometry(g);
  if (QByteArray s = Settings::windowState.get(); !s.isEmpty()) restoreState(s);
  retranslateUi();
  updateActions();
}

MainWindow::~MainWindow() {
  // The graph panels are child widgets, destroyed by ~QWidget after this
  // window's members are gone: their `destroyed` handlers (which update
  // layoutTasks_ and tasks_) must not run then.
  for (GraphPanel* panel : findChildren<GraphPanel*>()) panel->disconnect(this);
  // The document is a child too, destroyed after this window's members: a
  // signal it sends while going (its undo stack clearing) must not reach the
  // half-destroyed window (UBSan's vptr check caught updateTitle() there).
  doc_->undoStack()->disconnect(this);
  doc_->disconnect(this);
}

// ---- construction ----

void MainWindow::createDocks() {
  auto dock = [this](QWidget* w, const char* name, Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(this);
    d->setObjectName(QLatin1String(name));
    // A panel taller than the space the screen leaves it scrolls instead of
    // pushing the window past the screen (1280x800, 200% scaling); it keeps
    // its width.
    auto* scroll = new QScrollArea(d);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(w);
    scroll->setMinimumWidth(w->minimumSizeHint().width() +
                            scroll->verticalScrollBar()->sizeHint().width());
    d->setWidget(scroll);
    addDockWidget(area, d);
    return d;
  };
  propertiesDock_ = dock(properties_, "propertiesDock", Qt::RightDockWidgetArea);
  summaryDock_ = dock(summary_, "summaryDock", Qt::LeftDockWidgetArea);
  historyDock_ = dock(history_, "historyDock", Qt::LeftDockWidgetArea);
  pipelineDock_ = dock(pipelinePanel_, "pipelineDock", Qt::LeftDockWidgetArea);
  timelineDock_ = dock(timeline_, "timelineDock", Qt::BottomDockWidgetArea);
  profileDock_ = dock(profile_, "profileDock", Qt::BottomDockWidgetArea);
  memoryDock_ = dock(memory_, "memoryDock", Qt::BottomDockWidgetArea);
  precisionDock_ = dock(precision_, "precisionDock", Qt::BottomDockWidgetArea);
  lessonsDock_ = dock(lessonPanel_, "lessonsDock", Qt::RightDockWidgetArea);
  tabifyDockWidget(propertiesDock_, lessonsDock_);
  propertiesDock_->raise();
  splitDockWidget(timelineDock_, memoryDock_, Qt::Horizontal);  // Steps beside their memory
  tabifyDockWidget(timelineDock_, profileDock_);
  tabifyDockWidget(timelineDock_, precisionDock_);
  timelineDock_->raise();
  tabifyDockWidget(summaryDock_, historyDock_);
  tabifyDockWidget(summaryDock_, pipelineDock_);
  pipelineDock_->raise();
  resizeDocks({summaryDock_, propertiesDock_}, {340, 380}, Qt::Horizontal);
  resizeDocks({timelineDock_}, {190}, Qt::Vertical);
}

std::vector<ActionSpec> MainWindow::actionSpecs() {
  using K = QKeySequence;
  auto onPanel = [this](auto fn) {
    return [this, fn](bool) {
      if (GraphPanel* p = tabs_->current()) fn(p);
    };
  };
  auto onView = [this](auto fn) {
    return [this, fn](bool) {
      if (GraphPanel* p = viewPanel()) fn(p);
    };
  };
  auto hasModel = [this] { return doc_->hasModel(); };
  auto idle = [this] { return !pipeline_->isRunning(); };
  auto canStep = [this] {
    return doc_->hasModel() && !pipeline_->isRunning() && pipeline_->nextRow() >= 0;
  };
  auto applied = [this] { return !pipeline_->steps().empty(); };
  auto editableModel = [this] { return doc_->hasModel() && !pipeline_->isRunning(); };
  return {
      // File
      {.id = ActionId::kOpen,
       .text = QT_TR_NOOP("&Open…"),
       .shortcut = K::Open,
       .trigger = [this](bool) { openDialog(); }},
      {.id = ActionId::kSaveAs,
       .text = QT_TR_NOOP("Save &As…"),
       .shortcut = K::SaveAs,
       .trigger = [this](bool) { saveAsDialog(); },
       .enabled = hasModel},
      {.id = ActionId::kExportSvg,
       .text = QT_TR_NOOP("Export View as &SVG…"),
       .trigger = [this](bool) { exportSvg(); },
       .enabled = hasModel},
      {.id = ActionId::kExportPng,
       .text = QT_TR_NOOP("Export View as &PNG…"),
       .trigger = [this](bool) { exportPng(); },
       .enabled = hasModel},
      {.id = ActionId::kQuit,
       .text = QT_TR_NOOP("&Quit"),
       .shortcut = K::Quit,
       .trigger = [this](bool) { close(); }},
      {.id = ActionId::kClearRecent,
       .text = QT_TR_NOOP("&Clear List"),
       .trigger =
           [this](bool) {
             Settings::recentFiles.set({});
             updateRecentMenu();
           }},
      // Edit
      {.id = ActionId::kUndo,
       .text = QT_TR_NOOP("&Undo"),
       .shortcut = K::Undo,
       .create = [this] { return doc_->undoStack()->createUndoAction(this); }},
      {.id = ActionId::kRedo,
       .text = QT_TR_NOOP("&Redo"),
       .shortcut = K::Redo,
       .create = [this] { return doc_->undoStack()->createRedoAction(this); }},
      {.id = ActionId::kFind,
       .text = QT_TR_NOOP("&Find…"),
       .shortcut = K::Find,
       .trigger = [this](bool) { search_->focusSearch(); }},
      {.id = ActionId::kFindNext,
       .text = QT_TR_NOOP("Find &Next"),
       .shortcut = K::FindNext,
       .trigger = onPanel([](GraphPanel* p) { p->nextHit(); })},
      {.id = ActionId::kFindPrevious,
       .text = QT_TR_NOOP("Find &Previous"),
       .shortcut = K::FindPrevious,
       .trigger = onPanel([](GraphPanel* p) { p->previousHit(); })},
      {.id = ActionId::kSettings,
       .text = QT_TR_NOOP("&Settings…"),
       .shortcut = K::Preferences,
       .trigger = [this](bool) { showSettings(); }},
      // View
      {.id = ActionId::kFit,
       .text = QT_TR_NOOP("&Fit to Window"),
       .shortcut = K(Qt::CTRL | Qt::Key_0),
       .trigger = onView([](GraphPanel* p) { p->view()->fitAll(); }),
       .enabled = hasModel},
      {.id = ActionId::kZoomIn,
       .text = QT_TR_NOOP("Zoom &In"),
       .shortcut = K::ZoomIn,
       .trigger = onView([](GraphPanel* p) { p->view()->zoomBy(1.25); }),
       .enabled = hasModel},
      {.id = ActionId::kZoomOut,
       .text = QT_TR_NOOP("Zoom &Out"),
       .shortcut = K::ZoomOut,
       .trigger = onView([](GraphPanel* p) { p->view()->zoomBy(0.8); }),
       .enabled = hasModel},
      {.id = ActionId::kActualSize,
       .text = QT_TR_NOOP("&Actual Size"),
       .shortcut = K(Qt::CTRL | Qt::Key_1),
       .trigger = onView([](GraphPanel* p) { p->view()->setZoom(1.0); }),
       .enabled = hasModel},
      {.id = ActionId::kExpandAll,
       .text = QT_TR_NOOP("&Expand All Groups"),
       .trigger = onPanel([](GraphPanel* p) { p->expandAll(); }),
       .enabled = hasModel},
      {.id = ActionId::kCollapseAll,
       .text = QT_TR_NOOP("&Collapse All Groups"),
       .trigger = onPanel([](GraphPanel* p) { p->collapseAll(); }),
       .enabled = hasModel},
      {.id = ActionId::kRelayout,
       .text = QT_TR_NOOP("&Lay Out Again"),
       .shortcut = K(Qt::Key_F5),
       .trigger = onPanel([](GraphPanel* p) { p->relayout(); }),
       .enabled = hasModel},
      {.id = ActionId::kEdgeLabels,
       .text = QT_TR_NOOP("Arrow &Labels (Type and Shape)"),
       .trigger =
           [this](bool on) {
             ViewSettings v = Settings::view();
             v.edgeLabels = on;
             Settings::setView(v);
             tabs_->setViewSettings(v);
             diff_->setViewSettings(v);
           },
       .checkable = true},
      {.id = ActionId::kMinimap,
       .text = QT_TR_NOOP("&Minimap"),
       .trigger =
           [this](bool on) {
             Settings::minimap.set(on);
             tabs_->setMinimapVisible(on);
             diff_->setMinimapVisible(on);
           },
       .checkable = true},
      // Pipeline
      {.id = ActionId::kStep,
       .text = QT_TR_NOOP("&Step"),
       .shortcut = K(Qt::Key_F10),
       .trigger = [this](bool) { pipeline_->step(); },
       .enabled = canStep},
      {.id = ActionId::kRunAll,
       .text = QT_TR_NOOP("Run &All"),
       .shortcut = K(Qt::CTRL | Qt::Key_R),
       .trigger = [this](bool) { pipeline_->runAll(); },
       .enabled = canStep},
      {.id = ActionId::kCancelRun,
       .text = QT_TR_NOOP("&Cancel Run"),
       .trigger = [this](bool) { pipeline_->cancel(); },
       .enabled = [this] { return pipeline_->isRunning(); }},
      {.id = ActionId::kReset,
       .text = QT_TR_NOOP("&Reset"),
       .trigger = [this](bool) { pipeline_->reset(); },
       .enabled = [this] { return !pipeline_->steps().empty() && !pipeline_->isRunning(); }},
      {.id = ActionId::kLimitToSelection,
       .text = QT_TR_NOOP("&Limit Passes to the Selection"),
       .statusTip =
           QT_TR_NOOP("Passes only rewrite the selected node or the nodes of the selected group"),
       .trigger = [this](bool) { limitPassesToSelection(); },
       .enabled = editableModel},
      {.id = ActionId::kExcludeSelection,
       .text = QT_TR_NOOP("E&xclude the Selection from Passes"),
       .statusTip = QT_TR_NOOP("Passes leave the selected nodes as they are"),
       .trigger = [this](bool) { excludeSelectionFromPasses(); },
       .enabled = editableModel},
      {.id = ActionId::kClearNodeFilter,
       .text = QT_TR_NOOP("Passes on &Every Node"),
       .trigger = [this](bool) { pipeline_->setNodeFilter(rewrite::NodeFilter()); },
       .enabled = [this] { return !pipeline_->nodeFilter().empty() && !pipeline_->isRunning(); }},
      {.id = ActionId::kProfile,
       .text = QT_TR_NOOP("&Profile the Model"),
       .statusTip = QT_TR_NOOP("Time every node of the current model (the Profile panel)"),
       .trigger =
           [this](bool) {
             profileDock_->show();
             profileDock_->raise();
             profile_->runProfile();
           },
       .enabled = [this] { return doc_->hasModel() && !pipeline_->isRunning(); }},
      {.id = ActionId::kProfileCompare,
       .text = QT_TR_NOOP("Compare &Timings with the Original"),
       .trigger =
           [this](bool) {
             profileDock_->show();
             profileDock_->raise();
             profile_->runCompare();
           },
       .enabled = [this] { return profile_->canCompare() && !pipeline_->isRunning(); }},
      {.id = ActionId::kHeatOverlay,
       .text = QT_TR_NOOP("&Heat Overlay (Time Share)"),
       .trigger = [this](bool on) { profile_->setHeatShown(on); },
       .checkable = true},
      {.id = ActionId::kMemoryTimeline,
       .text = QT_TR_NOOP("&Memory Timeline"),
       .statusTip = QT_TR_NOOP("Plan the current model's memory and show it over the execution "
                               "order (the Memory panel)"),
       .trigger =
           [this](bool) {
             memoryDock_->show();
             memoryDock_->raise();
             memory_->refresh();
           },
       .enabled = [this] { return doc_->hasModel(); }},
      {.id = ActionId::kLoadRecipe,
       .text = QT_TR_NOOP("&Load Recipe…"),
       .trigger = [this](bool) { loadRecipe(); },
       .enabled = idle},
      {.id = ActionId::kExportRecipe,
       .text = QT_TR_NOOP("&Export Recipe…"),
       .trigger = [this](bool) { exportRecipe(); },
       .enabled = applied},
      {.id = ActionId::kExportReport,
       .text = QT_TR_NOOP("Export &Report (HTML)…"),
       .trigger = [this](bool) { exportReport(); },
       .enabled = applied},
      // Help
      {.id = ActionId::kAbout,
       .text = QT_TR_NOOP("&About PassLab"),
       .trigger = [this](bool) { about(); }},
      // Lessons
      {.id = ActionId::kShowLessons,
       .text = QT_TR_NOOP("&All Lessons"),
       .statusTip = QT_TR_NOOP("List the lessons in the Lessons panel"),
       .trigger =
           [this](bool) {
             lessonsDock_->show();
             lessonsDock_->raise();
             lessonPanel_->showStartPage();
           }},
      {.id = ActionId::kOpenLessonsFolder,
       .text = QT_TR_NOOP("Open Lessons &Folder…"),
       .statusTip = QT_TR_NOOP("Add the lessons of a folder (one subfolder per lesson, see "
                               "docs/lessons.md)"),
       .trigger = [this](bool) { openLessonsFolder(); }},
      {.id = ActionId::kCheckPrediction,
       .text = QT_TR_NOOP("&Check My Prediction"),
       .statusTip = QT_TR_NOOP("Run the lesson's pass and compare what it removed with the "
                               "nodes you picked"),
       .shortcut = K(Qt::CTRL | Qt::Key_Return),
       .trigger = [this](bool) { lessonSession_->check(); },
       .enabled =
           [this] {
             return lessonSession_->state() == LessonSession::State::kPredicting &&
                    !pipeline_->isRunning();
           }},
  };
}

namespace {

// One menu's entries in order: actions, submenus, dock toggles, separators.
struct MenuEntry {
  std::optional<ActionId> action = std::nullopt;
  QMenu* submenu = nullptr;
  QDockWidget* dock = nullptr;
};
const MenuEntry kSeparator{};

void fillMenu(QMenu* menu, const ActionTable& actions, std::initializer_list<MenuEntry> entries) {
  for (const MenuEntry& e : entries) {
    if (e.action)
      menu->addAction(actions[*e.action]);
    else if (e.submenu != nullptr)
      menu->addMenu(e.submenu);
    else if (e.dock != nullptr)
      menu->addAction(e.dock->toggleViewAction());
    else
      menu->addSeparator();
  }
}

MenuEntry item(ActionId id) {
  return {.action = id};
}

}  // namespace

void MainWindow::createMenus() {
  using A = ActionId;
  const ActionTable& t = *actions_;
  fileMenu_ = menuBar()->addMenu(QString());
  demoMenu_ = new QMenu(fileMenu_);
  recentMenu_ = new QMenu(fileMenu_);
  fillMenu(fileMenu_, t,
           {item(A::kOpen),
            {.submenu = demoMenu_},
            {.submenu = recentMenu_},
            kSeparator,
            item(A::kSaveAs),
            item(A::kExportSvg),
            item(A::kExportPng),
            item(A::kExportReport),
            kSeparator,
            item(A::kQuit)});
  editMenu_ = menuBar()->addMenu(QString());
  fillMenu(editMenu_, t,
           {item(A::kUndo), item(A::kRedo), kSeparator, item(A::kFind), item(A::kFindNext),
            item(A::kFindPrevious), kSeparator, item(A::kSettings)});
  viewMenu_ = menuBar()->addMenu(QString());
  fillMenu(viewMenu_, t,
           {item(A::kFit),
            item(A::kZoomIn),
            item(A::kZoomOut),
            item(A::kActualSize),
            kSeparator,
            item(A::kExpandAll),
            item(A::kCollapseAll),
            item(A::kRelayout),
            kSeparator,
            item(A::kEdgeLabels),
            item(A::kMinimap),
            item(A::kHeatOverlay),
            kSeparator,
            {.dock = propertiesDock_},
            {.dock = summaryDock_},
            {.dock = historyDock_},
            {.dock = pipelineDock_},
            {.dock = timelineDock_},
            {.dock = profileDock_},
            {.dock = memoryDock_},
            {.dock = precisionDock_},
            {.dock = lessonsDock_}});
  pipelineMenu_ = menuBar()->addMenu(QString());
  fillMenu(pipelineMenu_, t,
           {item(A::kStep), item(A::kRunAll), item(A::kCancelRun), item(A::kReset), kSeparator,
            item(A::kLimitToSelection), item(A::kExcludeSelection), item(A::kClearNodeFilter),
            kSeparator, item(A::kProfile), item(A::kProfileCompare), item(A::kMemoryTimeline),
            kSeparator, item(A::kLoadRecipe), item(A::kExportRecipe), item(A::kExportReport)});
  lessonsMenu_ = menuBar()->addMenu(QString());
  helpMenu_ = menuBar()->addMenu(QString());
  fillMenu(helpMenu_, t, {item(A::kAbout)});
}

void MainWindow::retranslateUi() {
  fileMenu_->setTitle(tr("&File"));
  demoMenu_->setTitle(tr("Open &Demo"));
  recentMenu_->setTitle(tr("Open &Recent"));
  editMenu_->setTitle(tr("&Edit"));
  viewMenu_->setTitle(tr("&View"));
  pipelineMenu_->setTitle(tr("&Pipeline"));
  lessonsMenu_->setTitle(tr("&Lessons"));
  helpMenu_->setTitle(tr("&Help"));
  actions_->retranslate([](const char* text) { return tr(text); });
  propertiesDock_->setWindowTitle(tr("Properties"));
  summaryDock_->setWindowTitle(tr("Model Summary"));
  historyDock_->setWindowTitle(tr("History"));
  pipelineDock_->setWindowTitle(tr("Pipeline"));
  timelineDock_->setWindowTitle(tr("Timeline"));
  profileDock_->setWindowTitle(tr("Profile"));
  memoryDock_->setWindowTitle(tr("Memory"));
  precisionDock_->setWindowTitle(tr("Precision"));
  lessonsDock_->setWindowTitle(tr("Lessons"));
  history_->setEmptyLabel(tr("<opened>"));
  updateDemoMenu();
  updateLessonMenu();
  updateRecentMenu();
  updateTitle();
  if (GraphPanel* p = tabs_->current()) layoutStatus_->setText(p->layoutNote());
}

void MainWindow::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslateUi();
  QMainWindow::changeEvent(event);
}

void MainWindow::updateTitle() {
  QString name = doc_->hasModel() ? doc_->displayName() : tr("No model");
  setWindowTitle(tr("%1[*] — PassLab").arg(name));
  setWindowModified(doc_->isModified());
}

void MainWindow::updateActions() {
  actions_->updateEnabled();
}

void MainWindow::updateDemoMenu() {
  demoMenu_->clear();
  for (const DemoModel& d : demoModels()) {
    QAction* a = demoMenu_->addAction(d.title);
    a->setStatusTip(d.description);
    a->setToolTip(d.description);
    connect(a, &QAction::triggered, this, [this, d] { openDemo(d); });
  }
}

void MainWindow::updateLessonMenu() {
  lessonsMenu_->clear();
  lessonsMenu_->addAction(action(ActionId::kShowLessons));
  lessonsMenu_->addSeparator();
  const QString language = Language::current();
  for (const Lesson& l : lessonLibrary_->lessons) {
    const QString title = l.text(language).title;
    QAction* a = lessonsMenu_->addAction(
        LessonSettings::isCompleted(l.id) ? tr("%1 (done)").arg(title) : title);
    const QString id = l.id;
    connect(a, &QAction::triggered, this, [this, id] { openLesson(id); });
  }
  lessonsMenu_->addSeparator();
  lessonsMenu_->addAction(action(ActionId::kCheckPrediction));
  lessonsMenu_->addAction(action(ActionId::kOpenLessonsFolder));
}

void MainWindow::updateRecentMenu() {
  recentMenu_->clear();
  const QStringList files = Settings::recentFiles.get();
  for (const QString& f : files) {
    QAction* a = recentMenu_->addAction(QFileInfo(f).fileName());
    a->setStatusTip(f);
    a->setToolTip(f);
    connect(a, &QAction::triggered, this, [this, f] { openFile(f); });
  }
  if (!files.isEmpty()) recentMenu_->addSeparator();
  recentMenu_->addAction(action(ActionId::kClearRecent));
  action(ActionId::kClearRecent)->setEnabled(!files.isEmpty());
}

// ---- panels ----

void MainWindow::onPanelAdded(GraphPanel* panel) {
  connect(panel, &GraphPanel::selectionChanged, this, &MainWindow::onSelection);
  connect(panel, &GraphPanel::searchStatusChanged, this, [this, panel](int current, int total) {
    if (panel == tabs_->current()) search_->setStatus(current, total);
  });
  connect(panel, &GraphPanel::layoutStarted, this, [this, panel] {
    if (layoutTasks_.count(panel)) return;
    QString what = doc_->hasModel() ? panel->graphRef().title(doc_->model()) : QString();
    QPointer<GraphPanel> guard(panel);
    layoutTasks_[panel] = tasks_->begin(tr("Laying out %1…").arg(what), [guard] {
      if (guard) guard->cancelLayout();
    });
  });
  connect(panel, &GraphPanel::layoutFinished, this, [this, panel] {
    if (!panel->isLayoutRunning()) {
      auto it = layoutTasks_.find(panel);
      if (it != layoutTasks_.end()) {
        tasks_->end(it->second);
        layoutTasks_.erase(it);
      }
    }
    if (panel == tabs_->current()) layoutStatus_->setText(panel->layoutNote());
  });
  connect(panel, &QObject::destroyed, this, [this, panel] {
    auto it = layoutTasks_.find(panel);
    if (it != layoutTasks_.end()) {
      tasks_->end(it->second);
      layoutTasks_.erase(it);
    }
  });
}

void MainWindow::onCurrentPanelChanged(GraphPanel* panel) {
  if (panel == nullptr) return;
  layoutStatus_->setText(panel->layoutNote());
  if (!search_->text().trimmed().isEmpty())
    panel->setSearch(search_->text(), search_->field());
  else
    search_->setStatus(-1, 0);
  onSelection(panel->selection());
}

void MainWindow::onSelection(const Selection& s) {
  if (s.graph.isMain() && s.kind == Selection::Kind::kNode &&
      lessonSession_->state() == LessonSession::State::kPredicting)
    lessonSession_->togglePredicted(s.node);
  GraphPanel* p = tabs_->panelFor(s.graph);
  properties_->setSelection(s, p ? &p->groups() : nullptr);
  if (s.graph.isMain()) profile_->selectNode(s.kind == Selection::Kind::kNode ? s.node : 0);
  if (s.graph.isMain() && s.kind == Selection::Kind::kValue)
    precision_->selectTensor(QString::fromStdString(s.value));
}

// ---- lessons ----

void MainWindow::connectLessons() {
  connect(lessonPanel_, &LessonPanel::lessonChosen, this, &MainWindow::openLesson);
  connect(lessonPanel_, &LessonPanel::openFolderRequested, this, &MainWindow::openLessonsFolder);
  connect(lessonSession_, &LessonSession::stateChanged, this, [this](LessonSession::State s) {
    markPredictedNodes();
    updateActions();
    if (s == LessonSession::State::kJudged) updateLessonMenu();  // the lesson is done
  });
  connect(lessonSession_, &LessonSession::predictionChanged, this, &MainWindow::markPredictedNodes);
  // The lesson's model opened: predicting starts. Another model: the lesson ends.
  connect(files_, &ModelFileController::opened, this, [this](const QString& path) {
    const Lesson* l = lessonSession_->lesson();
    if (lessonSession_->state() == LessonSession::State::kOpening && l && l->modelPath == path)
      lessonSession_->modelOpened();
    else
      lessonSession_->end();
  });
  connect(files_, &ModelFileController::loadFailed, lessonSession_, &LessonSession::end);
  connect(files_, &ModelFileController::openCancelled, lessonSession_, &LessonSession::end);
}

void MainWindow::markPredictedNodes() {
  GraphPanel* main = tabs_->mainPanel();
  if (main == nullptr) return;
  std::unordered_map<ir::NodeId, DiffMark> marks;
  // The layers the Precision panel's mixed precision Step kept in float32.
  for (ir::NodeId n : precision_->keptNodes()) marks[n] = DiffMark::kChanged;
  if (lessonSession_->state() == LessonSession::State::kPredicting)
    for (ir::NodeId n : lessonSession_->prediction()) marks[n] = DiffMark::kRemoved;
  main->setDiffMarks(std::move(marks));
}

QString MainWindow::lessonTitleFor(const QString& passId) const {
  for (const Lesson& l : lessonLibrary_->lessons)
    if (l.pass == passId.toStdString()) return l.text(Language::current()).title;
  return {};
}

void MainWindow::openLessonFor(const QString& passId) {
  for (const Lesson& l : lessonLibrary_->lessons)
    if (l.pass == passId.toStdString()) {
      openLesson(l.id);
      return;
    }
}

bool MainWindow::openLesson(const QString& id) {
  const Lesson* lesson = lessonLibrary_->find(id);
  if (lesson == nullptr) return false;
  // The model of a lesson in progress is the lesson's, not the user's work.
  const auto state = lessonSession_->state();
  const bool lessonModel =
      state != LessonSession::State::kNone && state != LessonSession::State::kOpening;
  if (!lessonModel && !confirmDiscard()) return false;
  lessonSession_->begin(*lesson);
  lessonsDock_->show();
  lessonsDock_->raise();
  files_->open(lesson->modelPath, lesson->text(Language::current()).title);
  return true;
}

void MainWindow::reloadLessons() {
  *lessonLibrary_ = loadLessonLibrary(LessonSettings::userFolder.get());
  lessonPanel_->setLibrary(lessonLibrary_.get());
  updateLessonMenu();
  if (!lessonLibrary_->errors.empty())
    statusBar()->showMessage(tr("%n lesson file(s) did not load (see the Lessons panel)", nullptr,
                                static_cast<int>(lessonLibrary_->errors.size())),
                             10000);
}

void MainWindow::openLessonsFolder() {
  QString folder = QFileDialog::getExistingDirectory(this, tr("Open Lessons Folder"),
                                                     LessonSettings::userFolder.get());
  if (folder.isEmpty()) return;
  LessonSettings::userFolder.set(folder);
  reloadLessons();
  lessonsDock_->show();
  lessonsDock_->raise();
  lessonPanel_->showStartPage();
}

// ---- profile ----

void MainWindow::connectProfile() {
  ProfileRunner* runner = profile_->runner();
  connect(runner, &ProfileRunner::runningChanged, this, [this, runner](bool running) {
    if (running && profileTask_ == 0) {
      profileTask_ = tasks_->begin(tr("Profiling…"), [runner] { runner->cancel(); });
    } else if (!running && profileTask_ != 0) {
      tasks_->end(profileTask_);
      profileTask_ = 0;
    }
    updateActions();
  });
  connect(
      runner, &ProfileRunner::progress, this, [this](const QString& phase, int done, int total) {
        statusBar()->showMessage(
            tr("Profiling: %1 %2 of %3").arg(ProfileRunner::phaseText(phase)).arg(done).arg(total),
            3000);
      });
  connect(runner, &ProfileRunner::failed, this,
          [this](const QString& message) { statusBar()->showMessage(message, 10000); });
  connect(profile_, &ProfilePanel::nodeActivated, this, [this](quint64 node) {
    if (!doc_->hasModel() || !findNode(doc_->model(), node)) return;
    GraphPanel* main = tabs_->mainPanel();
    if (main == nullptr) return;
    tabs_->setCurrentWidget(main);
    main->select(Selection::ofNode(GraphRef(), node));
  });
  connect(profile_, &ProfilePanel::heatChanged, this, &MainWindow::applyHeat);
  connect(profile_, &ProfilePanel::outcomeChanged, this, [this] {
    properties_->setTimingSource([this](ir::NodeId n) { return profile_->nodeTimingText(n); });
    updateActions();
  });
}

// ---- memory ----

void MainWindow::connectMemory() {
  connect(timeline_, &TimelinePanel::stepChosen, memory_, &MemoryPanel::showStep);
  // A band picked: its tensor in the main graph (the arrows from its producer
  // to its readers), when the current model has it.
  connect(memory_, &MemoryPanel::tensorActivated, this, [this](const QString& tensor) {
    GraphPanel* main = tabs_->mainPanel();
    if (main == nullptr || main->graph() == nullptr ||
        main->graph()->findValue(tensor.toStdString()) == nullptr)
      return;
    tabs_->setCurrentWidget(main);
    main->select(Selection::ofValue(GraphRef(), tensor.toStdString()));
  });
}

// ---- precision ----

void MainWindow::connectPrecision() {
  PrecisionWorker* worker = precision_->worker();
  connect(worker, &PrecisionWorker::runningChanged, this, [this, worker](bool running) {
    if (running && precisionTask_ == 0) {
      precisionTask_ = tasks_->begin(tr("Measuring precision…"), [worker] { worker->cancel(); });
    } else if (!running && precisionTask_ != 0) {
      tasks_->end(precisionTask_);
      precisionTask_ = 0;
    }
    updateActions();
  });
  connect(precision_, &PrecisionPanel::nodeActivated, this, [this](quint64 node) {
    if (!doc_->hasModel() || !findNode(doc_->model(), node)) return;
    GraphPanel* main = tabs_->mainPanel();
    if (main == nullptr) return;
    tabs_->setCurrentWidget(main);
    main->select(Selection::ofNode(GraphRef(), node));
  });
  connect(precision_, &PrecisionPanel::keptNodesChanged, this, &MainWindow::markPredictedNodes);
}

void MainWindow::applyHeat() {
  action(ActionId::kHeatOverlay)->setChecked(profile_->heatShown());
  if (GraphPanel* main = tabs_->mainPanel()) main->setHeat(profile_->heatShares());
}

// ---- files ----

bool MainWindow::confirmDiscard() {
  if (!doc_->hasModel() || !doc_->isModified()) return true;
  auto answer = QMessageBox::question(
      this, tr("Discard changes?"),
      tr("%1 has changes that are not saved. Discard them?").arg(doc_->displayName()),
      QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel);
  return answer == QMessageBox::Discard;
}

void MainWindow::showError(const QString& title, const QString& text) {
  statusBar()->showMessage(text, 10000);
  // Window-modal, without blocking: the window (and tests) keep running.
  auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::openDialog() {
  QString path = QFileDialog::getOpenFileName(
      this, tr("Open Model"), Settings::lastDirectory.get(),
      tr("Models (*.onnx *.txt *.onnxtxt);;ONNX models (*.onnx);;PassLab text format (*.txt "
         "*.onnxtxt);;All files (*)"));
  if (path.isEmpty()) return;
  Settings::lastDirectory.set(QFileInfo(path).absolutePath());
  openFile(path);
}

void MainWindow::openDemo(const DemoModel& demo) {
  openFile(demo.resource, demo.title);
}

void MainWindow::openFile(const QString& path, const QString& displayName) {
  if (confirmDiscard()) files_->open(path, displayName);
}

bool MainWindow::isLoading() const {
  return files_->isLoading();
}

void MainWindow::connectFileController() {
  connect(files_, &ModelFileController::opened, this,
          [this](const QString& path, const QString& shown, bool resource) {
            if (!resource) {
              Settings::addRecentFile(path);
              updateRecentMenu();
            }
            statusBar()->showMessage(tr("Opened %1").arg(shown), 5000);
            emit modelOpened();
          });
  connect(files_, &ModelFileController::openCancelled, this,
          [this] { statusBar()->showMessage(tr("Opening cancelled"), 5000); });
  connect(files_, &ModelFileController::loadFailed, this, [this](const QString& error) {
    showError(tr("Cannot open the model"), error);
    emit loadFailed(error);
  });
  connect(files_, &ModelFileController::saved, this, [this](const QString& path) {
    Settings::addRecentFile(path);
    updateRecentMenu();
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    emit saved(path);
  });
  connect(files_, &ModelFileController::saveFailed, this, [this](const QString& error) {
    showError(tr("Cannot save the model"), error);
    emit saveFailed(error);
  });
  connect(files_, &ModelFileController::saveNeedsConfirmation, this,
          &MainWindow::confirmUnverifiedSave);
}

void MainWindow::saveAsDialog() {
  if (!doc_->hasModel()) return;
  QString start = doc_->filePath().isEmpty()
                      ? QFileInfo(Settings::lastDirectory.get(), doc_->displayName()).filePath()
                      : doc_->filePath();
  QFileInfo info(start);
  QString suggestion = info.absolutePath() + QLatin1Char('/') + info.completeBaseName() +
                       QStringLiteral(".optimized.onnx");
  QString path =
      QFileDialog::getSaveFileName(this, tr("Save Model As"), suggestion,
                                   tr("ONNX model (*.onnx);;PassLab text format (*.txt)"));
  if (path.isEmpty()) return;
  bool overwrite = false;
  if (doc_->isOpenedFile(path)) {
    auto answer = QMessageBox::warning(
        this, tr("Overwrite the original?"),
        tr("%1 is the file this model was opened from. Replace it with the current model?")
            .arg(path),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes) return;
    overwrite = true;
  }
  saveTo(path, overwrite);
}

void MainWindow::saveTo(const QString& path, bool overwriteOpened, bool allowNewVerifierErrors) {
  if (!doc_->hasModel()) return;
  if (!overwriteOpened && doc_->isOpenedFile(path)) {
    QString msg =
        tr("%1 is the file this model was opened from; it was not overwritten.").arg(path);
    showError(tr("Not saved"), msg);
    emit saveFailed(msg);
    return;
  }
  files_->save(path, allowNewVerifierErrors);
}

void MainWindow::confirmUnverifiedSave(const QString& problems) {
  statusBar()->showMessage(tr("Not saved: the model fails the verifier"), 10000);
  emit saveNeedsConfirmation(problems);
  // Window-modal, without blocking (as showError): the window and tests keep running.
  auto* box = new QMessageBox(
      QMessageBox::Warning, tr("Save a model that fails the verifier?"),
      problems + QStringLiteral("\n\n") +
          tr("Nothing was written. A pass may have left the model invalid (run the "
             "pipeline with the numeric check, or step through it, to find which). Save it "
             "anyway?"),
      QMessageBox::Save | QMessageBox::Cancel, this);
  box->setDefaultButton(QMessageBox::Cancel);
  box->setAttribute(Qt::WA_DeleteOnClose);
  // "Save" writes the model that was checked, even if the document has changed since.
  connect(box, &QMessageBox::finished, this, [this](int result) {
    if (result == QMessageBox::Save)
      files_->writePendingSave();
    else
      emit saveFailed(files_->dropPendingSave());
  });
  box->open();
}

void MainWindow::exportSvg() {
  GraphPanel* p = viewPanel();
  if (p == nullptr) return;
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export View as SVG"), Settings::lastDirectory.get(), tr("SVG image (*.svg)"));
  if (path.isEmpty()) return;
  QSaveFile f(path);
  QByteArray svg = p->svg().toUtf8();
  if (svg.isEmpty() || !f.open(QIODevice::WriteOnly) || f.write(svg) != svg.size() || !f.commit())
    showError(tr("Export failed"), tr("Cannot write %1: %2").arg(path, f.errorString()));
}

void MainWindow::exportPng() {
  GraphPanel* p = viewPanel();
  if (p == nullptr) return;
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export View as PNG"), Settings::lastDirectory.get(), tr("PNG image (*.png)"));
  if (path.isEmpty()) return;
  QImage img = p->image();
  if (img.isNull() || !img.save(path, "PNG"))
    showError(tr("Export failed"), tr("Cannot write %1").arg(path));
}

GraphPanel* MainWindow::viewPanel() const {
  if (tabs_->currentWidget() == diff_) return diff_->activePanel();
  return tabs_->current();
}

void MainWindow::showStep(int step) {
  const auto& steps = pipeline_->steps();
  if (step < 0 || step >= static_cast<int>(steps.size())) {
    diff_->showStep(nullptr, 0);
    tabs_->hideExtraTab(diff_);
    return;
  }
  if (diff_->step() != steps[static_cast<size_t>(step)])
    diff_->showStep(steps[static_cast<size_t>(step)], step + 1);
  tabs_->showExtraTab(diff_, diff_->title());
  if (timeline_->chosenStep() != step) timeline_->chooseStep(step);
}

namespace {

QString writeText(const QString& path, const QByteArray& bytes) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit())
    return f.errorString().isEmpty() ? QStringLiteral("write failed") : f.errorString();
  return {};
}

}  // namespace

bool MainWindow::exportRecipeTo(const QString& path) {
  if (const QString conflict = pipeline_->recipeConflict(); !conflict.isEmpty()) {
    showError(tr("Cannot export the recipe"), conflict);
    return false;
  }
  QString error =
      writeText(path, QByteArray::fromStdString(pipeline::recipeToJson(pipeline_->recipe())));
  if (!error.isEmpty()) {
    showError(tr("Export failed"), tr("Cannot write %1: %2").arg(path, error));
    return false;
  }
  const QStringList leftOut = pipeline_->stepsLeftOutOfRecipe();
  if (leftOut.isEmpty())
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
  else
    statusBar()->showMessage(tr("Saved %1; %n rolled-back Step(s) left out, as they did not "
                                "change the model: %2",
                                "", static_cast<int>(leftOut.size()))
                                 .arg(path, leftOut.join(QStringLiteral(", "))),
                             10000);
  return true;
}

bool MainWindow::exportReportTo(const QString& path) {
  QString error = writeText(path, htmlReport(*pipeline_, doc_->displayName()).toUtf8());
  if (!error.isEmpty()) {
    showError(tr("Export failed"), tr("Cannot write %1: %2").arg(path, error));
    return false;
  }
  statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
  return true;
}

bool MainWindow::loadRecipeFrom(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    showError(tr("Cannot load the recipe"), tr("Cannot read %1: %2").arg(path, f.errorString()));
    return false;
  }
  auto recipe = pipeline::recipeFromJson(f.readAll().toStdString());
  Status s = recipe ? pipeline_->loadRecipe(*recipe) : Status(recipe.error());
  if (!s) {
    showError(tr("Cannot load the recipe"), tr("%1: %2").arg(path, trCore(s.text())));
    return false;
  }
  pipelineDock_->raise();
  statusBar()->showMessage(tr("Loaded the recipe %1").arg(QFileInfo(path).fileName()), 5000);
  return true;
}

std::vector<ir::NodeId> MainWindow::selectedNodes() const {
  GraphPanel* p = tabs_->current();
  if (p == nullptr) return {};
  const Selection& s = p->selection();
  if (s.kind == Selection::Kind::kNode) return {s.node};
  std::vector<ir::NodeId> out;
  if (s.kind == Selection::Kind::kGroup) {
    int g = p->groups().find(s.group);
    std::vector<int> stack;
    if (g >= 0) stack.push_back(g);
    while (!stack.empty()) {
      const layout::Group& cur = p->groups().group(stack.back());
      stack.pop_back();
      out.insert(out.end(), cur.nodes.begin(), cur.nodes.end());
      stack.insert(stack.end(), cur.children.begin(), cur.children.end());
    }
  }
  return out;
}

void MainWindow::limitPassesToSelection() {
  std::vector<ir::NodeId> nodes = selectedNodes();
  if (nodes.empty()) {
    statusBar()->showMessage(tr("Select a node or a group first"), 5000);
    return;
  }
  rewrite::NodeFilter f = pipeline_->nodeFilter();
  f.only = {nodes.begin(), nodes.end()};
  pipeline_->setNodeFilter(std::move(f));
  pipelineDock_->raise();
}

void MainWindow::excludeSelectionFromPasses() {
  std::vector<ir::NodeId> nodes = selectedNodes();
  if (nodes.empty()) {
    statusBar()->showMessage(tr("Select a node or a group first"), 5000);
    return;
  }
  rewrite::NodeFilter f = pipeline_->nodeFilter();
  f.excluded.insert(nodes.begin(), nodes.end());
  pipeline_->setNodeFilter(std::move(f));
  pipelineDock_->raise();
}

void MainWindow::exportRecipe() {
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export Recipe"), Settings::lastDirectory.get(), tr("PassLab recipe (*.json)"));
  if (!path.isEmpty()) exportRecipeTo(path);
}

void MainWindow::loadRecipe() {
  QString path =
      QFileDialog::getOpenFileName(this, tr("Load Recipe"), Settings::lastDirectory.get(),
                                   tr("PassLab recipe (*.json);;All files (*)"));
  if (!path.isEmpty()) loadRecipeFrom(path);
}

void MainWindow::exportReport() {
  QFileInfo info(doc_->displayName());
  QString suggestion = QFileInfo(Settings::lastDirectory.get(),
                                 info.completeBaseName() + QStringLiteral(".report.html"))
                           .filePath();
  QString path =
      QFileDialog::getSaveFileName(this, tr("Export Report"), suggestion, tr("HTML page (*.html)"));
  if (!path.isEmpty()) exportReportTo(path);
}

void MainWindow::showSettings() {
  SettingsDialog dialog(this);
  dialog.setLanguage(Settings::language.get());
  dialog.setViewSettings(Settings::view());
  if (dialog.exec() != QDialog::Accepted) return;
  QString language = dialog.language();
  if (language != Settings::language.get()) {
    Settings::language.set(language);
    Language::apply(language);  // widgets retranslate themselves
  }
  ViewSettings v = dialog.viewSettings();
  Settings::setView(v);
  action(ActionId::kEdgeLabels)->setChecked(v.edgeLabels);
  tabs_->setViewSettings(v);
  diff_->setViewSettings(v);
}

void MainWindow::about() {
  QMessageBox::about(
      this, tr("About PassLab"),
      tr("<h3>PassLab %1</h3><p>A workbench for optimizing ONNX inference graphs: open a model, "
         "inspect it, apply passes step by step and see what each one changed.</p>"
         "<p>Graph layout by Graphviz (in a separate process); built with Qt %2.</p>")
          .arg(QStringLiteral(PASSLAB_VERSION), QString::fromLatin1(qVersion())));
}

// ---- window events ----

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!confirmDiscard()) {
    event->ignore();
    return;
  }
  Settings::windowGeometry.set(saveGeometry());
  Settings::windowState.set(saveState());
  tasks_->cancelAll();
  event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile()) {
      event->acceptProposedAction();
      return;
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile()) {
      event->acceptProposedAction();
      openFile(url.toLocalFile());
      return;
    }
}

}  // namespace passlab::ui
