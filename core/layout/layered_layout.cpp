#include "core/layout/layered_layout.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <numeric>
#include <vector>

namespace passlab::layout {

namespace {

constexpr double kArrow = 7.0;
constexpr double kDummyWidth = 6.0;
constexpr double kMargin = 10;

struct Vertex {
  int layer = 0;
  double width = kDummyWidth, height = 0;
  double x = 0;  // centre
  double order = 0;
  std::vector<int> preds, succs;  // unit-span edges of the layered graph
};

// The layout's working state; each phase of layeredLayout is one member.
class Layering {
 public:
  Layering(const LayoutRequest& request, const LayeredOptions& options)
      : request_(request), options_(options), n_(request.nodes.size()) {
    result.engine = Engine::kLayered;
    result.nodes.resize(n_);
    result.edges.resize(request.edges.size());
    result.clusters.resize(request.clusters.size());
  }

  LayoutResult result;

  bool empty() const { return n_ == 0; }
  LayoutResult cancelled() {
    result.cancelled = true;
    return std::move(result);
  }

  void breakCycles();
  void assignLayers();
  void insertDummies();
  bool orderLayers(const std::stop_token& stop);
  void placeVertices();
  void routeEdges();
  void frameClusters();
  void moveIntoPositiveSpace();

 private:
  std::vector<std::vector<std::pair<int, int>>> outEdges() const;
  void longestPathLayers(const std::vector<std::vector<int>>& dagOut,
                         const std::vector<int>& indegree, std::vector<int>& topo);
  void renumber(std::vector<int>& layer);
  void sweep(bool down);
  void stackLayers();
  void place(std::vector<int>& layer, bool down);
  double centreY(int v) const;
  EdgeRoute routeThrough(std::vector<Point> through) const;
  int tailOf(size_t e) const {
    return reversed_[e] ? request_.edges[e].to : request_.edges[e].from;
  }
  int headOf(size_t e) const {
    return reversed_[e] ? request_.edges[e].from : request_.edges[e].to;
  }
  Vertex& at(int v) { return vx_[static_cast<size_t>(v)]; }
  const Vertex& at(int v) const { return vx_[static_cast<size_t>(v)]; }

  const LayoutRequest& request_;
  const LayeredOptions& options_;
  const size_t n_;
  std::vector<bool> reversed_, valid_;
  std::vector<Vertex> vx_;
  std::vector<std::vector<int>> chain_;  // per edge: vertices tail..head
  int layerCount_ = 0;
  std::vector<std::vector<int>> layers_;
  std::vector<double> layerTop_, layerHeight_;
};

// Valid edges (no self loops, endpoints in range) as (target, edge index) per source.
std::vector<std::vector<std::pair<int, int>>> Layering::outEdges() const {
  std::vector<std::vector<std::pair<int, int>>> out(n_);
  for (size_t e = 0; e < request_.edges.size(); ++e) {
    const LayoutEdge& edge = request_.edges[e];
    if (edge.from < 0 || edge.to < 0 || static_cast<size_t>(edge.from) >= n_ ||
        static_cast<size_t>(edge.to) >= n_ || edge.from == edge.to)
      continue;
    out[static_cast<size_t>(edge.from)].emplace_back(edge.to, static_cast<int>(e));
  }
  return out;
}

// 1. Break cycles: edges closing a DFS cycle are laid out reversed.
void Layering::breakCycles() {
  std::vector<std::vector<std::pair<int, int>>> out = outEdges();
  reversed_.assign(request_.edges.size(), false);
  valid_.assign(request_.edges.size(), false);
  std::vector<uint8_t> colour(n_, 0);  // 0 new, 1 on stack, 2 done
  std::vector<std::pair<int, size_t>> stack;
  for (size_t root = 0; root < n_; ++root) {
    if (colour[root]) continue;
    stack.emplace_back(static_cast<int>(root), 0);
    colour[root] = 1;
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      if (next < out[static_cast<size_t>(v)].size()) {
        auto [w, e] = out[static_cast<size_t>(v)][next++];
        valid_[static_cast<size_t>(e)] = true;
        if (colour[static_cast<size_t>(w)] == 1) {
          reversed_[static_cast<size_t>(e)] = true;
        } else if (colour[static_cast<size_t>(w)] == 0) {
          colour[static_cast<size_t>(w)] = 1;
          stack.emplace_back(w, 0);
        }
      } else {
        colour[static_cast<size_t>(v)] = 2;
        stack.pop_back();
      }
    }
  }
}

// Each vertex one layer below its lowest predecessor, in topological order.
void Layering::longestPathLayers(const std::vector<std::vector<int>>& dagOut,
                                 const std::vector<int>& indegree, std::vector<int>& topo) {
  std::vector<int> deg = indegree;
  std::deque<int> ready;
  for (size_t i = 0; i < n_; ++i)
    if (deg[i] == 0) ready.push_back(static_cast<int>(i));
  while (!ready.empty()) {
    int v = ready.front();
    ready.pop_front();
    topo.push_back(v);
    for (int w : dagOut[static_cast<size_t>(v)]) {
      auto& layer = at(w).layer;
      layer = std::max(layer, at(v).layer + 1);
      if (--deg[static_cast<size_t>(w)] == 0) ready.push_back(w);
    }
  }
}

// 2. Longest-path layering, then sources pulled down next to their readers.
void Layering::assignLayers() {
  vx_.assign(n_, Vertex{});
  for (size_t i = 0; i < n_; ++i) {
    vx_[i].width = request_.nodes[i].width;
    vx_[i].height = request_.nodes[i].height;
  }
  std::vector<std::vector<int>> dagOut(n_);
  std::vector<int> indegree(n_, 0);
  for (size_t e = 0; e < request_.edges.size(); ++e) {
    if (!valid_[e]) continue;
    dagOut[static_cast<size_t>(tailOf(e))].push_back(headOf(e));
    ++indegree[static_cast<size_t>(headOf(e))];
  }
  std::vector<int> topo;
  topo.reserve(n_);
  longestPathLayers(dagOut, indegree, topo);
  for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
    size_t v = static_cast<size_t>(*it);
    if (indegree[v] != 0 || dagOut[v].empty()) continue;
    int lowest = std::numeric_limits<int>::max();
    for (int w : dagOut[v]) lowest = std::min(lowest, at(w).layer);
    vx_[v].layer = std::max(vx_[v].layer, lowest - 1);
  }
}

