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

struct Vertex {
  int layer = 0;
  double width = kDummyWidth, height = 0;
  double x = 0;  // centre
  double order = 0;
  std::vector<int> preds, succs;  // unit-span edges of the layered graph
};

}  // namespace

LayoutResult layeredLayout(const LayoutRequest& request, const LayeredOptions& options,
                           std::stop_token stop) {
  auto started = std::chrono::steady_clock::now();
  LayoutResult result;
  result.engine = Engine::kLayered;
  const size_t n = request.nodes.size();
  result.nodes.resize(n);
  result.edges.resize(request.edges.size());
  result.clusters.resize(request.clusters.size());
  if (n == 0) return result;

  // 1. Break cycles: edges closing a DFS cycle are laid out reversed.
  std::vector<std::vector<std::pair<int, int>>> out(n);  // (target, edge index)
  for (size_t e = 0; e < request.edges.size(); ++e) {
    const LayoutEdge& edge = request.edges[e];
    if (edge.from < 0 || edge.to < 0 || static_cast<size_t>(edge.from) >= n ||
        static_cast<size_t>(edge.to) >= n || edge.from == edge.to)
      continue;
    out[static_cast<size_t>(edge.from)].emplace_back(edge.to, static_cast<int>(e));
  }
  std::vector<bool> reversed(request.edges.size(), false), valid(request.edges.size(), false);
  {
    std::vector<uint8_t> colour(n, 0);  // 0 new, 1 on stack, 2 done
    std::vector<std::pair<int, size_t>> stack;
    for (size_t root = 0; root < n; ++root) {
      if (colour[root]) continue;
      stack.emplace_back(static_cast<int>(root), 0);
      colour[root] = 1;
      while (!stack.empty()) {
        auto& [v, next] = stack.back();
        if (next < out[static_cast<size_t>(v)].size()) {
          auto [w, e] = out[static_cast<size_t>(v)][next++];
          valid[static_cast<size_t>(e)] = true;
          if (colour[static_cast<size_t>(w)] == 1) {
            reversed[static_cast<size_t>(e)] = true;
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
  auto tailOf = [&](size_t e) { return reversed[e] ? request.edges[e].to : request.edges[e].from; };
  auto headOf = [&](size_t e) { return reversed[e] ? request.edges[e].from : request.edges[e].to; };

  // 2. Longest-path layering, then sources pulled down next to their readers.
  std::vector<Vertex> vx(n);
  for (size_t i = 0; i < n; ++i) {
    vx[i].width = request.nodes[i].width;
    vx[i].height = request.nodes[i].height;
  }
  std::vector<std::vector<int>> dagOut(n);
  std::vector<int> indegree(n, 0);
  for (size_t e = 0; e < request.edges.size(); ++e) {
    if (!valid[e]) continue;
    dagOut[static_cast<size_t>(tailOf(e))].push_back(headOf(e));
    ++indegree[static_cast<size_t>(headOf(e))];
  }
  std::vector<int> topo;
  topo.reserve(n);
  {
    std::vector<int> deg = indegree;
    std::deque<int> ready;
    for (size_t i = 0; i < n; ++i)
      if (deg[i] == 0) ready.push_back(static_cast<int>(i));
    while (!ready.empty()) {
      int v = ready.front();
      ready.pop_front();
      topo.push_back(v);
      for (int w : dagOut[static_cast<size_t>(v)]) {
        auto& layer = vx[static_cast<size_t>(w)].layer;
        layer = std::max(layer, vx[static_cast<size_t>(v)].layer + 1);
        if (--deg[static_cast<size_t>(w)] == 0) ready.push_back(w);
      }
    }
  }
  for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
    size_t v = static_cast<size_t>(*it);
    if (indegree[v] != 0 || dagOut[v].empty()) continue;
    int lowest = std::numeric_limits<int>::max();
    for (int w : dagOut[v]) lowest = std::min(lowest, vx[static_cast<size_t>(w)].layer);
    vx[v].layer = std::max(vx[v].layer, lowest - 1);
  }
  if (stop.stop_requested()) {
    result.cancelled = true;
    return result;
  }

  // 3. Dummy vertices on long edges, within a budget.
  size_t budget = options.maxDummiesPerNode * n + 1000;
  std::vector<std::vector<int>> chain(request.edges.size());  // vertices tail..head
  for (size_t e = 0; e < request.edges.size(); ++e) {
    if (!valid[e]) continue;
    int a = tailOf(e), b = headOf(e);
    int span = vx[static_cast<size_t>(b)].layer - vx[static_cast<size_t>(a)].layer;
    std::vector<int>& c = chain[e];
    c.push_back(a);
    if (span > 1 && static_cast<size_t>(span - 1) <= budget) {
      budget -= static_cast<size_t>(span - 1);
      for (int l = vx[static_cast<size_t>(a)].layer + 1; l < vx[static_cast<size_t>(b)].layer;
           ++l) {
        Vertex d;
        d.layer = l;
        vx.push_back(d);
        c.push_back(static_cast<int>(vx.size() - 1));
      }
    }
    c.push_back(b);
    if (span >= 1 && (span == 1 || c.size() > 2))
      for (size_t k = 0; k + 1 < c.size(); ++k) {
        vx[static_cast<size_t>(c[k])].succs.push_back(c[k + 1]);
        vx[static_cast<size_t>(c[k + 1])].preds.push_back(c[k]);
      }
  }

  // 4. Layers, ordered by barycenter sweeps.
  int layerCount = 0;
  for (const Vertex& v : vx) layerCount = std::max(layerCount, v.layer + 1);
  std::vector<std::vector<int>> layers(static_cast<size_t>(layerCount));
  for (size_t i = 0; i < vx.size(); ++i)
    layers[static_cast<size_t>(vx[i].layer)].push_back(static_cast<int>(i));
  auto renumber = [&](std::vector<int>& layer) {
    for (size_t k = 0; k < layer.size(); ++k)
      vx[static_cast<size_t>(layer[k])].order = static_cast<double>(k);
  };
  for (auto& layer : layers) renumber(layer);
  auto sweep = [&](bool down) {
    std::vector<std::pair<double, int>> keyed;
    auto visit = [&](std::vector<int>& layer) {
      keyed.clear();
      for (int v : layer) {
        const auto& nb = down ? vx[static_cast<size_t>(v)].preds : vx[static_cast<size_t>(v)].succs;
        double key = vx[static_cast<size_t>(v)].order;
        if (!nb.empty()) {
          double sum = 0;
          for (int u : nb) sum += vx[static_cast<size_t>(u)].order;
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
      for (auto& layer : layers) visit(layer);
    else
      for (auto it = layers.rbegin(); it != layers.rend(); ++it) visit(*it);
  };
  for (int s = 0; s < options.sweeps; ++s) {
    sweep(s % 2 == 0);
    if (stop.stop_requested()) {
      result.cancelled = true;
      return result;
    }
  }
  sweep(true);

  // 5. Coordinates: rows by layer; x pulled towards neighbours, overlaps pushed apart.
  std::vector<double> layerTop(static_cast<size_t>(layerCount), 0),
      layerHeight(static_cast<size_t>(layerCount), 0);
  for (const Vertex& v : vx) {
    auto& h = layerHeight[static_cast<size_t>(v.layer)];
    h = std::max(h, v.height);
  }
  double y = 10;
  for (int l = 0; l < layerCount; ++l) {
    layerTop[static_cast<size_t>(l)] = y;
    y += layerHeight[static_cast<size_t>(l)] + options.rankSep;
  }
  for (auto& layer : layers) {
    double x = 0;
    for (int v : layer) {
      Vertex& vv = vx[static_cast<size_t>(v)];
      vv.x = x + vv.width / 2;
      x += vv.width + options.nodeSep;
    }
  }
  auto place = [&](std::vector<int>& layer, bool down) {
    if (layer.empty()) return;
    std::vector<double> want(layer.size());
    for (size_t k = 0; k < layer.size(); ++k) {
      const Vertex& v = vx[static_cast<size_t>(layer[k])];
      const auto& nb = down ? v.preds : v.succs;
      if (nb.empty()) {
        want[k] = v.x;
        continue;
      }
      std::vector<double> xs;
      xs.reserve(nb.size());
      for (int u : nb) xs.push_back(vx[static_cast<size_t>(u)].x);
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
      Vertex& v = vx[static_cast<size_t>(layer[k])];
      double x = std::max(want[k], right + v.width / 2);
      v.x = x;
      right = x + v.width / 2 + options.nodeSep;
      excess += x - want[k];
    }
    double shift = excess / static_cast<double>(layer.size());
    for (int v : layer) vx[static_cast<size_t>(v)].x -= shift;
  };
  for (int it = 0; it < 4; ++it) {
    for (auto& layer : layers) place(layer, true);
    for (auto li = layers.rbegin(); li != layers.rend(); ++li) place(*li, false);
  }
  for (auto& layer : layers) place(layer, true);
  double minX = std::numeric_limits<double>::infinity(), maxX = -minX;
  for (const Vertex& v : vx) {
    minX = std::min(minX, v.x - v.width / 2);
    maxX = std::max(maxX, v.x + v.width / 2);
  }
  const double margin = 10;
  for (Vertex& v : vx) v.x += margin - minX;
  result.width = maxX - minX + 2 * margin;
  result.height = y - options.rankSep + margin;

  auto centreY = [&](int v) {
    const Vertex& vv = vx[static_cast<size_t>(v)];
    return layerTop[static_cast<size_t>(vv.layer)] + layerHeight[static_cast<size_t>(vv.layer)] / 2;
  };
  for (size_t i = 0; i < n; ++i) {
    const Vertex& v = vx[i];
    result.nodes[i] =
        Rect{v.x - v.width / 2, centreY(static_cast<int>(i)) - v.height / 2, v.width, v.height};
  }

  // 6. Routes through the dummies, as vertical-tangent cubic segments.
  for (size_t e = 0; e < request.edges.size(); ++e) {
    if (!valid[e]) continue;
    std::vector<Point> through;
    const auto& c = chain[e];
    for (size_t k = 0; k < c.size(); ++k) {
      int v = c[k];
      double cy = centreY(v);
      if (static_cast<size_t>(v) < n) {
        const Rect& r = result.nodes[static_cast<size_t>(v)];
        bool leaving = k == 0;
        bool goesDown =
            vx[static_cast<size_t>(c.back())].layer >= vx[static_cast<size_t>(c.front())].layer;
        if (leaving == goesDown)
          cy = r.y + r.height;  // bottom side
        else
          cy = r.y;  // top side
      }
      through.push_back({vx[static_cast<size_t>(v)].x, cy});
    }
    if (reversed[e]) std::reverse(through.begin(), through.end());
    EdgeRoute& route = result.edges[e];
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
  }

  // 7. Cluster frames around their members (children first, then parents).
  const double pad = 10, labelRoom = 18;
  std::vector<bool> seen(request.clusters.size(), false);
  std::vector<double> x1(request.clusters.size(), 1e300),
      y1 = x1, x2(request.clusters.size(), -1e300), y2 = x2;
  auto grow = [&](size_t c, double ax1, double ay1, double ax2, double ay2) {
    seen[c] = true;
    x1[c] = std::min(x1[c], ax1);
    y1[c] = std::min(y1[c], ay1);
    x2[c] = std::max(x2[c], ax2);
    y2[c] = std::max(y2[c], ay2);
  };
  for (size_t i = 0; i < n; ++i) {
    int c = request.nodes[i].cluster;
    if (c < 0 || static_cast<size_t>(c) >= request.clusters.size()) continue;
    const Rect& r = result.nodes[i];
    grow(static_cast<size_t>(c), r.x - pad, r.y - pad - labelRoom, r.x + r.width + pad,
         r.y + r.height + pad);
  }
  for (size_t c = request.clusters.size(); c-- > 0;) {
    if (!seen[c]) continue;
    result.clusters[c] = Rect{x1[c], y1[c], x2[c] - x1[c], y2[c] - y1[c]};
    int p = request.clusters[c].parent;
    if (p >= 0 && static_cast<size_t>(p) < request.clusters.size())
      grow(static_cast<size_t>(p), x1[c] - pad, y1[c] - pad - labelRoom, x2[c] + pad, y2[c] + pad);
  }

  // 8. Frames may reach past the margin: move everything into positive space.
  double lowX = 0, lowY = 0, highX = result.width, highY = result.height;
  for (const Rect& r : result.clusters) {
    if (r.width <= 0) continue;
    lowX = std::min(lowX, r.x - margin);
    lowY = std::min(lowY, r.y - margin);
    highX = std::max(highX, r.x + r.width + margin);
    highY = std::max(highY, r.y + r.height + margin);
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
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace passlab::layout
