// Core's messages in the user's language (ui/i18n/core_text.h): every catalog
// template has a Chinese translation; messages are matched to their template
// with the arguments (nested core messages too); every message that passes,
// the rewrite driver and the pass manager produce on the demo models and on
// synthetic near-miss graphs has a template; and with the Chinese translator
// installed the properties panel shows a near miss in Chinese with its
// numbers and names in place. (That core has no message the catalog lacks is
// the ctest ui_core_message_catalog: scripts/dev/gen_core_messages.py --check.)
#include <QRegularExpression>
#include <QTranslator>
#include <QtTest>

#include <set>

#include "core/analysis/shape_inference.h"
#include "core/io/text_format.h"
#include "core/passes/registry.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"
#include "core/pipeline/recipe.h"
#include "tests/ui/ui_test_support.h"
#include "ui/document/document.h"
#include "ui/document/graph_ref.h"
#include "ui/document/selection.h"
#include "ui/i18n/core_text.h"
#include "ui/mainwindow/language.h"
#include "ui/mainwindow/settings.h"
#include "ui/pipeline/pipeline_session.h"
#include "ui/properties/properties_panel.h"

using namespace passlab;
using namespace passlab::ui;

namespace {

// Near misses of the Conv/BatchNormalization fusions: bn_a's scale is a graph
// input (not constant), conv_b's output has two consumers.
const char* kNearMisses = R"(<ir_version: 8, opset_import: ["" : 17]>
near_misses (float[1,3,4,4] X, float[4] S) => (float[1,4,4,4] Y, float[1,4,4,4] Z, float[1,4,4,4] W)
<float[4,3,1,1] w = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2},
 float[4] b = {0.1, 0.2, 0.3, 0.4}, float[4] mean = {0, 0.1, 0.2, 0.3},
 float[4] var = {1, 1.5, 2, 2.5}, float[4] beta = {0.5, 0.4, 0.3, 0.2},
 float[4] gamma = {1, 2, 3, 4}>
{
  [conv_a] c1 = Conv(X, w, b)
  [bn_a] Y = BatchNormalization(c1, S, beta, mean, var)
  [conv_b] c2 = Conv(X, w, b)
  [bn_b] Z = BatchNormalization(c2, gamma, beta, mean, var)
  [relu_b] W = Relu(c2)
}
)";

// Assorted near misses of the substitutions, eliminations and hoists.
const char* kAssorted = R"(<ir_version: 8, opset_import: ["" : 17]>
assorted (float[2,3] A, float[3,2] B, float[2,3] C) => (float[2,3] D, float[2,2] M, float[2] R, float[3,2] T, float[2,3] P, float[2,3] Q, float[2,3] K)
<float[1] three = {3}, float[2] bias = {0.5, 0.25}, float[1] two = {2}, float[1] one = {1}>
{
  [div] D = Div(A, three)
  [mm] mm = MatMul(A, B)
  [add] M = Add(mm, mm)
  [reduce] R = ReduceMean <axes = [1], keepdims = 0> (A)
  [tr] t1 = Transpose <perm = [1, 0]> (A)
  [neg] T = Neg(t1)
  [pow] P = Pow(C, two)
  [clip] Q = Clip(C, one)
  [mul] k = Mul(C, two)
  [cast] K = Cast <to = 1> (k)
}
)";

std::unique_ptr<ir::Model> parse(const char* text) {
  auto m = io::parseModelText(text);
  if (!m) qFatal("%s", m.error().message().c_str());
  auto model = std::make_unique<ir::Model>(std::move(*m));
  analysis::inferShapes(*model);  // as a model opened in the workbench
  return model;
}

void collect(const pipeline::Step& s, std::set<std::string>& out) {
  for (const std::string* m : {&s.note, &s.error, &s.check.detail})
    if (!m->empty()) out.insert(*m);
  for (const auto& [node, reasons] : s.explain.all())
    for (const auto& [pattern, why] : *reasons) out.insert(why);
}

// Every user-visible message of running every pass on `model`: all of them
// in a row (with the numeric check), and each alone on the model as it is.
std::set<std::string> messagesOfRuns(const ir::Model& model, bool standardOnly) {
  std::set<std::string> out;
  pipeline::PipelineOptions po;
  po.standardOnly = standardOnly;
  po.keepSnapshots = false;
  po.stopOnCheckFailure = false;
  pipeline::ExecEvaluator evaluator;
  auto level = passes::passesForLevel("all");
  const std::vector<std::string> ids = level ? *level : std::vector<std::string>();
  {
    ir::Model work = model.clone();
    pipeline::PassManager pm(work, po);
    pm.setEvaluator(&evaluator);
    auto checker = pipeline::ExecOutputChecker::create(model, 1, {});
    if (checker) pm.setChecker(checker->get());
    for (const std::string& id : ids) {
      auto ran = pm.run({id, {}, {}});
      if (ran)
        collect(**ran, out);
      else
        out.insert(ran.error().message());
    }
  }
  for (const std::string& id : ids) {
    ir::Model work = model.clone();
    pipeline::PassManager pm(work, po);
    pm.setEvaluator(&evaluator);
    auto ran = pm.run({id, {}, {}});
    if (ran)
      collect(**ran, out);
    else
      out.insert(ran.error().message());
  }
  return out;
}

}  // namespace

class CoreMessagesTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    testing::isolateSettings();
    Settings::layoutHelper.set(QStringLiteral(PASSLAB_LAYOUT_HELPER_PATH));
    Language::apply(QStringLiteral("en"));
  }

  void everyTemplateIsTranslated() {
    QTranslator zh;
    QVERIFY(zh.load(QStringLiteral(":/i18n/passlab_zh_CN.qm")));
    QVERIFY(coreMessageTemplates().size() > 400);
    static const QRegularExpression placeholder(QStringLiteral("%\\d+"));
    QStringList missing;
    for (const char* t : coreMessageTemplates()) {
      const QString tr = zh.translate("core", t);
      if (tr.isEmpty()) {
        missing << QString::fromUtf8(t);
        continue;
      }
      QStringList a, b;
      for (auto it = placeholder.globalMatch(QString::fromUtf8(t)); it.hasNext();)
        a << it.next().captured(0);
      for (auto it = placeholder.globalMatch(tr); it.hasNext();) b << it.next().captured(0);
      a.sort();
      b.sort();
      if (a != b) missing << QString::fromUtf8(t) + QStringLiteral(" -> ") + tr;
    }
    QVERIFY2(missing.isEmpty(), qPrintable(missing.mid(0, 20).join(QLatin1Char('\n'))));
  }

  // The pass list's Kind column: every pass's kind ("redundant node: inverse
  // pairs") is a catalog entry of its own, translated in Chinese.
  void everyPassKindIsTranslated() {
    QTranslator zh;
    QVERIFY(zh.load(QStringLiteral(":/i18n/passlab_zh_CN.qm")));
    QStringList missing;
    for (const passes::Pass* p : passes::allPasses()) {
      const std::string& kind = p->info().kind;
      QVERIFY2(!kind.empty(), p->info().id.c_str());
      CoreMessageMatch m;
      if (!matchCoreMessage(QString::fromStdString(kind), &m) || kind != m.templ ||
          zh.translate("core", kind.c_str()).isEmpty())
        missing << QString::fromStdString(p->info().id + ": " + kind);
    }
    QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1Char('\n'))));
    Language::apply(QStringLiteral("zh_CN"));
    QCOMPARE(trCore(std::string("redundant node: meaningless at inference")),
             QStringLiteral("冗余节点：推理时无意义"));
    Language::apply(QStringLiteral("en"));
    QCOMPARE(trCore(std::string("redundant node: meaningless at inference")),
             QStringLiteral("redundant node: meaningless at inference"));
  }

  void messagesMatchTheirTemplate() {
    CoreMessageMatch m;
    QVERIFY(matchCoreMessage(QStringLiteral("'conv_out' has 2 consumers"), &m));
    QCOMPARE(QString::fromUtf8(m.templ), QStringLiteral("'%1' has %2 consumers"));
    QCOMPARE(m.args, (QStringList{QStringLiteral("conv_out"), QStringLiteral("2")}));
    QVERIFY(matchCoreMessage(QStringLiteral("BatchNormalization scale is not constant"), &m));
    QCOMPARE(QString::fromUtf8(m.templ), QStringLiteral("BatchNormalization %1 is not constant"));
    QCOMPARE(m.args, QStringList{QStringLiteral("scale")});
    // No placeholder: matched whole.
    QVERIFY(matchCoreMessage(QStringLiteral("the input is not produced by a Conv"), &m));
    QVERIFY(m.args.isEmpty());
    // The most specific template wins ("AveragePool output %1", not "%1 output %2").
    QVERIFY(matchCoreMessage(QStringLiteral("AveragePool output 'p' has 3 consumers"), &m));
    QCOMPARE(QString::fromUtf8(m.templ), QStringLiteral("AveragePool output %1"));
    QVERIFY(!matchCoreMessage(QStringLiteral("something core never says"), &m));
    // Untranslated (English): the message comes back as it was.
    for (const char* s : {"'conv_out' has 2 consumers", "AveragePool output 'p' has 3 consumers",
                          "something core never says"})
      QCOMPARE(trCore(std::string(s)), QString::fromUtf8(s));
  }

  void chineseSubstitutesArgumentsAndNestedMessages() {
    Language::apply(QStringLiteral("zh_CN"));
    QCOMPARE(trCore(std::string("'conv_out' has 2 consumers")),
             QStringLiteral("'conv_out' 有 2 个使用者"));
    QCOMPARE(trCore(std::string("BatchNormalization scale has 3 values for 8 channels")),
             QStringLiteral("BatchNormalization 的 scale 有 3 个值，而通道数为 8"));
    // A core message inside another one is translated too.
    QCOMPARE(trCore(std::string("AveragePool output 'p' has 3 consumers")),
             QStringLiteral("AveragePool 的输出 'p' 有 3 个使用者"));
    QCOMPARE(trCore(std::string("skipped: written for opsets 1-16, the model uses 17")),
             QStringLiteral("已跳过：它是为 opset 1-16 编写的，模型使用 17"));
    // An argument holding "%1" is not substituted again.
    QCOMPARE(trCore(std::string("'%1x' has 2 consumers")), QStringLiteral("'%1x' 有 2 个使用者"));
    Language::apply(QStringLiteral("en"));
  }

  // Every message a run produces has a template: demos and synthetic graphs,
  // every pass, with standard-only on (skip notes) and off (fused-op passes).
  void everyMessageOfARunHasATemplate() {
    std::vector<std::pair<QString, std::unique_ptr<ir::Model>>> models;
    for (const char* d : {"cnn_block", "conv_relu", "elementwise", "transformer_block"})
      models.emplace_back(QString::fromUtf8(d), testing::demo(QString::fromUtf8(d)));
    models.emplace_back(QStringLiteral("near_misses"), parse(kNearMisses));
    models.emplace_back(QStringLiteral("assorted"), parse(kAssorted));
    std::set<std::string> all;
    for (const auto& [name, model] : models) {
      QVERIFY2(model != nullptr, qPrintable(name));
      for (bool standardOnly : {true, false}) {
        auto got = messagesOfRuns(*model, standardOnly);
        all.insert(got.begin(), got.end());
      }
    }
    QVERIFY2(all.size() > 40, qPrintable(QString::number(all.size())));
    QStringList unmatched;
    for (const std::string& m : all)
      if (!matchCoreMessage(QString::fromStdString(m))) unmatched << QString::fromStdString(m);
    QVERIFY2(unmatched.isEmpty(), qPrintable(unmatched.join(QLatin1Char('\n'))));
    if (qEnvironmentVariableIsSet("PASSLAB_PRINT_CORE_MESSAGES"))
      for (const std::string& m : all) {
        Language::apply(QStringLiteral("zh_CN"));
        qInfo("%s\n    %s", m.c_str(), qPrintable(trCore(m)));
        Language::apply(QStringLiteral("en"));
      }
    // The examples the catalog exists for are among them.
    QVERIFY(all.count("Conv output 'c2' has 2 consumers"));
    QVERIFY(all.count("BatchNormalization scale is not constant"));
    QVERIFY(all.count("skipped: it emits non-standard ops, and standard ONNX only is on"));
  }

  // With the Chinese translator installed, the properties panel shows a near
  // miss in Chinese with the value name and count substituted.
  void propertiesPanelShowsNearMissesInChinese() {
    Document doc;
    doc.open(parse(kNearMisses), QString(), QStringLiteral("near_misses"));
    auto* session = new PipelineSession(&doc);
    pipeline::Recipe r;
    r.passes = {{"fuse_conv_batchnorm", {}, {}}};
    QVERIFY(session->loadRecipe(r).isOk());
    QVERIFY(session->runAll());
    session->waitForRun();
    QCOMPARE(session->steps().size(), size_t{1});
    ir::NodeId bnA = 0, bnB = 0;
    for (const auto& n : doc.model().graph().nodes()) {
      if (n->name() == "bn_a") bnA = n->id();
      if (n->name() == "bn_b") bnB = n->id();
    }
    QVERIFY(bnA && bnB);
    PropertiesPanel panel(&doc);
    Language::apply(QStringLiteral("zh_CN"));
    panel.setSelection(Selection::ofNode(GraphRef(), bnB));
    QString text = panel.matchFailureText();
    QVERIFY2(text.contains(QStringLiteral("Conv 的输出 'c2' 有 2 个使用者")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("consumers")), qPrintable(text));
    panel.setSelection(Selection::ofNode(GraphRef(), bnA));
    text = panel.matchFailureText();
    QVERIFY2(text.contains(QStringLiteral("BatchNormalization 的 scale 不是常量")),
             qPrintable(text));
    Language::apply(QStringLiteral("en"));
    panel.setSelection(Selection::ofNode(GraphRef(), bnB));
    text = panel.matchFailureText();
    QVERIFY2(text.contains(QStringLiteral("Conv output 'c2' has 2 consumers")), qPrintable(text));
  }
};

QTEST_MAIN(CoreMessagesTest)
#include "core_messages_test.moc"