// 3. Dummy vertices on long edges, within a budget.
void Layering::insertDummies() {
  size_t budget = options_.maxDummiesPerNode * n_ + 1000;
  chain_.assign(request_.edges.size(), {});
  for (size_t e = 0; e < request_.edges.size(); ++e) {
    if (!valid_[e]) continue;
    int a = tailOf(e), b = headOf(e);
    int span = at(b).layer - at(a).layer;
    std::vector<int>& c = chain_[e];
    c.push_back(a);
    if (span > 1 && static_cast<size_t>(span - 1) <= budget) {
      budget -= static_cast<size_t>(span - 1);
      for (int l = at(a).layer + 1; l < at(b).layer; ++l) {
        Vertex d;
        d.layer = l;
        vx_.push_back(d);
        c.push_back(static_cast<int>(vx_.size() - 1));
      }
    }
    c.push_back(b);
    if (span >= 1 && (span == 1 || c.size() > 2))
      for (size_t k = 0; k + 1 < c.size(); ++k) {
        at(c[k]).succs.push_back(c[k + 1]);
        at(c[k + 1]).preds.push_back(c[k]);
      }
  }
}

void Layering::renumber(std::vector<int>& layer) {
  for (size_t k = 0; k < layer.size(); ++k) at(layer[k]).order = static_cast<double>(k);
}

// One barycenter sweep over the layers, downwards (by predecessors) or upwards.
void Layering::sweep(bool down) {
  std::vector<std::pair<double, int>> keyed;
  auto visit = [&](std::vector<int>& layer) {
    keyed.clear();
    for (int v : layer) {
      const auto& nb = down ? at(v).preds : at(v).succs;
      double key = at(v).order;
      if (!nb.empty()) {
        double sum = 0;
        for (int u : nb) sum += at(u).order;
        key = sum / static_cast<double>(nb.size());
      }
      keyed.emplace_back(key, v);
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t k = 0; k < layer.size(); ++k) layer[k] = keyed[k].second;
    renumber(layer);
  };
  if (down)
    for (auto& layer : layers_) visit(layer);
  else
    for (auto it = layers_.rbegin(); it != layers_.rend(); ++it) visit(*it);
}

// 4. Layers, ordered by barycenter sweeps. False when cancelled.
bool Layering::orderLayers(const std::stop_token& stop) {
  for (const Vertex& v : vx_) layerCount_ = std::max(layerCount_, v.layer + 1);
  layers_.assign(static_cast<size_t>(layerCount_), {});
  for (size_t i = 0; i < vx_.size(); ++i)
    layers_[static_cast<size_t>(vx_[i].layer)].push_back(static_cast<int>(i));
  for (auto& layer : layers_) renumber(layer);
  for (int s = 0; s < options_.sweeps; ++s) {
    sweep(s % 2 == 0);
    if (stop.stop_requested()) return false;
  }
  sweep(true);
  return true;
}

