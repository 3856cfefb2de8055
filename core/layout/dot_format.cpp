#include "core/layout/dot_format.h"

#include <charconv>
#include <cstdio>
#include <sstream>
#include <vector>

#include "core/support/strings.h"

namespace passlab::layout {

namespace {

constexpr double kPointsPerInch = 72.0;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n' || c == '\r') {
      out += ' ';
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string writeDot(const LayoutRequest& request, const DotOptions& options) {
  const size_t n = request.nodes.size();
  double nslimit = options.nslimit > 0 ? options.nslimit : (n <= 800 ? 2.0 : 0.05);
  double mclimit = options.mclimit > 0 ? options.mclimit : (n <= 800 ? 1.0 : 0.3);
  std::ostringstream os;
  os << "digraph G {\n";
  os << "  graph [rankdir=TB, nodesep=0.3, ranksep=0.4, newrank=true, compound=false, "
     << "splines=" << (options.splines ? "spline" : "polyline") << ", nslimit=" << num(nslimit)
     << ", nslimit1=" << num(nslimit) << ", mclimit=" << num(mclimit)
     << ", searchsize=30, fontsize=11, fontname=\"Helvetica\"];\n";
  os << "  node [shape=box, fixedsize=true, label=\"\"];\n";
  os << "  edge [arrowsize=0.7];\n";

  // Nodes, nested into their clusters.
  std::vector<std::vector<int>> clusterNodes(request.clusters.size());
  std::vector<std::vector<int>> clusterKids(request.clusters.size());
  std::vector<int> rootNodes, rootClusters;
  for (size_t i = 0; i < n; ++i) {
    int c = request.nodes[i].cluster;
    if (c >= 0 && static_cast<size_t>(c) < request.clusters.size())
      clusterNodes[static_cast<size_t>(c)].push_back(static_cast<int>(i));
    else
      rootNodes.push_back(static_cast<int>(i));
  }
  for (size_t c = 0; c < request.clusters.size(); ++c) {
    int p = request.clusters[c].parent;
    if (p >= 0 && static_cast<size_t>(p) < request.clusters.size())
      clusterKids[static_cast<size_t>(p)].push_back(static_cast<int>(c));
    else
      rootClusters.push_back(static_cast<int>(c));
  }
  auto writeNode = [&](int i, const std::string& indent) {
    const LayoutNode& node = request.nodes[static_cast<size_t>(i)];
    os << indent << "n" << i << " [width=" << num(node.width / kPointsPerInch)
       << ", height=" << num(node.height / kPointsPerInch) << "];\n";
  };
  // Iterative to survive deep nesting.
  struct Frame {
    int cluster;
    bool open;
  };
  std::vector<Frame> stack;
  for (auto it = rootClusters.rbegin(); it != rootClusters.rend(); ++it)
    stack.push_back({*it, true});
  for (int i : rootNodes) writeNode(i, "  ");
  int depth = 1;
  while (!stack.empty()) {
    Frame f = stack.back();
    stack.pop_back();
    if (!f.open) {
      --depth;
      os << std::string(static_cast<size_t>(depth) * 2, ' ') << "}\n";
      continue;
    }
    std::string indent(static_cast<size_t>(depth) * 2, ' ');
    const LayoutCluster& c = request.clusters[static_cast<size_t>(f.cluster)];
    os << indent << "subgraph cluster_" << f.cluster << " {\n";
    ++depth;
    std::string inner(static_cast<size_t>(depth) * 2, ' ');
    os << inner << "label=" << quoted(c.label) << "; labeljust=l; margin=10;\n";
    for (int i : clusterNodes[static_cast<size_t>(f.cluster)]) writeNode(i, inner);
    stack.push_back({f.cluster, false});
    const auto& kids = clusterKids[static_cast<size_t>(f.cluster)];
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back({*it, true});
  }
  for (size_t e = 0; e < request.edges.size(); ++e) {
    const LayoutEdge& edge = request.edges[e];
    os << "  n" << edge.from << " -> n" << edge.to << " [id=\"" << e << "\"];\n";
  }
  os << "}\n";
  return os.str();
}

namespace {

class Reader {
 public:
  explicit Reader(std::string_view line) : s_(line) {}
  bool word(std::string& out) {
    skip();
    size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != ' ' && s_[pos_] != '\t') ++pos_;
    out.assign(s_.substr(start, pos_ - start));
    return !out.empty();
  }
  bool number(double& out) {
    std::string w;
    if (!word(w)) return false;
    char* end = nullptr;
    out = std::strtod(w.c_str(), &end);
    return end != nullptr && *end == '\0';
  }
  bool index(size_t& out) {
    std::string w;
    if (!word(w)) return false;
    auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), out);
    return ec == std::errc() && p == w.data() + w.size();
  }

