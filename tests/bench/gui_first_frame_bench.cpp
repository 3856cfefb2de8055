// GUI benchmark: time from opening a model file to the first drawn frame of
// its graph, and frame times while panning, for ort_gpt2_past.onnx (3,069
// nodes, from the corpus) and a synthetic 10,000-node transformer. Goals
// (issue 6): first frame under 2 s (grouping on), panning under 16 ms a frame.
//
// Runs on the offscreen platform unless QT_QPA_PLATFORM says otherwise; the
// figures are software rendering on this machine's CPU.
//   gui_first_frame_bench [--expand-all] [MODEL...]
#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QScrollBar>
#include <QSettings>
#include <QTemporaryDir>
#include <QtConcurrent/QtConcurrentRun>

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

#include "core/io/model_io.h"
#include "core/layout/layout_engine.h"
#include "ui/document/document.h"
#include "ui/document/model_files.h"
#include "ui/graphview/graph_items.h"
#include "ui/graphview/graph_panel.h"
#include "ui/graphview/graph_scene.h"
#include "ui/graphview/graph_view.h"
#include "ui/pipeline/diff_panel.h"
#include "ui/pipeline/pipeline_session.h"

using namespace passlab;
using namespace passlab::ui;

namespace {

// 200 pre-norm transformer layers of 50 nodes each, names scoped as PyTorch
// exports write them ("/model/layers.17/self_attn/q_proj/MatMul").
ir::Model syntheticTransformer(int layers, bool scoped) {
  ir::Model m;
  m.setOpsetVersion("", 17);
  m.producerName = "passlab-bench";
  ir::Graph& g = m.graph();
  const int64_t d = 64, seq = 16, heads = 4, ff = 128;
  auto f32 = [](std::vector<int64_t> dims) {
    return ir::Type::tensor(ir::DataType::kFloat, ir::Shape::fromValues(dims));
  };
  ir::Value* h = g.addInput("hidden", f32({1, seq, d}));
  ir::Value* eps = g.addInitializer("eps", ir::Tensor::scalarFloat(1e-5f));
  ir::Value* two = g.addInitializer("two", ir::Tensor::scalarFloat(2));
  ir::Value* half = g.addInitializer("half", ir::Tensor::scalarFloat(0.5f));
  ir::Value* one = g.addInitializer("one", ir::Tensor::scalarFloat(1));
  ir::Value* sqrt2 = g.addInitializer("sqrt2", ir::Tensor::scalarFloat(1.4142135f));
  ir::Value* scale = g.addInitializer("scale", ir::Tensor::scalarFloat(4));
  ir::Value* headsShape =
      g.addInitializer("heads_shape", ir::Tensor::fromInt64s({1, seq, heads, d / heads}));
  ir::Value* modelShape = g.addInitializer("model_shape", ir::Tensor::fromInt64s({1, seq, d}));
  int counter = 0;
  std::string scope;
  auto node = [&](const std::string& part, const std::string& op, std::vector<ir::Value*> in) {
    ir::Node* n = g.addNode(op, "", in, 1);
    std::string base = op + "_" + std::to_string(counter++);
    n->setName(scoped ? scope + part + "/" + base : base);
    return n->output(0);
  };
  auto weight = [&](const std::string& name, std::vector<int64_t> dims) {
    return g.addInitializer(name, ir::Tensor(ir::DataType::kFloat, std::move(dims)));
  };
  auto layerNorm = [&](const std::string& part, ir::Value* x, int l) {
    ir::Value* mean = node(part, "ReduceMean", {x});
    g.nodes().back()->setAttr(ir::Attribute::makeInts("axes", {-1}));
    ir::Value* c = node(part, "Sub", {x, mean});
    ir::Value* sq = node(part, "Pow", {c, two});
    ir::Value* var = node(part, "ReduceMean", {sq});
    g.nodes().back()->setAttr(ir::Attribute::makeInts("axes", {-1}));
    ir::Value* norm = node(part, "Div", {c, node(part, "Sqrt", {node(part, "Add", {var, eps})})});
    ir::Value* gamma = weight("layers." + std::to_string(l) + part + ".weight", {d});
    ir::Value* beta = weight("layers." + std::to_string(l) + part + ".bias", {d});
    return node(part, "Add", {node(part, "Mul", {norm, gamma}), beta});
  };
  for (int l = 0; l < layers; ++l) {
    scope = "/model/layers." + std::to_string(l);
    ir::Value* x = layerNorm("/input_layernorm", h, l);
    ir::Value* qkv[3];
    const char* names[3] = {"q_proj", "k_proj", "v_proj"};
    for (int i = 0; i < 3; ++i) {
      std::string part = std::string("/self_attn/") + names[i];
      std::string w = "layers." + std::to_string(l) + "." + names[i];
      ir::Value* lin = node(
          part, "Add",
          {node(part, "MatMul", {x, weight(w + ".weight", {d, d})}), weight(w + ".bias", {d})});
      qkv[i] = node(part, "Reshape", {lin, headsShape});
    }
    std::vector<int64_t> perm = {0, 2, 1, 3}, permK = {0, 2, 3, 1};
    ir::Value* q = node("/self_attn", "Transpose", {qkv[0]});
    g.nodes().back()->setAttr(ir::Attribute::makeInts("perm", perm));
    ir::Value* k = node("/self_attn", "Transpose", {qkv[1]});
    g.nodes().back()->setAttr(ir::Attribute::makeInts("perm", permK));
    ir::Value* v = node("/self_attn", "Transpose", {qkv[2]});
    g.nodes().back()->setAttr(ir::Attribute::makeInts("perm", perm));
    ir::Value* probs =
        node("/self_attn", "Softmax",
             {node("/self_attn", "Div", {node("/self_attn", "MatMul", {q, k}), scale})});
    g.nodes().back()->setAttr(ir::Attribute::makeInt("axis", -1));
    ir::Value* ctx = node("/self_attn", "Transpose", {node("/self_attn", "MatMul", {probs, v})});
    g.nodes().back()->setAttr(ir::Attribute::makeInts("perm", perm));
    ir::Value* merged = node("/self_attn", "Reshape", {ctx, modelShape});
    std::string wo = "layers." + std::to_string(l) + ".o_proj";
    ir::Value* attn =
        node("/self_attn/o_proj", "Add",
             {node("/self_attn/o_proj", "MatMul", {merged, weight(wo + ".weight", {d, d})}),
              weight(wo + ".bias", {d})});
    ir::Value* r1 = node("", "Add", {h, attn});
    ir::Value* y = layerNorm("/post_attention_layernorm", r1, l);
    std::string w1 = "layers." + std::to_string(l) + ".fc1",
                w2 = "layers." + std::to_string(l) + ".fc2";
    ir::Value* fc1 = node("/mlp/fc1", "Add",
                          {node("/mlp/fc1", "MatMul", {y, weight(w1 + ".weight", {d, ff})}),
                           weight(w1 + ".bias", {ff})});
    ir::Value* gelu = node(
        "/mlp/act", "Mul",
        {node("/mlp/act", "Mul",
              {fc1, node("/mlp/act", "Add",
                         {node("/mlp/act", "Erf", {node("/mlp/act", "Div", {fc1, sqrt2})}), one})}),
         half});
    ir::Value* fc2 = node("/mlp/fc2", "Add",
                          {node("/mlp/fc2", "MatMul", {gelu, weight(w2 + ".weight", {ff, d})}),
                           weight(w2 + ".bias", {d})});
    h = node("", "Identity", {node("", "Add", {r1, fc2})});
  }
  g.addOutput(h);
  return m;
}

struct Frames {
  double mean = 0, p95 = 0, max = 0;  // wall clock, ms
  double cpuMean = 0, cpuP95 = 0;     // CPU time of the UI thread, ms
};

double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

Frames summarize(std::vector<double> wall, std::vector<double> cpu) {
  auto p95 = [](std::vector<double>& v) {
    std::sort(v.begin(), v.end());
    return v[static_cast<size_t>(0.95 * static_cast<double>(v.size() - 1))];
  };
  Frames f;
  f.mean = std::accumulate(wall.begin(), wall.end(), 0.0) / static_cast<double>(wall.size());
  f.cpuMean = std::accumulate(cpu.begin(), cpu.end(), 0.0) / static_cast<double>(cpu.size());
  f.p95 = p95(wall);
  f.max = wall.back();
  f.cpuP95 = p95(cpu);
  return f;
}

// One frame of panning = scroll by a step, then let the view draw what the
// scroll exposed (as in the running application); with `fullRepaint` every
// pixel of the viewport is drawn again instead (the worst case).
Frames pan(GraphView* view, int frames, int stepPx, bool fullRepaint) {
  std::vector<double> wall, cpu;
  QScrollBar* hbar = view->horizontalScrollBar();
  QScrollBar* vbar = view->verticalScrollBar();
  int dx = stepPx, dy = stepPx / 2;
  QCoreApplication::processEvents();
  for (int i = 0; i < frames; ++i) {
    if (hbar->value() + dx > hbar->maximum() || hbar->value() + dx < hbar->minimum()) dx = -dx;
    if (vbar->value() + dy > vbar->maximum() || vbar->value() + dy < vbar->minimum()) dy = -dy;
    QElapsedTimer t;
    t.start();
    double c0 = threadCpuMs();
    hbar->setValue(hbar->value() + dx);
    vbar->setValue(vbar->value() + dy);
    if (fullRepaint)
      view->viewport()->repaint();  // synchronous: drawn when this returns
    else
      QCoreApplication::processEvents();  // the pending (partial) paint happens here
    cpu.push_back(threadCpuMs() - c0);
    wall.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
  }
  return summarize(std::move(wall), std::move(cpu));
}

bool waitLayout(GraphPanel* p, int ms = 600000) {
  QElapsedTimer t;
  t.start();
  while (p->isLayoutRunning() && t.elapsed() < ms)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  return !p->isLayoutRunning();
}

void run(const QString& path, bool expandAll) {
  std::printf("\n== %s\n", qPrintable(QFileInfo(path).fileName()));
  QElapsedTimer total;
  total.start();
  // Open as the window does: read + shape inference on a worker thread.
  QFutureWatcher<std::shared_ptr<LoadOutcome>> watcher;
  watcher.setFuture(
      QtConcurrent::run([path] { return std::make_shared<LoadOutcome>(loadModelFile(path)); }));
  while (!watcher.isFinished()) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  std::shared_ptr<LoadOutcome> out = watcher.result();
  if (!out->model) {
    std::printf("cannot open: %s\n", qPrintable(out->error));
    return;
  }
  const double loadMs = static_cast<double>(total.nsecsElapsed()) / 1e6;
  const size_t nodes = out->model->graph().nodeCount();
  Document doc;
  doc.open(std::move(out->model), path, {});
  QElapsedTimer stage;
  stage.start();
  GraphPanel panel(&doc, GraphRef(), ViewSettings());
  panel.resize(1600, 1000);
  panel.show();
  waitLayout(&panel);
  const double layoutMs = static_cast<double>(stage.nsecsElapsed()) / 1e6;
  stage.restart();
  panel.view()->viewport()->repaint();
  const double paintMs = static_cast<double>(stage.nsecsElapsed()) / 1e6;
  const double firstFrame = static_cast<double>(total.nsecsElapsed()) / 1e6;
  const auto* res = panel.scene()->result();
  std::printf("nodes %zu; drawn boxes %zu (grouping: %s, %zu groups)\n", nodes,
              panel.scene()->nodeItems().size(),
              panel.groups().mode() == layout::GroupingMode::kScope   ? "name scopes"
              : panel.groups().mode() == layout::GroupingMode::kBlock ? "repeated blocks"
                                                                      : "none",
              panel.groups().groups().size());
  std::printf(
      "first frame: %.0f ms  (open+infer %.0f, layout+scene %.0f [%s %.0f ms], paint %.1f)%s\n",
      firstFrame, loadMs, layoutMs, layout::engineName(res->engine), res->seconds * 1000, paintMs,
      firstFrame < 2000 ? "" : "  ABOVE the 2 s goal");
  if (!res->note.empty()) std::printf("layout note: %s\n", res->note.c_str());

  auto report = [&](const char* what) {
    QScrollBar* h = panel.view()->horizontalScrollBar();
    QScrollBar* v = panel.view()->verticalScrollBar();
    const bool canScroll = h->maximum() > h->minimum() || v->maximum() > v->minimum();
    for (bool full : {false, true}) {
      if (!full && !canScroll) {
        std::printf("pan %-30s scroll (the whole graph is in view: nothing to scroll)\n", what);
        continue;
      }
      Frames f = pan(panel.view(), 120, 24, full);
      std::printf(
          "pan %-30s %-6s wall mean %6.2f p95 %6.2f max %6.2f | UI-thread CPU mean %6.2f p95 %6.2f "
          "ms%s%s\n",
          what, full ? "full" : "scroll", f.mean, f.p95, f.max, f.cpuMean, f.cpuP95,
          panel.view()->showsOverview() ? " [overview picture]" : "",
          f.p95 < 16 ? "" : "  (wall p95 above 16 ms)");
    }
  };

  panel.view()->fitAll();
  report("(whole graph fitted)");
  panel.view()->setZoom(1.0);
  panel.view()->centerOn(panel.scene()->itemsBoundingRect().center());
  report("(1:1, text and labels drawn)");
  if (expandAll) {
    stage.restart();
    panel.expandAll();
    waitLayout(&panel);
    res = panel.scene()->result();
    std::printf("expand all: %zu boxes laid out in %.0f ms by %s%s%s\n",
                panel.scene()->nodeItems().size(), static_cast<double>(stage.nsecsElapsed()) / 1e6,
                layout::engineName(res->engine), res->note.empty() ? "" : " — ", res->note.c_str());
    panel.view()->fitAll();
    report("(all open, fitted)");
    panel.view()->setZoom(0.35);
    report("(all open, zoom 0.35)");
    panel.view()->setZoom(1.0);
    report("(all open, 1:1)");
  }
}

// The Step view: the default passes run on a worker thread (the window
// stays responsive), then the time from choosing the Step that changed the
// most to its diff drawn (ghosts built, laid out, changes opened), and panning there.
void stepView(const QString& path) {
  std::printf("\n== Step view: %s\n", qPrintable(QFileInfo(path).fileName()));
  LoadOutcome out = loadModelFile(path);
  if (!out.model) {
    std::printf("cannot open: %s\n", qPrintable(out.error));
    return;
  }
  Document doc;
  doc.open(std::move(out.model), path, {});
  auto* session = new PipelineSession(&doc);
  session->setCheckInputSets(1);
  QElapsedTimer t;
  t.start();
  session->runAll();
  // The UI thread's longest stall while the passes run.
  double worst = 0;
  QElapsedTimer tick;
  tick.start();
  while (session->isRunning()) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    worst = std::max(worst, static_cast<double>(tick.nsecsElapsed()) / 1e6);
    tick.restart();
  }
  const double runMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
  const auto& steps = session->steps();
  size_t best = 0, most = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    const auto& sum = steps[i]->step.summary;
    size_t n = sum.added.size() + sum.removed.size() + sum.rewired.size();
    if (n > most) {
      most = n;
      best = i;
    }
  }
  std::printf(
      "Run All: %zu steps, %zu -> %zu nodes in %.0f ms (numeric check on 1 input set); "
      "longest UI-thread stall while running %.1f ms (applying the steps included)\n",
      steps.size(), steps.empty() ? size_t{0} : steps.front()->step.before.nodes,
      steps.empty() ? size_t{0} : steps.back()->step.after.nodes, runMs, worst);
  if (steps.empty()) return;
  DiffPanel panel{ViewSettings()};
  panel.resize(1100, 800);
  panel.show();
  t.restart();
  panel.showStep(steps[best], static_cast<int>(best) + 1);
  const double buildMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
  QElapsedTimer wait;
  wait.start();
  while (panel.isLayoutRunning() && wait.elapsed() < 600000)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  panel.overlayPanel()->view()->viewport()->repaint();
  const double frameMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
  const auto& d = panel.diff();
  std::printf(
      "step %zu (%s: %zu removed, %zu added, %zu rewired): first frame %.0f ms "
      "(diff model %.0f ms, %zu boxes)\n",
      best + 1, steps[best]->step.passId.c_str(), d.removed, d.added, d.rewired, frameMs, buildMs,
      panel.overlayPanel()->scene()->nodeItems().size());
  Frames f = pan(panel.overlayPanel()->view(), 120, 24, false);
  std::printf(
      "pan (Step view, opened at the changes)  scroll wall mean %6.2f p95 %6.2f | UI-thread "
      "CPU mean %6.2f p95 %6.2f ms\n",
      f.mean, f.p95, f.cpuMean, f.cpuP95);
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QTemporaryDir settingsDir;
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
  bool expandAll = false;
  QStringList models;
  for (int i = 1; i < argc; ++i) {
    QString a = QString::fromLocal8Bit(argv[i]);
    if (a == QLatin1String("--expand-all"))
      expandAll = true;
    else
      models << a;
  }
  std::printf("layout helper: %s\n", layout::findLayoutHelper().c_str());
  if (models.isEmpty()) {
    QString corpus =
        qEnvironmentVariable("PASSLAB_CORPUS_DIR", QStringLiteral(PASSLAB_DEFAULT_CORPUS_DIR));
    QString gpt2 = corpus + QStringLiteral("/models/ort_gpt2_past.onnx");
    if (QFileInfo::exists(gpt2))
      models << gpt2;
    else
      std::printf("(ort_gpt2_past.onnx not found under %s: skipped)\n", qPrintable(corpus));
    for (bool scoped : {true, false}) {
      ir::Model m = syntheticTransformer(200, scoped);
      QString path = settingsDir.path() + (scoped ? QStringLiteral("/synthetic_10k_scoped.onnx")
                                                  : QStringLiteral("/synthetic_10k_unscoped.onnx"));
      Status s = io::saveModel(m, path.toStdString());
      if (!s) {
        std::printf("cannot write the synthetic model: %s\n", s.message().c_str());
        return 1;
      }
      models << path;
    }
    expandAll = true;
  }
  for (const QString& m : models) run(m, expandAll);
  for (const QString& m : models)
    if (QFileInfo(m).fileName() == QLatin1String("ort_gpt2_past.onnx") ||
        m.contains(QLatin1String("synthetic_10k_scoped")))
      stepView(m);
  return 0;
}