// Rows by layer, each as tall as its tallest vertex; the height of the drawing follows.
void Layering::stackLayers() {
  layerTop_.assign(static_cast<size_t>(layerCount_), 0);
  layerHeight_.assign(static_cast<size_t>(layerCount_), 0);
  for (const Vertex& v : vx_) {
    auto& h = layerHeight_[static_cast<size_t>(v.layer)];
    h = std::max(h, v.height);
  }
  double y = 10;
  for (int l = 0; l < layerCount_; ++l) {
    layerTop_[static_cast<size_t>(l)] = y;
    y += layerHeight_[static_cast<size_t>(l)] + options_.rankSep;
  }
  result.height = y - options_.rankSep + kMargin;
}

// Each vertex of a layer towards the median x of its neighbours above (down) or below.
void Layering::place(std::vector<int>& layer, bool down) {
  if (layer.empty()) return;
  std::vector<double> want(layer.size());
  for (size_t k = 0; k < layer.size(); ++k) {
    const Vertex& v = at(layer[k]);
    const auto& nb = down ? v.preds : v.succs;
    if (nb.empty()) {
      want[k] = v.x;
      continue;
    }
    std::vector<double> xs;
    xs.reserve(nb.size());
    for (int u : nb) xs.push_back(at(u).x);
    // The median; for an even count the mean of the middle two (taking
    // the upper one would drift every merge to the right).
    std::sort(xs.begin(), xs.end());
    size_t mid = xs.size() / 2;
    want[k] = xs.size() % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
  }
  // Left to right at the wished place or just right of the left neighbour,
  // then the whole row shifted back by its average excess.
  double excess = 0;
  double right = -std::numeric_limits<double>::infinity();
  for (size_t k = 0; k < layer.size(); ++k) {
    Vertex& v = at(layer[k]);
    double x = std::max(want[k], right + v.width / 2);
    v.x = x;
    right = x + v.width / 2 + options_.nodeSep;
    excess += x - want[k];
  }
  double shift = excess / static_cast<double>(layer.size());
  for (int v : layer) at(v).x -= shift;
}

double Layering::centreY(int v) const {
  const Vertex& vv = at(v);
  return layerTop_[static_cast<size_t>(vv.layer)] + layerHeight_[static_cast<size_t>(vv.layer)] / 2;
}

// 5. Coordinates: rows by layer; x pulled towards neighbours, overlaps pushed apart.
void Layering::placeVertices() {
  stackLayers();
  for (auto& layer : layers_) {
    double x = 0;
    for (int v : layer) {
      Vertex& vv = at(v);
      vv.x = x + vv.width / 2;
      x += vv.width + options_.nodeSep;
    }
  }
  for (int it = 0; it < 4; ++it) {
    for (auto& layer : layers_) place(layer, true);
    for (auto li = layers_.rbegin(); li != layers_.rend(); ++li) place(*li, false);
  }
  for (auto& layer : layers_) place(layer, true);
  double minX = std::numeric_limits<double>::infinity(), maxX = -minX;
  for (const Vertex& v : vx_) {
    minX = std::min(minX, v.x - v.width / 2);
    maxX = std::max(maxX, v.x + v.width / 2);
  }
  for (Vertex& v : vx_) v.x += kMargin - minX;
  result.width = maxX - minX + 2 * kMargin;
  for (size_t i = 0; i < n_; ++i) {
    const Vertex& v = vx_[i];
    result.nodes[i] =
        Rect{v.x - v.width / 2, centreY(static_cast<int>(i)) - v.height / 2, v.width, v.height};
  }
}

// Cubic segments with vertical tangents through the points, the last one shortened for the arrow.
EdgeRoute Layering::routeThrough(std::vector<Point> through) const {
  EdgeRoute route;
  Point tip = through.back();
  Point& last = through.back();
  const Point& before = through[through.size() - 2];
  double dy = tip.y >= before.y ? -kArrow : kArrow;
  last.y += dy;
  route.hasArrow = true;
  route.arrowTip = tip;
  route.points.push_back(through.front());
  for (size_t k = 0; k + 1 < through.size(); ++k) {
    const Point& p = through[k];
    const Point& q = through[k + 1];
    double half = (q.y - p.y) / 2;
    route.points.push_back({p.x, p.y + half});
    route.points.push_back({q.x, q.y - half});
    route.points.push_back(q);
  }
  route.labelPos = through[through.size() / 2];
  if (through.size() == 2)
    route.labelPos = {(through[0].x + through[1].x) / 2, (through[0].y + through[1].y) / 2};
  return route;
}