 private:
  void skip() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
  }
  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

Expected<LayoutResult> parseLayoutAnswer(std::string_view text, const LayoutRequest& request) {
  LayoutResult r;
  r.engine = Engine::kGraphviz;
  r.nodes.resize(request.nodes.size());
  r.edges.resize(request.edges.size());
  r.clusters.resize(request.clusters.size());
  std::vector<bool> placed(request.nodes.size(), false);
  bool header = false, ended = false;
  size_t lineNo = 0;
  for (const std::string& raw : str::split(text, '\n')) {
    ++lineNo;
    std::string_view line = str::trim(raw);
    if (line.empty()) continue;
    auto bad = [&](const std::string& why) {
      return parseError("layout answer line " + std::to_string(lineNo) + ": " + why);
    };
    Reader rd(line);
    std::string kind;
    rd.word(kind);
    if (!header) {
      std::string version;
      if (kind != "passlab-layout" || !rd.word(version) || version != "1")
        return bad("expected 'passlab-layout 1'");
      header = true;
      continue;
    }
    if (kind == "graph") {
      if (!rd.number(r.width) || !rd.number(r.height)) return bad("bad graph size");
    } else if (kind == "node") {
      size_t i;
      double x, y, w, h;
      if (!rd.index(i) || !rd.number(x) || !rd.number(y) || !rd.number(w) || !rd.number(h))
        return bad("bad node");
      if (i >= r.nodes.size()) return bad("node index out of range");
      r.nodes[i] = Rect{x - w / 2, y - h / 2, w, h};
      placed[i] = true;
    } else if (kind == "edge") {
      size_t i, count;
      double arrow, tx, ty;
      if (!rd.index(i) || !rd.number(arrow) || !rd.number(tx) || !rd.number(ty) || !rd.index(count))
        return bad("bad edge");
      if (i >= r.edges.size()) return bad("edge index out of range");
      if (count > 100000) return bad("edge with too many points");
      EdgeRoute& e = r.edges[i];
      e.hasArrow = arrow != 0;
      e.arrowTip = {tx, ty};
      e.points.resize(count);
      for (size_t k = 0; k < count; ++k)
        if (!rd.number(e.points[k].x) || !rd.number(e.points[k].y)) return bad("bad edge point");
    } else if (kind == "cluster") {
      size_t i;
      Rect b;
      if (!rd.index(i) || !rd.number(b.x) || !rd.number(b.y) || !rd.number(b.width) ||
          !rd.number(b.height))
        return bad("bad cluster");
      if (i >= r.clusters.size()) return bad("cluster index out of range");
      r.clusters[i] = b;
    } else if (kind == "end") {
      ended = true;
      break;
    } else {
      return bad("unknown record '" + kind + "'");
    }
  }
  if (!header) return parseError("layout answer is empty");
  if (!ended) return parseError("layout answer is truncated (no 'end')");
  for (size_t i = 0; i < placed.size(); ++i)
    if (!placed[i])
      return parseError("layout answer has no position for node " + std::to_string(i));
  // Label anchors: the middle control point of each route.
  for (EdgeRoute& e : r.edges)
    if (!e.points.empty()) e.labelPos = e.points[e.points.size() / 2];
  return r;
}

}  // namespace passlab::layout
