#include "ui/mainwindow/application.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QFileInfo>
#include <QLineEdit>
#include <QTimer>

#include "ui/graphview/graph_panel.h"
#include "ui/graphview/graph_tabs.h"
#include "ui/graphview/search_bar.h"
#include "ui/lessons/lesson_session.h"
#include "ui/mainwindow/language.h"
#include "ui/mainwindow/main_window.h"
#include "ui/mainwindow/settings.h"
#include "ui/mainwindow/task_progress.h"
#include "ui/memory/memory_panel.h"
#include "ui/pipeline/diff_panel.h"
#include "ui/pipeline/pipeline_session.h"
#include "ui/precision/precision_panel.h"
#include "ui/profile/profile_panel.h"

namespace passlab::ui {

namespace {

// Saves a picture of the window once the model is open and its graph drawn
// (and nothing has been running for a moment), then quits.
void screenshotWhenDrawn(MainWindow* w, const QString& file) {
  auto* timer = new QTimer(w);
  timer->setInterval(100);
  auto idleTicks = std::make_shared<int>(0);
  QObject::connect(timer, &QTimer::timeout, w, [w, timer, file, idleTicks] {
    GraphPanel* p = w->graphTabs()->current();
    GraphPanel* main = w->graphTabs()->mainPanel();
    bool busy = w->isLoading() || !w->document()->hasModel() || main == nullptr ||
                main->isLayoutRunning() || (p && p->isLayoutRunning()) ||
                w->diffPanel()->isLayoutRunning() || w->pipeline()->isRunning() ||
                w->tasks()->isBusy() || w->memoryPanel()->planner()->isRunning() ||
                w->property("passlab_script_busy").toBool();
    *idleTicks = busy ? 0 : *idleTicks + 1;
    if (*idleTicks < 8) return;  // 0.8 s without work: searches and relayouts are done
    timer->stop();
    QPixmap shot = w->grab();
    bool ok = shot.save(file);
    fprintf(stderr, "passlab: %s %s\n", ok ? "saved" : "could not save", qPrintable(file));
    QCoreApplication::exit(ok ? 0 : 1);
  });
  timer->start();
}

// Picks the nodes named in `names` as the lesson's prediction, as clicks in
// the graph would, and shows the Lessons dock.
void predictNodes(MainWindow* w, const QStringList& names) {
  if (w->lessons()->state() != LessonSession::State::kPredicting) return;
  w->lessonsDock()->show();
  w->lessonsDock()->raise();
  for (const QString& name : names)
    for (const auto& n : w->document()->model().graph().nodes())
      if (QString::fromStdString(n->name()) == name) w->lessons()->togglePredicted(n->id());
}

// Shows the Memory dock alone along the bottom (the Timeline and Profile
// docks beside it hidden), tall enough to read.
void showMemoryLarge(MainWindow* w) {
  if (auto* timeline = w->findChild<QDockWidget*>(QStringLiteral("timelineDock"))) timeline->hide();
  w->profileDock()->hide();
  w->memoryDock()->show();
  w->memoryDock()->raise();
  w->resizeDocks({w->memoryDock()}, {w->height() / 2}, Qt::Vertical);
}

// Profiles the model ("profile") or compares it with the original
// ("compare") in the Profile dock with the heat overlay on, showing the
// chart or the roofline, on `device` ("cpu", "cuda:0"; one the Device
// selector does not list is reported and the CPU used); the script is busy
// until the run ends.
void startProfile(MainWindow* w, const QString& mode, const QString& view, const QString& device) {
  ProfilePanel* p = w->profilePanel();
  w->profileDock()->show();
  w->profileDock()->raise();
  w->resizeDocks({w->profileDock()}, {480}, Qt::Vertical);
  p->tabs()->setCurrentIndex(view == QLatin1String("roofline") ? 1 : 0);
  // One thread, more runs: steadier figures on a machine other work shares.
  p->setSettings({.device = device.toStdString(), .threads = 1, .warmup = 3, .repeats = 20});
  if (p->settings().device != device.toStdString() &&
      p->settings().device != device.toStdString() + ":0")
    qWarning("--profile-device %s is not listed; profiling on the CPU. %s", qPrintable(device),
             qPrintable(p->deviceHintText()));
  p->setHeatShown(true);
  w->setProperty("passlab_script_busy", true);
  QObject::connect(p->runner(), &ProfileRunner::runningChanged, w, [w](bool running) {
    if (!running) w->setProperty("passlab_script_busy", false);
  });
  bool started = mode == QLatin1String("compare") ? p->runCompare() : p->runProfile();
  if (!started) w->setProperty("passlab_script_busy", false);
}

// Shows the Precision dock large, runs FP16 mixed precision for a budget of
// `minSnrDb`, then calibrates and selects the input of the first layer kept
// in float32, so its histogram shows; the script is busy until then.
void startPrecision(MainWindow* w, double minSnrDb) {
  PrecisionPanel* p = w->precisionPanel();
  if (auto* timeline = w->findChild<QDockWidget*>(QStringLiteral("timelineDock"))) timeline->hide();
  w->profileDock()->hide();
  w->memoryDock()->hide();
  w->precisionDock()->show();
  w->precisionDock()->raise();
  w->resizeDocks({w->precisionDock()}, {w->height() * 3 / 5}, Qt::Vertical);
  pipeline::AccuracyBudget budget = w->pipeline()->accuracyBudget();
  budget.minSnrDb = minSnrDb;
  w->pipeline()->setAccuracyBudget(budget);
  p->setChoice({PrecisionTarget::kFloat16, passes::CalibrationMethod::kMinMax, true});
  w->setProperty("passlab_script_busy", true);
  auto done = [w] { w->setProperty("passlab_script_busy", false); };
  QObject::connect(p->worker(), &PrecisionWorker::failed, w, done);
  QObject::connect(p, &PrecisionPanel::keptNodesChanged, w, [p] {
    if (!p->keptNodes().empty()) p->calibrate();
  });
  QObject::connect(
      p->worker(), &PrecisionWorker::finished, w, [w, p, done](PrecisionOutcomePtr outcome) {
        if (outcome->kind != PrecisionRequest::Kind::kCalibrate) return;
        const ir::Node* n = p->keptNodes().empty()
                                ? nullptr
                                : findNode(w->document()->model(), *p->keptNodes().begin());
        if (n && !n->inputs().empty() && n->input(0))
          w->graphTabs()->mainPanel()->select(Selection::ofValue(GraphRef(), n->input(0)->name()),
                                              true);
        done();
      });
  if (!p->mixedPrecision()) done();
}

}  // namespace

int runPassLab(int argc, char** argv) {
  QApplication app(argc, argv);
  QCoreApplication::setOrganizationName(QStringLiteral("PassLab"));
  QCoreApplication::setApplicationName(QStringLiteral("PassLab"));
  QCoreApplication::setApplicationVersion(QStringLiteral(PASSLAB_VERSION));
  QGuiApplication::setApplicationDisplayName(QStringLiteral("PassLab"));

  // The language first, so --help is translated too.
  QString language = Settings::language.get();
  const QStringList rawArgs = QCoreApplication::arguments();
  for (int i = 1; i < rawArgs.size(); ++i) {
    if (rawArgs[i] == QLatin1String("--lang") && i + 1 < rawArgs.size()) language = rawArgs[i + 1];
    if (rawArgs[i].startsWith(QLatin1String("--lang="))) language = rawArgs[i].mid(7);
  }
  Language::apply(language);

  QCommandLineParser parser;
  parser.setApplicationDescription(QCoreApplication::translate(
      "main", "PassLab: a workbench for optimizing ONNX inference graphs"));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(
      QStringLiteral("model"),
      QCoreApplication::translate(
          "main", "ONNX model or text-format file to open (default: a bundled demo)"),
      QStringLiteral("[MODEL]"));
  QCommandLineOption lang(
      QStringLiteral("lang"),
      QCoreApplication::translate("main", "Interface language for this run (en, zh_CN)"),
      QStringLiteral("code"));
  QCommandLineOption search(
      QStringLiteral("search"),
      QCoreApplication::translate("main", "Find this text and select the first match"),
      QStringLiteral("text"));
  QCommandLineOption screenshot(
      QStringLiteral("screenshot"),
      QCoreApplication::translate(
          "main", "Save a picture of the window once the graph is drawn, then quit"),
      QStringLiteral("file"));
  QCommandLineOption run(
      QStringLiteral("run"),
      QCoreApplication::translate(
          "main", "After opening, apply passes: a number of Steps, or \"all\" for Run All"),
      QStringLiteral("steps"));
  QCommandLineOption showStep(
      QStringLiteral("show-step"),
      QCoreApplication::translate("main",
                                  "After the passes, show what Step N changed (1 is the first)"),
      QStringLiteral("n"));
  QCommandLineOption showPass(
      QStringLiteral("show-pass"),
      QCoreApplication::translate("main",
                                  "After the passes, show what the last Step of this pass changed"),
      QStringLiteral("id"));
  QCommandLineOption madeBy(
      QStringLiteral("select-made-by"),
      QCoreApplication::translate(
          "main", "After the passes, select in the main graph a node this pass made"),
      QStringLiteral("id"));
  QCommandLineOption tab(QStringLiteral("main-tab"),
                         QCoreApplication::translate(
                             "main", "After the passes, show the main graph rather than the Step"));
  QCommandLineOption profile(
      QStringLiteral("profile"),
      QCoreApplication::translate("main",
                                  "After the passes, profile the model (\"profile\") or compare it "
                                  "with the original (\"compare\") with the heat overlay on"),
      QStringLiteral("mode"));
  QCommandLineOption profileView(
      QStringLiteral("profile-view"),
      QCoreApplication::translate(
          "main", "What the Profile panel shows beside its table: chart or roofline"),
      QStringLiteral("view"));
  QCommandLineOption profileDevice(
      QStringLiteral("profile-device"),
      QCoreApplication::translate(
          "main", "Where --profile runs: cpu (the default) or a listed device such as cuda:0"),
      QStringLiteral("device"), QStringLiteral("cpu"));
  QCommandLineOption lesson(
      QStringLiteral("lesson"),
      QCoreApplication::translate("main", "Open this lesson (its folder name) instead of a model"),
      QStringLiteral("id"));
  QCommandLineOption predict(
      QStringLiteral("predict"),
      QCoreApplication::translate(
          "main", "In the lesson, pick these nodes (comma-separated names) as the prediction"),
      QStringLiteral("names"));
  QCommandLineOption memory(
      QStringLiteral("memory"),
      QCoreApplication::translate("main",
                                  "Show the Memory panel large (the shown Step before and after)"));
  QCommandLineOption precision(
      QStringLiteral("precision"),
      QCoreApplication::translate("main",
                                  "Show the Precision panel large and run FP16 mixed precision for "
                                  "this least SNR (dB), then calibrate"),
      QStringLiteral("snr"));
  parser.addOption(lang);
  parser.addOption(memory);
  parser.addOption(precision);
  parser.addOption(lesson);
  parser.addOption(predict);
  parser.addOption(profile);
  parser.addOption(profileView);
  parser.addOption(profileDevice);
  parser.addOption(search);
  parser.addOption(screenshot);
  parser.addOption(run);
  parser.addOption(showStep);
  parser.addOption(showPass);
  parser.addOption(tab);
  parser.addOption(madeBy);
  parser.process(app);

  MainWindow window;
  window.show();
  const QStringList args = parser.positionalArguments();
  if (parser.isSet(lesson))
    window.openLesson(parser.value(lesson));
  else if (!args.isEmpty())
    window.openFile(args.first());
  else
    window.openDemo(defaultDemo());
  // A script for screenshots and demonstrations: open, run passes, show a
  // Step or the main graph, search. Each part starts when the one before ended.
  const QString text = parser.isSet(search) ? parser.value(search) : QString();
  const QString runSteps = parser.isSet(run) ? parser.value(run) : QString();
  const int stepShown = parser.isSet(showStep) ? parser.value(showStep).toInt() : 0;
  const QString passShown = parser.isSet(showPass) ? parser.value(showPass) : QString();
  const bool mainTab = parser.isSet(tab);
  const std::string madeByPass = parser.isSet(madeBy) ? parser.value(madeBy).toStdString() : "";
  if (!runSteps.isEmpty()) window.setProperty("passlab_script_busy", true);
  const QString profileMode = parser.isSet(profile) ? parser.value(profile) : QString();
  const QString profileShown = parser.value(profileView);
  const QString profileOn = parser.value(profileDevice);
  const QStringList predicted = parser.value(predict).split(QLatin1Char(','), Qt::SkipEmptyParts);
  const bool memoryShown = parser.isSet(memory);
  const QString precisionSnr = parser.value(precision);
  auto finish = [&window, text, stepShown, passShown, mainTab, runSteps, madeByPass, profileMode,
                 profileShown, profileOn, predicted, memoryShown, precisionSnr] {
    predictNodes(&window, predicted);
    if (memoryShown) showMemoryLarge(&window);
    if (!precisionSnr.isEmpty()) startPrecision(&window, precisionSnr.toDouble());
    if (!profileMode.isEmpty()) startProfile(&window, profileMode, profileShown, profileOn);
    if (!runSteps.isEmpty()) {
      if (stepShown > 0) window.showStep(stepShown - 1);
      const auto& steps = window.pipeline()->steps();
      for (int i = static_cast<int>(steps.size()) - 1; i >= 0 && !passShown.isEmpty(); --i)
        if (QString::fromStdString(steps[static_cast<size_t>(i)]->step.passId) == passShown) {
          window.showStep(i);
          break;
        }
      if (mainTab) window.graphTabs()->setCurrentIndex(0);
    }
    GraphPanel* p = window.graphTabs()->mainPanel();
    auto search = [&window, p, text, madeByPass] {
      if (!text.isEmpty()) {
        window.searchBar()->lineEdit()->setText(text);
        p->setSearch(text, SearchField::kAny);
      }
      if (madeByPass.empty()) return;
      const auto& steps = window.pipeline()->steps();
      for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
        if ((*it)->step.passId != madeByPass) continue;
        for (ir::NodeId id : (*it)->step.summary.added)
          if (window.document()->model().graph().findNode(id)) {
            p->select(Selection::ofNode(GraphRef(), id), true);
            return;
          }
      }
    };
    if (p->isLayoutRunning()) {
      auto connection = std::make_shared<QMetaObject::Connection>();
      *connection =
          QObject::connect(p, &GraphPanel::layoutFinished, &window, [&window, search, connection] {
            QObject::disconnect(*connection);
            search();
            window.setProperty("passlab_script_busy", false);
          });
    } else {
      search();
      window.setProperty("passlab_script_busy", false);
    }
  };
  QObject::connect(&window, &MainWindow::modelOpened, &window, [&window, runSteps, finish] {
    // After the first layout, so hits and changes can be shown.
    GraphPanel* p = window.graphTabs()->mainPanel();
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = QObject::connect(
        p, &GraphPanel::layoutFinished, &window, [&window, runSteps, finish, connection] {
          QObject::disconnect(*connection);
          if (runSteps.isEmpty()) {
            finish();
            return;
          }
          PipelineSession* s = window.pipeline();
          const bool all = runSteps == QLatin1String("all");
          auto left = std::make_shared<int>(all ? 1 : std::max(1, runSteps.toInt()));
          auto done = std::make_shared<QMetaObject::Connection>();
          *done = QObject::connect(s, &PipelineSession::runFinished, &window,
                                   [s, all, left, finish, done](const QString& message) {
                                     if (--*left > 0 && message.isEmpty() && s->step()) return;
                                     QObject::disconnect(*done);
                                     finish();
                                   });
          if (!(all ? s->runAll() : s->step())) {
            QObject::disconnect(*done);
            finish();
          }
        });
  });
  if (parser.isSet(screenshot)) screenshotWhenDrawn(&window, parser.value(screenshot));
  return app.exec();
}

}  // namespace passlab::ui