// 6. Routes through the dummies, as vertical-tangent cubic segments.
void Layering::routeEdges() {
  for (size_t e = 0; e < request_.edges.size(); ++e) {
    if (!valid_[e]) continue;
    std::vector<Point> through;
    const auto& c = chain_[e];
    for (size_t k = 0; k < c.size(); ++k) {
      int v = c[k];
      double cy = centreY(v);
      if (static_cast<size_t>(v) < n_) {
        const Rect& r = result.nodes[static_cast<size_t>(v)];
        bool leaving = k == 0;
        bool goesDown = at(c.back()).layer >= at(c.front()).layer;
        if (leaving == goesDown)
          cy = r.y + r.height;  // bottom side
        else
          cy = r.y;  // top side
      }
      through.push_back({at(v).x, cy});
    }
    if (reversed_[e]) std::reverse(through.begin(), through.end());
    result.edges[e] = routeThrough(std::move(through));
  }
}

// 7. Cluster frames around their members (children first, then parents).
void Layering::frameClusters() {
  const double pad = 10, labelRoom = 18;
  std::vector<bool> seen(request_.clusters.size(), false);
  std::vector<double> x1(request_.clusters.size(), 1e300),
      y1 = x1, x2(request_.clusters.size(), -1e300), y2 = x2;
  auto grow = [&](size_t c, double ax1, double ay1, double ax2, double ay2) {
    seen[c] = true;
    x1[c] = std::min(x1[c], ax1);
    y1[c] = std::min(y1[c], ay1);
    x2[c] = std::max(x2[c], ax2);
    y2[c] = std::max(y2[c], ay2);
  };
  for (size_t i = 0; i < n_; ++i) {
    int c = request_.nodes[i].cluster;
    if (c < 0 || static_cast<size_t>(c) >= request_.clusters.size()) continue;
    const Rect& r = result.nodes[i];
    grow(static_cast<size_t>(c), r.x - pad, r.y - pad - labelRoom, r.x + r.width + pad,
         r.y + r.height + pad);
  }
  for (size_t c = request_.clusters.size(); c-- > 0;) {
    if (!seen[c]) continue;
    result.clusters[c] = Rect{x1[c], y1[c], x2[c] - x1[c], y2[c] - y1[c]};
    int p = request_.clusters[c].parent;
    if (p >= 0 && static_cast<size_t>(p) < request_.clusters.size())
      grow(static_cast<size_t>(p), x1[c] - pad, y1[c] - pad - labelRoom, x2[c] + pad, y2[c] + pad);
  }
}

// 8. Frames may reach past the margin: move everything into positive space.
void Layering::moveIntoPositiveSpace() {
  double lowX = 0, lowY = 0, highX = result.width, highY = result.height;
  for (const Rect& r : result.clusters) {
    if (r.width <= 0) continue;
    lowX = std::min(lowX, r.x - kMargin);
    lowY = std::min(lowY, r.y - kMargin);
    highX = std::max(highX, r.x + r.width + kMargin);
    highY = std::max(highY, r.y + r.height + kMargin);
  }
  if (lowX < 0 || lowY < 0) {
    auto move = [&](double& px, double& py) {
      px -= lowX;
      py -= lowY;
    };
    for (Rect& r : result.nodes) move(r.x, r.y);
    for (Rect& r : result.clusters)
      if (r.width > 0) move(r.x, r.y);
    for (EdgeRoute& route : result.edges) {
      for (Point& p : route.points) move(p.x, p.y);
      move(route.arrowTip.x, route.arrowTip.y);
      move(route.labelPos.x, route.labelPos.y);
    }
  }
  result.width = highX - lowX;
  result.height = highY - lowY;
}

}  // namespace

LayoutResult layeredLayout(const LayoutRequest& request, const LayeredOptions& options,
                           std::stop_token stop) {
  auto started = std::chrono::steady_clock::now();
  Layering g(request, options);
  if (g.empty()) return std::move(g.result);
  g.breakCycles();
  g.assignLayers();
  if (stop.stop_requested()) return g.cancelled();
  g.insertDummies();
  if (!g.orderLayers(stop)) return g.cancelled();
  g.placeVertices();
  g.routeEdges();
  g.frameClusters();
  g.moveIntoPositiveSpace();
  g.result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return std::move(g.result);
}

}  // namespace passlab::layout
