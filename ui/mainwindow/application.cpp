#include "ui/mainwindow/application.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QLineEdit>
#include <QTimer>

#include "ui/graphview/graph_panel.h"
#include "ui/graphview/graph_tabs.h"
#include "ui/graphview/search_bar.h"
#include "ui/mainwindow/language.h"
#include "ui/mainwindow/main_window.h"
#include "ui/mainwindow/settings.h"
#include "ui/mainwindow/task_progress.h"

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
    bool busy = w->isLoading() || !w->document()->hasModel() || p == nullptr ||
                p->isLayoutRunning() || w->tasks()->isBusy();
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
  parser.addOption(lang);
  parser.addOption(search);
  parser.addOption(screenshot);
  parser.process(app);

  MainWindow window;
  window.show();
  const QStringList args = parser.positionalArguments();
  if (!args.isEmpty())
    window.openFile(args.first());
  else
    window.openDemo(defaultDemo());
  if (parser.isSet(search)) {
    QString text = parser.value(search);
    QObject::connect(&window, &MainWindow::modelOpened, &window, [&window, text] {
      // After the first layout, so the hit can be shown.
      GraphPanel* p = window.graphTabs()->mainPanel();
      auto connection = std::make_shared<QMetaObject::Connection>();
      *connection =
          QObject::connect(p, &GraphPanel::layoutFinished, &window, [&window, p, text, connection] {
            QObject::disconnect(*connection);
            window.searchBar()->lineEdit()->setText(text);
            p->setSearch(text, SearchField::kAny);
          });
    });
  }
  if (parser.isSet(screenshot)) screenshotWhenDrawn(&window, parser.value(screenshot));
  return app.exec();
}

}  // namespace passlab::ui
