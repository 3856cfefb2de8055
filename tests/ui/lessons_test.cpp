// The lessons (docs/lessons.md) end to end, offscreen: the format's errors name
// the file and the line; every bundled lesson opens, and a right and a wrong
// prediction are each judged against what its pass removed; progress is
// remembered; a user's lesson folder loads, and a malformed lesson file there
// is reported while the other lessons still load.
#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include <map>

#include "tests/ui/ui_test_support.h"
#include "ui/graphview/graph_panel.h"
#include "ui/graphview/graph_tabs.h"
#include "ui/lessons/lesson_format.h"
#include "ui/lessons/lesson_library.h"
#include "ui/lessons/lesson_panel.h"
#include "ui/lessons/lesson_session.h"
#include "ui/lessons/lesson_settings.h"
#include "ui/mainwindow/language.h"
#include "ui/mainwindow/main_window.h"
#include "ui/mainwindow/settings.h"
#include "ui/pipeline/pipeline_session.h"

using namespace passlab;
using namespace passlab::ui;

namespace {

using State = LessonSession::State;

// What each bundled lesson's pass does to its model: the nodes it removes (the
// right prediction) and the op types of the nodes it adds, which the lesson's
// answer describes. A lesson whose pass stops doing this fails here.
struct LessonOutcome {
  QStringList removed;
  QStringList added;  // op types, sorted
};
const std::map<QString, LessonOutcome>& expectedSteps() {
  static const std::map<QString, LessonOutcome> table{
      {QStringLiteral("01_computation_graph"), {{}, {}}},
      {QStringLiteral("02_constant_folding"), {{QStringLiteral("x_times_y")}, {}}},
      {QStringLiteral("03_meaningless_op"),
       {{QStringLiteral("copy_in"), QStringLiteral("copy_mid")}, {}}},
      {QStringLiteral("04_meaningless_parameters"),
       {{QStringLiteral("times_one"), QStringLiteral("same_order"), QStringLiteral("plus_zero")},
        {}}},
      {QStringLiteral("05_unused_results"),
       {{QStringLiteral("sin"), QStringLiteral("unused_cos"), QStringLiteral("unused_neg")}, {}}},
      {QStringLiteral("06_inverse_pairs"),
       {{QStringLiteral("to_nhwc"), QStringLiteral("to_nchw"), QStringLiteral("neg"),
         QStringLiteral("neg_again")},
        {}}},
      {QStringLiteral("07_common_subexpressions"),
       {{QStringLiteral("a_times_b_again"), QStringLiteral("exp_q")}, {}}},
      {QStringLiteral("08_fusion"),
       {{QStringLiteral("conv"), QStringLiteral("batchnorm")}, {QStringLiteral("Conv")}}},
      {QStringLiteral("09_substitution"),
       {{QStringLiteral("square"), QStringLiteral("negate")},
        {QStringLiteral("Mul"), QStringLiteral("Neg")}}},
      {QStringLiteral("10_hoisting"),
       {{QStringLiteral("exp"), QStringLiteral("first_columns")},
        {QStringLiteral("Exp"), QStringLiteral("Slice")}}},
      {QStringLiteral("11_precision"), {{}, {QStringLiteral("Cast"), QStringLiteral("Cast")}}},
      {QStringLiteral("12_algorithm"), {{QStringLiteral("blur")}, {QStringLiteral("Conv")}}},
      {QStringLiteral("13_read_write"),
       {{QStringLiteral("pad"), QStringLiteral("conv")}, {QStringLiteral("Conv")}}},
      {QStringLiteral("14_limits_of_templates"), {{}, {}}},
      {QStringLiteral("15_one_window"),
       {{QStringLiteral("small_blur"), QStringLiteral("large_blur"), QStringLiteral("difference")},
        {QStringLiteral("Conv")}}},
  };
  return table;
}

ir::NodeId nodeNamed(const Document* doc, const QString& name) {
  for (const auto& n : doc->model().graph().nodes())
    if (QString::fromStdString(n->name()) == name) return n->id();
  return 0;
}

bool openLessonAndWait(MainWindow& w, const QString& id) {
  QSignalSpy opened(&w, &MainWindow::modelOpened);
  if (!w.openLesson(id)) return false;
  if (!opened.wait(30000)) return false;
  GraphPanel* p = w.graphTabs()->mainPanel();
  QElapsedTimer t;
  t.start();
  while (p->isLayoutRunning() && t.elapsed() < 60000) QTest::qWait(10);
  return w.lessons()->state() == State::kPredicting;
}

// Picks the nodes as a student does: by clicking them in the main graph.
void pick(MainWindow& w, const QStringList& names) {
  GraphPanel* p = w.graphTabs()->mainPanel();
  for (const QString& name : names) {
    p->select(Selection::ofNode(GraphRef(), nodeNamed(w.document(), name)));
    p->select(Selection());
  }
}

bool checkAndWait(MainWindow& w) {
  if (!w.lessons()->check()) return false;
  QElapsedTimer t;
  t.start();
  while (w.lessons()->state() != State::kJudged && t.elapsed() < 60000) QTest::qWait(10);
  return w.lessons()->state() == State::kJudged;
}

// Facts the answers state beyond the nodes removed and added.
void checkAnswerFacts(const QString& id, const ir::Model& after) {
  auto find = [&](const char* op) -> const ir::Node* {
    for (const auto& n : after.graph().nodes())
      if (n->opType() == op) return n.get();
    return nullptr;
  };
  if (id == QLatin1String("12_algorithm")) {
    const ir::Node* conv = find("Conv");
    QVERIFY(conv != nullptr);
    QCOMPARE(conv->attrInt("group", 1), int64_t{2});
    const ir::Value* w = conv->input(1);
    QVERIFY(w != nullptr && w->type().shape() && w->type().shape()->toString() == "[2,1,3,3]");
    QVERIFY(find("BatchNormalization") != nullptr);
  } else if (id == QLatin1String("13_read_write")) {
    const ir::Node* conv = find("Conv");
    QVERIFY(conv != nullptr);
    QCOMPARE(conv->attrInts("pads"), (std::vector<int64_t>{1, 1, 1, 1}));
    QCOMPARE(conv->input(0)->name(), std::string("X"));
  } else if (id == QLatin1String("15_one_window")) {
    const ir::Node* conv = find("Conv");
    QVERIFY(conv != nullptr);
    const ir::Value* w = conv->input(1);
    QVERIFY(w != nullptr && w->type().shape() && w->type().shape()->toString() == "[1,1,5,5]");
    QCOMPARE(conv->attrInts("pads"), (std::vector<int64_t>{2, 2, 2, 2}));
    QCOMPARE(conv->input(0)->name(), std::string("image"));
  } else if (id == QLatin1String("11_precision")) {
    for (const auto& n : after.graph().nodes())
      if (n->opType() == "Cast") QVERIFY(n->input(0)->name() == "x" || n->output(0)->name() == "y");
  }
}

QString errorText(const std::vector<LessonError>& errors) {
  QStringList out;
  for (const LessonError& e : errors) out << e.toString();
  return out.join(QLatin1Char('\n'));
}

QStringList labels(const LessonSession* s, const std::vector<ir::NodeId>& nodes) {
  QStringList out;
  for (ir::NodeId n : nodes) out << s->nodeLabel(n);
  return out;
}

}  // namespace

class LessonsTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    testing::isolateSettings();
    Settings::layoutHelper.set(QStringLiteral(PASSLAB_LAYOUT_HELPER_PATH));
    Language::apply(QStringLiteral("en"));
  }

  // Errors name the file and the line; every problem of a file is reported.
  void formatErrorsNameFileAndLine() {
    const QString path = QStringLiteral("/nowhere/bad_lesson/lesson.txt");
    LessonParse p = parseLessonText(
        "order: 5\n"
        "pass: no_such_pass\n"
        "titel: Typo\n"
        "  continued\n"
        "title: A\n"
        "title: B\n"
        "not a key line\n"
        "option: nonsense\n",
        path);
    QVERIFY(!p.ok());
    QStringList all;
    for (const LessonError& e : p.errors) all << e.toString();
    const QString text = all.join(QLatin1Char('\n'));
    auto has = [&](const QString& s) { return text.contains(s); };
    QVERIFY2(has(path + QStringLiteral(":2: no pass is called \"no_such_pass\"")),
             qPrintable(text));
    QVERIFY2(has(path + QStringLiteral(":3: unknown key \"titel\"")), qPrintable(text));
    QVERIFY2(has(path + QStringLiteral(":6: \"title\" given twice (first on line 5)")),
             qPrintable(text));
    QVERIFY2(has(path + QStringLiteral(":7: expected \"key: value\"")), qPrintable(text));
    QVERIFY2(has(path + QStringLiteral(":8: an option is written name=value")), qPrintable(text));
    QVERIFY2(has(QStringLiteral("no \"model:\" line")), qPrintable(text));
    QVERIFY2(has(QStringLiteral("no \"question:\" line")), qPrintable(text));
    // An indented first line continues nothing.
    LessonParse q = parseLessonText("  stray\n", path);
    QVERIFY(!q.ok());
    QCOMPARE(q.errors.front().toString(),
             path + QStringLiteral(":1: an indented line continues no key"));
  }

  // A lesson's texts: continuation lines join; other languages fall back to English per field.
  void textsJoinAndFallBack() {
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("l1")));
    QFile model(dir.filePath(QStringLiteral("l1/m.txt")));
    QVERIFY(model.open(QIODevice::WriteOnly));
    model.close();
    LessonParse p = parseLessonText(
        "# comment\nmodel: m.txt\npass: fold_constants\noption: size_budget_bytes = 64\n"
        "title: One\n  two\ntitle.zh_CN: 一\ntext: t\ntask: k\nquestion: q\nanswer: a\n",
        dir.filePath(QStringLiteral("l1/lesson.txt")));
    QVERIFY2(p.ok(), qPrintable(errorText(p.errors)));
    QCOMPARE(p.lesson.id, QStringLiteral("l1"));
    QCOMPARE(p.lesson.text(QStringLiteral("en")).title, QStringLiteral("One two"));
    QCOMPARE(p.lesson.text(QStringLiteral("zh_CN")).title, QStringLiteral("一"));
    QCOMPARE(p.lesson.text(QStringLiteral("zh_CN")).answer, QStringLiteral("a"));
    QCOMPARE(p.lesson.options.size(), size_t{1});
    QCOMPARE(p.lesson.options.front().second, std::string("64"));
  }

  // Every bundled lesson, in order: a right prediction is judged right, a
  // wrong one names what was missed and what was wrong; the lesson is then done.
  void everyBundledLessonJudgesPredictions() {
    MainWindow w;
    w.show();
    QVERIFY(w.pipeline()->numericCheck());  // as a student has it: each Step checked
    const LessonLibrary& library = w.lessonLibrary();
    QVERIFY2(library.errors.empty(), qPrintable(errorText(library.errors)));
    QCOMPARE(library.lessons.size(), expectedSteps().size());
    for (const Lesson& l : library.lessons) {
      auto it = expectedSteps().find(l.id);
      QVERIFY2(it != expectedSteps().end(), qPrintable(l.id));
      const LessonOutcome& expected = it->second;
      QVERIFY2(!LessonSettings::isCompleted(l.id), qPrintable(l.id));
      QVERIFY2(openLessonAndWait(w, l.id), qPrintable(l.id));
      QVERIFY(w.lessonPanel()->onLessonPage());
      QCOMPARE(w.document()->displayName(), l.text(QStringLiteral("en")).title);

      // Right: exactly the nodes the pass removes.
      pick(w, expected.removed);
      QCOMPARE(w.lessons()->prediction().size(), static_cast<size_t>(expected.removed.size()));
      QVERIFY(w.lessonPanel()->checkButton()->isEnabled());
      QVERIFY2(checkAndWait(w), qPrintable(l.id));
      QVERIFY2(w.lessons()->checkError().isEmpty(), qPrintable(w.lessons()->checkError()));
      const PredictionVerdict& right = w.lessons()->verdict();
      QVERIFY2(right.correct(), qPrintable(l.id + QStringLiteral(": missed ") +
                                           labels(w.lessons(), right.missed).join(u',') +
                                           QStringLiteral("; wrong ") +
                                           labels(w.lessons(), right.wrong).join(u',')));
      QVERIFY2(w.lessonPanel()->verdictText().contains(QStringLiteral("Right!")),
               qPrintable(w.lessonPanel()->verdictText()));
      QStringList added;
      for (ir::NodeId n : w.pipeline()->steps().back()->step.summary.added)
        for (const auto& node : w.document()->model().graph().nodes())
          if (node->id() == n) added << QString::fromStdString(node->opType());
      added.sort();
      QCOMPARE(added, expected.added);
      checkAnswerFacts(l.id, w.document()->model());
      QVERIFY(LessonSettings::isCompleted(l.id));
      // The closing question, then its answer on request.
      QVERIFY(!w.lessonPanel()->answerShown());
      QTest::mouseClick(w.lessonPanel()->answerButton(), Qt::LeftButton);
      QVERIFY(w.lessonPanel()->answerShown());
      QCOMPARE(w.lessonPanel()->answerText(), l.text(QStringLiteral("en")).answer);

      // Wrong: one removed node left out (if any), one surviving node picked.
      QTest::mouseClick(w.lessonPanel()->retryButton(), Qt::LeftButton);
      QCOMPARE(w.lessons()->state(), State::kPredicting);
      QVERIFY(w.pipeline()->steps().empty());
      QStringList surviving;
      for (const auto& n : w.document()->model().graph().nodes())
        if (!expected.removed.contains(QString::fromStdString(n->name())))
          surviving << QString::fromStdString(n->name());
      QVERIFY2(!surviving.isEmpty(), qPrintable(l.id));
      w.lessons()->clearPrediction();
      QStringList wrongPick = expected.removed.mid(1);
      wrongPick << surviving.front();
      pick(w, wrongPick);
      QVERIFY(checkAndWait(w));
      const PredictionVerdict& wrong = w.lessons()->verdict();
      QVERIFY(!wrong.correct());
      QCOMPARE(labels(w.lessons(), wrong.wrong).size(), 1);
      QVERIFY(labels(w.lessons(), wrong.wrong).front().startsWith(surviving.front() + u' '));
      QCOMPARE(wrong.missed.size(), expected.removed.isEmpty() ? size_t{0} : size_t{1});
      QCOMPARE(static_cast<int>(wrong.right.size()), std::max(0, int(expected.removed.size()) - 1));
      const QString verdict = w.lessonPanel()->verdictText();
      QVERIFY2(verdict.contains(QStringLiteral("Not quite")) &&
                   verdict.contains(QStringLiteral("Wrong (predicted, still there): ") +
                                    surviving.front()),
               qPrintable(verdict));
      if (!expected.removed.isEmpty())
        QVERIFY2(verdict.contains(QStringLiteral("Missed (removed, not predicted): ") +
                                  expected.removed.front()),
                 qPrintable(verdict));
    }
    // Progress is remembered: a new window lists every lesson as done.
    MainWindow again;
    QListWidget* list = again.lessonPanel()->lessonList();
    QCOMPARE(list->count(), static_cast<int>(expectedSteps().size()));
    for (int i = 0; i < list->count(); ++i)
      QVERIFY2(list->item(i)->text().startsWith(QStringLiteral("✓")),
               qPrintable(list->item(i)->text()));
  }

  // A lesson from the user's folder loads beside the bundled ones and opens;
  // a malformed lesson file there is reported by file and line, and the
  // others still load.
  void userFolderLessonsAndErrors() {
    QTemporaryDir dir;
    QDir root(dir.path());
    QVERIFY(root.mkpath(QStringLiteral("my_lesson")) && root.mkpath(QStringLiteral("broken")));
    QVERIFY(QFile::copy(QStringLiteral(":/lessons/03_meaningless_op/model.txt"),
                        root.filePath(QStringLiteral("my_lesson/graph.txt"))));
    QVERIFY(QFile::copy(QStringLiteral(":/lessons/03_meaningless_op/model.txt"),
                        root.filePath(QStringLiteral("broken/model.txt"))));
    auto write = [&](const QString& name, const QByteArray& text) {
      QFile f(root.filePath(name));
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(text);
    };
    write(QStringLiteral("my_lesson/lesson.txt"),
          "order: 5\nmodel: graph.txt\npass: eliminate_identity_ops\ntitle: My lesson\n"
          "title.zh_CN: 我的课\ntext: Identity nodes.\ntask: Pick them.\n"
          "question: What is left?\nanswer: Exp and Log.\n");
    write(QStringLiteral("broken/lesson.txt"),
          "model: model.txt\npass: fold_constants\ntitle: Broken\nsummary: no such key\n");
    LessonSettings::userFolder.set(dir.path());
    MainWindow w;
    w.show();
    QVERIFY(w.pipeline()->numericCheck());  // as a student has it: each Step checked
    const LessonLibrary& library = w.lessonLibrary();
    QCOMPARE(library.lessons.size(), expectedSteps().size() + 1);
    QCOMPARE(library.lessons.front().id, QStringLiteral("my_lesson"));  // order 5: first
    QVERIFY(!library.lessons.front().bundled);
    const QString brokenFile = root.filePath(QStringLiteral("broken/lesson.txt"));
    QVERIFY(!library.errors.empty());
    QCOMPARE(library.errors.front().toString(),
             brokenFile + QStringLiteral(":4: unknown key \"summary\""));
    QVERIFY2(w.lessonPanel()->errorsText().contains(brokenFile + QStringLiteral(":4:")),
             qPrintable(w.lessonPanel()->errorsText()));
    QCOMPARE(w.lessonPanel()->lessonList()->count(), static_cast<int>(library.lessons.size()));

    QVERIFY(openLessonAndWait(w, QStringLiteral("my_lesson")));
    QCOMPARE(w.document()->displayName(), QStringLiteral("My lesson"));
    pick(w, {QStringLiteral("copy_in"), QStringLiteral("copy_mid")});
    QVERIFY(checkAndWait(w));
    QVERIFY(w.lessons()->verdict().correct());
    LessonSettings::userFolder.set(QString());
  }

  // Opening another model ends the lesson; the panel shows the list again.
  void openingAnotherModelEndsTheLesson() {
    MainWindow w;
    const std::vector<PlanEntry> plan = w.pipeline()->plan();
    QVERIFY(plan.size() > 1);
    QVERIFY(openLessonAndWait(w, QStringLiteral("02_constant_folding")));
    QCOMPARE(w.pipeline()->plan().size(), size_t{1});
    QCOMPARE(w.pipeline()->plan().front().id, std::string("fold_constants"));
    QSignalSpy opened(&w, &MainWindow::modelOpened);
    w.openFile(QStringLiteral(":/demos/conv_relu.txt"), QStringLiteral("conv"));
    QVERIFY(opened.wait(30000));
    QCOMPARE(w.lessons()->state(), State::kNone);
    QVERIFY(!w.lessonPanel()->onLessonPage());
    // The plan the pipeline had before the lesson is back.
    QCOMPARE(w.pipeline()->plan().size(), plan.size());
    for (size_t i = 0; i < plan.size(); ++i) QCOMPARE(w.pipeline()->plan()[i].id, plan[i].id);
  }

  // The Lessons menu lists every lesson; its entries open them, and Check My
  // Prediction is on only while predicting.
  void lessonsMenuOpensLessons() {
    MainWindow w;
    w.pipeline()->setNumericCheck(false);
    QMenu* menu = nullptr;
    for (QAction* a : w.menuBar()->actions())
      if (a->text() == QStringLiteral("&Lessons")) menu = a->menu();
    QVERIFY(menu != nullptr);
    QAction* check = nullptr;
    QAction* second = nullptr;
    const QString secondTitle = w.lessonLibrary().lessons[1].text(QStringLiteral("en")).title;
    for (QAction* a : menu->actions()) {
      if (a->text() == QStringLiteral("&Check My Prediction")) check = a;
      if (a->text().startsWith(secondTitle)) second = a;
    }
    QVERIFY(check != nullptr && second != nullptr);
    QVERIFY(!check->isEnabled());
    QSignalSpy opened(&w, &MainWindow::modelOpened);
    second->trigger();
    QVERIFY(opened.wait(30000));
    QCOMPARE(w.lessons()->lesson()->id, w.lessonLibrary().lessons[1].id);
    QCOMPARE(w.lessons()->state(), State::kPredicting);
    QVERIFY(check->isEnabled());
    check->trigger();
    QVERIFY(!check->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(w.lessons()->state(), State::kJudged, 30000);
  }

  // The answer of the lesson on the limits of templates: push_transposes
  // removes the pair eliminate_inverse_pairs leaves.
  void pushTransposesRemovesWhatTheTemplateMisses() {
    MainWindow w;
    w.pipeline()->setNumericCheck(false);
    QVERIFY(openLessonAndWait(w, QStringLiteral("14_limits_of_templates")));
    w.pipeline()->setPlan({PlanEntry{"push_transposes", true, {}}});
    QSignalSpy finished(w.pipeline(), &PipelineSession::runFinished);
    QVERIFY(w.pipeline()->step());
    QVERIFY(finished.wait(30000));
    QCOMPARE(w.pipeline()->steps().size(), size_t{1});
    QStringList removed;
    for (ir::NodeId n : nodesRemovedBy(*w.pipeline()->steps().front()))
      removed << w.lessons()->nodeLabel(n);
    QVERIFY2(removed.contains(QStringLiteral("to_nhwc (Transpose)")) &&
                 removed.contains(QStringLiteral("to_nchw (Transpose)")),
             qPrintable(removed.join(u',')));
    for (const auto& n : w.document()->model().graph().nodes()) QVERIFY(n->opType() != "Transpose");
  }

  // In Chinese, the list, the lesson's texts and the verdict are Chinese.
  void lessonsSpeakChinese() {
    Language::apply(QStringLiteral("zh_CN"));
    MainWindow w;
    w.pipeline()->setNumericCheck(false);
    const Lesson* l = w.lessonLibrary().find(QStringLiteral("03_meaningless_op"));
    QVERIFY(l != nullptr);
    const QString title = l->text(QStringLiteral("zh_CN")).title;
    QVERIFY(title != l->text(QStringLiteral("en")).title);
    bool listed = false;
    QListWidget* list = w.lessonPanel()->lessonList();
    for (int i = 0; i < list->count(); ++i)
      listed = listed || list->item(i)->text().endsWith(title);
    QVERIFY(listed);
    QVERIFY(openLessonAndWait(w, l->id));
    QCOMPARE(w.document()->displayName(), title);
    QCOMPARE(w.lessonPanel()->checkButton()->text(), QStringLiteral("检查我的预测"));
    pick(w, {QStringLiteral("copy_in"), QStringLiteral("copy_mid")});
    QVERIFY(checkAndWait(w));
    QVERIFY2(w.lessonPanel()->verdictText().contains(QStringLiteral("正确")),
             qPrintable(w.lessonPanel()->verdictText()));
    QCOMPARE(w.lessonPanel()->answerText(), l->text(QStringLiteral("zh_CN")).answer);
    Language::apply(QStringLiteral("en"));
  }
};

QTEST_MAIN(LessonsTest)
#include "lessons_test.moc"
