// The document: opening demos and corpus models, edits as undo commands, one
// change signal, Save As (atomic, never silently over the opened file).
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QtTest>

#include "core/ir/graph_compare.h"
#include "core/ir/verifier.h"
#include "tests/ui/ui_test_support.h"
#include "ui/demos/demos.h"
#include "ui/document/commands.h"
#include "ui/document/document.h"
#include "ui/document/graph_ref.h"
#include "ui/document/model_files.h"

using namespace passlab;
using namespace passlab::ui;

namespace {

ir::Node* nodeNamed(ir::Model& m, const std::string& name) {
  for (const auto& n : m.graph().nodes())
    if (n->name() == name) return n.get();
  return nullptr;
}

void openDemo(Document& doc, const QString& name) {
  auto m = testing::demo(name);
  QVERIFY2(m != nullptr, qPrintable(name));
  doc.open(std::move(m), QString(), name);
}

}  // namespace

class DocumentTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { testing::isolateSettings(); }

  void everyDemoLoadsAndVerifies() {
    QCOMPARE(demoModels().size(), 4);
    for (const DemoModel& d : demoModels()) {
      LoadOutcome out = loadModelFile(d.resource);
      QVERIFY2(out.model != nullptr, qPrintable(d.resource + QStringLiteral(": ") + out.error));
      QVERIFY(out.model->graph().nodeCount() >= 2);
      for (const ir::VerifierProblem& p : ir::verifyModel(*out.model))
        QVERIFY2(p.severity != ir::VerifierProblem::Severity::kError,
                 qPrintable(d.resource + QStringLiteral(": ") + QString::fromStdString(p.message)));
    }
    // The CNN demo has what its description promises.
    auto cnn = testing::demo(QStringLiteral("cnn_block"));
    QStringList ops;
    for (const auto& n : cnn->graph().nodes()) ops << QString::fromStdString(n->opType());
    for (const char* op :
         {"BatchNormalization", "Identity", "Transpose", "Reshape", "Constant", "Conv"})
      QVERIFY2(ops.contains(QLatin1String(op)), op);
    auto tf = testing::demo(QStringLiteral("transformer_block"));
    ops.clear();
    for (const auto& n : tf->graph().nodes()) ops << QString::fromStdString(n->opType());
    for (const char* op : {"ReduceMean", "Pow", "Sqrt", "Erf", "Softmax", "MatMul"})
      QVERIFY2(ops.contains(QLatin1String(op)), op);
  }

  void openEmitsOneChange() {
    Document doc;
    QSignalSpy spy(&doc, &Document::changed);
    openDemo(doc, QStringLiteral("conv_relu"));
    QCOMPARE(spy.count(), 1);
    auto change = spy.at(0).at(0).value<DocumentChange>();
    QVERIFY(change.has(DocumentChange::kModel));
    QVERIFY(change.has(DocumentChange::kFile));
    QVERIFY(doc.hasModel());
    QVERIFY(!doc.isModified());
    QCOMPARE(doc.displayName(), QStringLiteral("conv_relu"));
  }

  void openCorpusModel() {
    auto path = testing::corpusModel(QStringLiteral("ort_gpt2_past.onnx"));
    if (!path) QSKIP("corpus not found (set PASSLAB_CORPUS_DIR)");
    LoadOutcome out = loadModelFile(*path);
    QVERIFY2(out.model, qPrintable(out.error));
    QCOMPARE(out.fileNodes, size_t{3069});  // MANIFEST.tsv
    const size_t loaded = out.model->graph().nodeCount();
    // The loader merges duplicate Constants and says so.
    QVERIFY(loaded <= out.fileNodes);
    if (loaded < out.fileNodes) QVERIFY(!out.notes.filter(QStringLiteral("Repaired")).isEmpty());
    Document doc;
    doc.open(std::move(out.model), *path, {}, out.notes);
    QCOMPARE(doc.model().graph().nodeCount(), loaded);
    QCOMPARE(doc.displayName(), QStringLiteral("ort_gpt2_past.onnx"));
    QCOMPARE(doc.filePath(), QFileInfo(*path).absoluteFilePath());
  }

  void badFilesGiveMessagesNamingThem() {
    QString path = testing::tempDir() + QStringLiteral("/garbage.onnx");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("this is not a model");
    f.close();
    LoadOutcome out = loadModelFile(path);
    QVERIFY(out.model == nullptr);
    QVERIFY2(out.error.contains(QStringLiteral("garbage.onnx")), qPrintable(out.error));
    LoadOutcome text =
        loadModelText("main (float[2] x) => (float[2] y) { y = Relu(x", "broken.txt");
    QVERIFY(text.model == nullptr);
    QVERIFY2(text.error.contains(QStringLiteral("broken.txt")), qPrintable(text.error));
  }

  void renameUndoRedo() {
    Document doc;
    openDemo(doc, QStringLiteral("cnn_block"));
    ir::Node* conv = nodeNamed(doc.model(), "conv");
    QVERIFY(conv);
    const ir::NodeId id = conv->id();
    QSignalSpy spy(&doc, &Document::changed);
    doc.undoStack()->push(new RenameNodeCommand(&doc, id, "stem_conv"));
    QCOMPARE(findNode(doc.model(), id)->name(), std::string("stem_conv"));
    QVERIFY(doc.isModified());
    // One kNodes change naming the node (plus the clean-state change).
    bool sawNode = false;
    for (const auto& args : spy) {
      auto c = args.at(0).value<DocumentChange>();
      if (c.has(DocumentChange::kNodes)) {
        sawNode = true;
        QCOMPARE(c.nodes, std::vector<ir::NodeId>{id});
        QVERIFY(!c.has(DocumentChange::kStructure));
      }
    }
    QVERIFY(sawNode);
    doc.undoStack()->undo();
    QCOMPARE(findNode(doc.model(), id)->name(), std::string("conv"));
    QVERIFY(!doc.isModified());
    doc.undoStack()->redo();
    QCOMPARE(findNode(doc.model(), id)->name(), std::string("stem_conv"));
  }

  void attributeUndoRedo() {
    Document doc;
    openDemo(doc, QStringLiteral("cnn_block"));
    const ir::NodeId id = nodeNamed(doc.model(), "bn")->id();
    auto eps = [&] { return findNode(doc.model(), id)->attrFloat("epsilon", -1); };
    QCOMPARE(eps(), 1e-5f);
    doc.undoStack()->push(
        new SetAttributeCommand(&doc, id, "epsilon", ir::Attribute::makeFloat("epsilon", 1e-3f)));
    QCOMPARE(eps(), 1e-3f);
    // A new attribute, then its removal, each undoable.
    doc.undoStack()->push(
        new SetAttributeCommand(&doc, id, "momentum", ir::Attribute::makeFloat("momentum", 0.9f)));
    QVERIFY(findNode(doc.model(), id)->hasAttr("momentum"));
    doc.undoStack()->push(new SetAttributeCommand(&doc, id, "epsilon", std::nullopt));
    QVERIFY(!findNode(doc.model(), id)->hasAttr("epsilon"));
    doc.undoStack()->undo();
    QCOMPARE(eps(), 1e-3f);
    doc.undoStack()->undo();
    QVERIFY(!findNode(doc.model(), id)->hasAttr("momentum"));
    doc.undoStack()->undo();
    QCOMPARE(eps(), 1e-5f);
    QCOMPARE(doc.undoStack()->count(), 3);
  }

  void bodiesAreNotEditedAsValues() {
    Document doc;
    auto parsed = loadModelText(R"(<ir_version: 8, opset_import: ["" : 17]>
      main (bool c, float[2] x) => (float[2] z) {
        z = If <then_branch = t () => (float[2] a) { a = Identity(x) },
                else_branch = e () => (float[2] b) { b = Neg(x) }> (c)
      })",
                                "if.txt");
    QVERIFY2(parsed.model, qPrintable(parsed.error));
    doc.open(std::move(parsed.model), QString(), QStringLiteral("if"));
    ir::Node* iff = doc.model().graph().nodes().front().get();
    doc.undoStack()->push(new SetAttributeCommand(&doc, iff->id(), "then_branch",
                                                  ir::Attribute::makeInt("then_branch", 1)));
    // The command is obsolete and dropped: the body is untouched.
    QCOMPARE(doc.undoStack()->count(), 0);
    QCOMPARE(iff->attr("then_branch")->type(), ir::AttrType::kGraph);
    // Bodies are addressed by owner id and attribute.
    auto bodies = subgraphsOf(*iff);
    QCOMPARE(bodies.size(), size_t{2});
    ir::Graph* then = bodies[0].resolve(doc.model());
    QVERIFY(then);
    QCOMPARE(then->nodes().front()->opType(), std::string("Identity"));
    QVERIFY(bodies[1].title(doc.model()).contains(QStringLiteral("else_branch")));
  }

  void replaceModelIsOneUndoStep() {
    Document doc;
    openDemo(doc, QStringLiteral("cnn_block"));
    const size_t before = doc.model().graph().nodeCount();
    // What a pass does: edit a copy, hand it over.
    auto after = std::make_unique<ir::Model>(doc.model().clone());
    ir::Graph& g = after->graph();
    ir::Node* id = nullptr;
    for (const auto& n : g.nodes())
      if (n->name() == "input_identity") id = n.get();
    QVERIFY(id);
    g.replaceAllUsesWith(id->output(0), id->input(0));
    g.removeNode(id);
    QSignalSpy spy(&doc, &Document::changed);
    doc.undoStack()->push(
        new ReplaceModelCommand(&doc, std::move(after), QStringLiteral("remove identity")));
    QCOMPARE(doc.model().graph().nodeCount(), before - 1);
    QVERIFY(spy.count() >= 1);
    QVERIFY(spy.at(0).at(0).value<DocumentChange>().has(DocumentChange::kStructure));
    // Node ids survive the copy, so commands on either version keep working.
    const ir::NodeId conv = nodeNamed(doc.model(), "conv")->id();
    doc.undoStack()->push(new RenameNodeCommand(&doc, conv, "c1"));
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QCOMPARE(doc.model().graph().nodeCount(), before);
    QCOMPARE(nodeNamed(doc.model(), "conv")->id(), conv);
    doc.undoStack()->redo();
    QCOMPARE(doc.model().graph().nodeCount(), before - 1);
  }

  void saveAsThenReload() {
    Document doc;
    openDemo(doc, QStringLiteral("transformer_block"));
    const ir::NodeId id = doc.model().graph().nodes().front()->id();
    doc.undoStack()->push(new RenameNodeCommand(&doc, id, "renamed_first"));
    QVERIFY(doc.isModified());
    for (const QString& name : {QStringLiteral("copy.onnx"), QStringLiteral("copy.txt")}) {
      QString path = testing::tempDir() + QLatin1Char('/') + name;
      Status s = doc.saveAs(path);
      QVERIFY2(s.isOk(), s.isOk() ? "" : s.message().c_str());
      QVERIFY(!doc.isModified());
      QCOMPARE(doc.filePath(), QFileInfo(path).absoluteFilePath());
      LoadOutcome back = loadModelFile(path);
      QVERIFY2(back.model, qPrintable(back.error));
      auto diff = ir::firstDifference(doc.model().graph(), back.model->graph());
      QVERIFY2(!diff, diff ? diff->c_str() : "");
      QCOMPARE(back.model->graph().nodes().front()->name(), std::string("renamed_first"));
    }
  }

  void saveNeverSilentlyOverwritesTheOpenedFile() {
    QString path = testing::tempDir() + QStringLiteral("/original.onnx");
    {
      Document doc;
      openDemo(doc, QStringLiteral("conv_relu"));
      QVERIFY(doc.saveAs(path).isOk());
    }
    QByteArray original;
    {
      QFile f(path);
      QVERIFY(f.open(QIODevice::ReadOnly));
      original = f.readAll();
    }
    LoadOutcome out = loadModelFile(path);
    Document doc;
    doc.open(std::move(out.model), path, {});
    doc.undoStack()->push(
        new RenameNodeCommand(&doc, doc.model().graph().nodes().front()->id(), "x"));
    QVERIFY(doc.isOpenedFile(path));
    QVERIFY(doc.isOpenedFile(QFileInfo(path).absolutePath() + QStringLiteral("/./original.onnx")));
    Status refused = doc.saveAs(path);
    QVERIFY(!refused.isOk());
    QVERIFY(QString::fromStdString(refused.message()).contains(QStringLiteral("opened from")));
    {
      QFile f(path);
      QVERIFY(f.open(QIODevice::ReadOnly));
      QCOMPARE(f.readAll(), original);
    }
    QVERIFY(doc.isModified());
    QVERIFY(doc.saveAs(path, /*overwriteOpened=*/true).isOk());
    QVERIFY(!doc.isModified());
    // Atomic: no temporary files left beside it.
    QDir dir(QFileInfo(path).absolutePath());
    for (const QString& entry : dir.entryList(QDir::Files))
      QVERIFY2(!entry.contains(QStringLiteral("tmp")), qPrintable(entry));
  }

  // saveAs verifies the whole model: errors it was opened with pass, new ones
  // are refused (nothing written) unless allowed.
  void saveAsRefusesNewVerifierErrors() {
    Document doc;
    openDemo(doc, QStringLiteral("conv_relu"));
    QVERIFY(doc.openedVerifierErrors().empty());
    ir::Node* conv = doc.model().graph().nodes().front().get();
    doc.undoStack()->push(new SetAttributeCommand(
        &doc, conv->id(), "kernel_shape", ir::Attribute::makeString("kernel_shape", "3x3")));
    const QString path = testing::tempDir() + QStringLiteral("/refused.onnx");
    QFile::remove(path);
    Status refused = doc.saveAs(path);
    QVERIFY(!refused.isOk());
    QVERIFY2(QString::fromStdString(refused.message()).contains(QStringLiteral("kernel_shape")),
             refused.message().c_str());
    QVERIFY(!QFileInfo::exists(path));
    QVERIFY(doc.isModified());
    QVERIFY(doc.saveAs(path, false, /*allowNewVerifierErrors=*/true).isOk());
    QVERIFY(QFileInfo::exists(path));

    LoadOutcome out = loadModelFile(path);
    QVERIFY(out.model);
    QCOMPARE(out.verifierErrors.size(), size_t{1});
    Document reopened;
    reopened.open(std::move(out.model), path, {}, {}, std::move(out.verifierErrors));
    const QString again = testing::tempDir() + QStringLiteral("/refused_again.onnx");
    QVERIFY(reopened.saveAs(again).isOk());
    // A different new error is refused again.
    reopened.undoStack()->push(
        new SetAttributeCommand(&reopened, reopened.model().graph().nodes().front()->id(),
                                "strides", ir::Attribute::makeFloats("strides", {1.0f, 1.0f})));
    Status second = reopened.saveAs(testing::tempDir() + QStringLiteral("/refused_third.onnx"));
    QVERIFY(!second.isOk());
    QVERIFY2(QString::fromStdString(second.message()).contains(QStringLiteral("strides")),
             second.message().c_str());
  }

  void insightsStore() {
    Document doc;
    openDemo(doc, QStringLiteral("conv_relu"));
    QVERIFY(doc.insights() == nullptr);
    auto store = std::make_shared<NodeInsightsStore>();
    store->setProvenance(7,
                         {"fuse_conv_relu", 1, {1, 2}, {"Conv 'conv' (#1)", "Relu 'relu' (#2)"}});
    store->recordMatchFailure(1, {"fold_bn", "conv+bn", "no BatchNormalization reads the Conv", 1});
    store->recordMatchFailure(1, {"fold_bn", "conv+bn", "replaced reason", 2});
    store->recordMatchFailure(1, {"fuse_gemm", "gemm+relu", "not a Gemm", 2});
    QSignalSpy spy(&doc, &Document::changed);
    doc.setInsights(store);
    QCOMPARE(spy.count(), 1);
    QVERIFY(spy.at(0).at(0).value<DocumentChange>().has(DocumentChange::kInsights));
    QCOMPARE(doc.insights()->provenance(7)->origins.size(), size_t{2});
    auto failures = doc.insights()->matchFailures(1);
    QCOMPARE(failures.size(), size_t{2});
    QCOMPARE(failures[0].reason.str(), std::string("replaced reason"));
    QVERIFY(!doc.insights()->provenance(1));
  }
};

QTEST_MAIN(DocumentTest)
#include "document_test.moc"
