// The item models, checked by QAbstractItemModelTester through resets, and
// what they show: attributes (edits become undo commands), ports with
// parameter names and types, op counts and inputs/outputs of the summary.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

#include "core/analysis/model_summary.h"
#include "tests/ui/ui_test_support.h"
#include "ui/document/document.h"
#include "ui/document/graph_ref.h"
#include "ui/document/model_files.h"
#include "ui/properties/attribute_model.h"
#include "ui/properties/port_model.h"
#include "ui/summary/summary_models.h"

using namespace passlab;
using namespace passlab::ui;

namespace {

ir::NodeId nodeNamed(Document& doc, const std::string& name) {
  for (const auto& n : doc.model().graph().nodes())
    if (n->name() == name) return n->id();
  return 0;
}

QString cell(const QAbstractItemModel& m, int row, int col) {
  return m.data(m.index(row, col), Qt::DisplayRole).toString();
}

}  // namespace

class ModelsTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { testing::isolateSettings(); }

  void attributeModel() {
    Document doc;
    doc.open(testing::demo(QStringLiteral("cnn_block")), QString(), QStringLiteral("cnn"));
    AttributeModel model(&doc);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    const ir::NodeId conv = nodeNamed(doc, "conv");
    model.setNode(conv);
    QCOMPARE(model.rowCount(), 2);  // kernel_shape, pads
    QCOMPARE(cell(model, 0, AttributeModel::kName), QStringLiteral("kernel_shape"));
    QCOMPARE(cell(model, 0, AttributeModel::kType), QStringLiteral("INTS"));
    QCOMPARE(cell(model, 1, AttributeModel::kValue), QStringLiteral("[1, 1, 1, 1]"));
    QVERIFY(model.flags(model.index(1, AttributeModel::kValue)) & Qt::ItemIsEditable);
    QVERIFY(!(model.flags(model.index(1, AttributeModel::kName)) & Qt::ItemIsEditable));

    // An edit through the model is an undoable command.
    QVERIFY(model.setData(model.index(1, AttributeModel::kValue), QStringLiteral("[0, 0, 0, 0]"),
                          Qt::EditRole));
    QCOMPARE(findNode(doc.model(), conv)->attrInts("pads"), (std::vector<int64_t>{0, 0, 0, 0}));
    QCOMPARE(cell(model, 1, AttributeModel::kValue), QStringLiteral("[0, 0, 0, 0]"));
    QCOMPARE(doc.undoStack()->count(), 1);
    QVERIFY(!model.setData(model.index(1, AttributeModel::kValue), QStringLiteral("[a, b]"),
                           Qt::EditRole));
    QCOMPARE(doc.undoStack()->count(), 1);
    doc.undoStack()->undo();
    QCOMPARE(cell(model, 1, AttributeModel::kValue), QStringLiteral("[1, 1, 1, 1]"));

    // Another model resets the view; a node that no longer exists shows nothing.
    doc.open(testing::demo(QStringLiteral("elementwise")), QString(), QStringLiteral("f"));
    QCOMPARE(model.rowCount(), 0);
  }

  void parsesTypedAttributeText() {
    QCOMPARE(parseAttributeValue(ir::AttrType::kInt, QStringLiteral(" 42 "))->i, 42);
    QVERIFY(!parseAttributeValue(ir::AttrType::kInt, QStringLiteral("4.2")));
    QCOMPARE(parseAttributeValue(ir::AttrType::kFloat, QStringLiteral("1e-3"))->f, 1e-3f);
    QCOMPARE(parseAttributeValue(ir::AttrType::kString, QStringLiteral("\"same\""))->s,
             std::string("same"));
    QCOMPARE(parseAttributeValue(ir::AttrType::kInts, QStringLiteral("[1, -2 3]"))->ints,
             (std::vector<int64_t>{1, -2, 3}));
    QCOMPARE(parseAttributeValue(ir::AttrType::kInts, QStringLiteral("[]"))->ints.size(),
             size_t{0});
    QCOMPARE(parseAttributeValue(ir::AttrType::kFloats, QStringLiteral("0.5, 2"))->floats,
             (std::vector<float>{0.5f, 2.0f}));
    QCOMPARE(
        parseAttributeValue(ir::AttrType::kStrings, QStringLiteral("[\"a\", \"b c\"]"))->strings,
        (std::vector<std::string>{"a", "b c"}));
    QVERIFY(!parseAttributeValue(ir::AttrType::kTensor, QStringLiteral("1")));
  }

  void portModels() {
    Document doc;
    doc.open(testing::demo(QStringLiteral("cnn_block")), QString(), QStringLiteral("cnn"));
    PortModel in(&doc, PortModel::Side::kInputs);
    PortModel out(&doc, PortModel::Side::kOutputs);
    QAbstractItemModelTester t1(&in, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(&out, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const ir::NodeId bn = nodeNamed(doc, "bn");
    in.setNode(bn);
    out.setNode(bn);
    QCOMPARE(in.rowCount(), 5);
    // Parameter names come from the operator schema.
    QCOMPARE(cell(in, 0, PortModel::kParameter), QStringLiteral("X"));
    QCOMPARE(cell(in, 1, PortModel::kParameter), QStringLiteral("scale"));
    QCOMPARE(cell(in, 3, PortModel::kParameter), QStringLiteral("input_mean"));
    QCOMPARE(cell(in, 1, PortModel::kValue), QStringLiteral("bn_scale"));
    QCOMPARE(cell(in, 1, PortModel::kType), QStringLiteral("float[8]"));
    QVERIFY(cell(in, 1, PortModel::kLink).contains(QStringLiteral("initializer")));
    QVERIFY(cell(in, 0, PortModel::kLink).contains(QStringLiteral("Conv")));
    // Shape inference ran when the demo was loaded: intermediate values have shapes.
    QCOMPARE(cell(in, 0, PortModel::kType), QStringLiteral("float[1,8,16,16]"));
    QCOMPARE(out.rowCount(), 1);
    QCOMPARE(cell(out, 0, PortModel::kType), QStringLiteral("float[1,8,16,16]"));
    QCOMPARE(in.valueAt(1), QStringLiteral("bn_scale"));
    QCOMPARE(in.valueAt(99), QString());
    // Changes to the document reset the models (checked by the testers).
    doc.undoStack()->push(new QUndoCommand());  // unrelated: nothing breaks
    doc.open(testing::demo(QStringLiteral("conv_relu")), QString(), QStringLiteral("cr"));
    QCOMPARE(in.rowCount(), 0);
    in.setNode(doc.model().graph().nodes().front()->id());
    QCOMPARE(in.rowCount(), 3);
    QCOMPARE(cell(in, 2, PortModel::kParameter), QStringLiteral("B"));
  }

  void omittedOptionalInputs() {
    Document doc;
    auto parsed = loadModelText(R"(<ir_version: 8, opset_import: ["" : 17]>
      main (float[4] x, float[4] hi) => (float[4] y) { y = Clip(x, , hi) })",
                                "clip.txt");
    QVERIFY2(parsed.model, qPrintable(parsed.error));
    doc.open(std::move(parsed.model), QString(), QStringLiteral("clip"));
    PortModel in(&doc, PortModel::Side::kInputs);
    QAbstractItemModelTester t(&in, QAbstractItemModelTester::FailureReportingMode::QtTest);
    in.setNode(doc.model().graph().nodes().front()->id());
    QCOMPARE(in.rowCount(), 3);
    QCOMPARE(cell(in, 1, PortModel::kValue), PortModel::tr("(omitted)"));
    QCOMPARE(cell(in, 1, PortModel::kParameter), QStringLiteral("min"));
  }

  void summaryModels() {
    auto m = testing::demo(QStringLiteral("transformer_block"));
    analysis::ModelSummary s = analysis::summarize(*m);
    OpCountModel ops;
    IoModel io;
    QAbstractItemModelTester t1(&ops, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(&io, QAbstractItemModelTester::FailureReportingMode::QtTest);
    ops.setOps(s.ops);
    io.setRows(s.inputs, s.outputs);
    QCOMPARE(ops.rowCount(), static_cast<int>(s.ops.size()));
    int total = 0;
    for (int r = 0; r < ops.rowCount(); ++r)
      total += ops.data(ops.index(r, OpCountModel::kCount)).toInt();
    QCOMPARE(static_cast<size_t>(total), m->graph().nodeCount());
    QCOMPARE(io.rowCount(), 2);
    QCOMPARE(cell(io, 0, IoModel::kName), QStringLiteral("X"));
    QCOMPARE(cell(io, 1, IoModel::kType), QStringLiteral("float[1,8,16]"));
    // Unknown ops are marked.
    ops.setOps({{"com.example", "Mystery", 2, 0}}, {{"com.example", "Mystery"}});
    QVERIFY(ops.data(ops.index(0, 0), Qt::ForegroundRole).isValid());
    QCOMPARE(cell(ops, 0, OpCountModel::kDomain), QStringLiteral("com.example"));
    ops.setOps({});
    io.setRows({}, {});
    QCOMPARE(ops.rowCount(), 0);
  }
};

QTEST_MAIN(ModelsTest)
#include "models_test.moc"
