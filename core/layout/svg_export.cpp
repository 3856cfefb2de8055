#include "core/layout/svg_export.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace passlab::layout {

namespace {

std::string esc(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // Control characters are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t') out += c;
    }
  }
  return out;
}

std::string f(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string hex(uint32_t rgb) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%06x", rgb & 0xffffffu);
  return buf;
}

uint32_t fillOf(const LayoutNode& n) {
  switch (n.kind) {
    case ItemKind::kOp:
      return familyColor(n.family);
    case ItemKind::kGroup:
      return 0xeef3fb;
    case ItemKind::kInput:
      return 0xe2f0d9;
    case ItemKind::kOutput:
      return 0xfbe5d6;
  }
  return 0xffffff;
}

}  // namespace

std::string renderSvg(const LayoutRequest& request, const LayoutResult& result,
                      const SvgOptions& options) {
  std::ostringstream os;
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
     << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << f(result.width) << "\" height=\""
     << f(result.height) << "\" viewBox=\"0 0 " << f(result.width) << " " << f(result.height)
     << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"10\">\n";
  if (!options.title.empty()) os << "<title>" << esc(options.title) << "</title>\n";
  os << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";

  os << "<g class=\"clusters\">\n";
  for (size_t c = 0; c < request.clusters.size() && c < result.clusters.size(); ++c) {
    const Rect& r = result.clusters[c];
    if (r.width <= 0) continue;
    os << "<rect x=\"" << f(r.x) << "\" y=\"" << f(r.y) << "\" width=\"" << f(r.width)
       << "\" height=\"" << f(r.height)
       << "\" rx=\"6\" fill=\"#f7f9fc\" stroke=\"#9aa9c0\" stroke-dasharray=\"4 3\"/>\n"
       << "<text x=\"" << f(r.x + 6) << "\" y=\"" << f(r.y + 13) << "\" fill=\"#44546a\">"
       << esc(request.clusters[c].label) << "</text>\n";
  }
  os << "</g>\n<g class=\"edges\" fill=\"none\" stroke=\"#6b7280\" stroke-width=\"1.2\">\n";
  for (size_t e = 0; e < request.edges.size() && e < result.edges.size(); ++e) {
    const EdgeRoute& route = result.edges[e];
    if (route.points.size() < 2) continue;
    os << "<path d=\"M" << f(route.points[0].x) << "," << f(route.points[0].y);
    if ((route.points.size() - 1) % 3 == 0) {
      for (size_t k = 1; k + 2 < route.points.size(); k += 3)
        os << " C" << f(route.points[k].x) << "," << f(route.points[k].y) << " "
           << f(route.points[k + 1].x) << "," << f(route.points[k + 1].y) << " "
           << f(route.points[k + 2].x) << "," << f(route.points[k + 2].y);
    } else {
      for (size_t k = 1; k < route.points.size(); ++k)
        os << " L" << f(route.points[k].x) << "," << f(route.points[k].y);
    }
    os << "\"/>\n";
    if (route.hasArrow) {
      const Point& base = route.points.back();
      const Point& tip = route.arrowTip;
      double dx = tip.x - base.x, dy = tip.y - base.y, len = std::hypot(dx, dy);
      if (len > 0.01) {
        double ux = dx / len, uy = dy / len, w = 3.5;
        os << "<polygon fill=\"#6b7280\" stroke=\"none\" points=\"" << f(tip.x) << "," << f(tip.y)
           << " " << f(base.x - uy * w) << "," << f(base.y + ux * w) << " " << f(base.x + uy * w)
           << "," << f(base.y - ux * w) << "\"/>\n";
      }
    }
  }
  os << "</g>\n";
  if (options.edgeLabels) {
    os << "<g class=\"edge-labels\" fill=\"#4b5563\" font-size=\"8\">\n";
    for (size_t e = 0; e < request.edges.size() && e < result.edges.size(); ++e) {
      const std::string& label = request.edges[e].label;
      if (label.empty() || result.edges[e].points.empty()) continue;
      const Point& p = result.edges[e].labelPos;
      os << "<text x=\"" << f(p.x + 4) << "\" y=\"" << f(p.y + 3) << "\">" << esc(label)
         << "</text>\n";
    }
    os << "</g>\n";
  }
  os << "<g class=\"nodes\">\n";
  for (size_t i = 0; i < request.nodes.size() && i < result.nodes.size(); ++i) {
    const LayoutNode& n = request.nodes[i];
    const Rect& r = result.nodes[i];
    double radius = (n.kind == ItemKind::kInput || n.kind == ItemKind::kOutput) ? r.height / 2 : 4;
    os << "<g><rect x=\"" << f(r.x) << "\" y=\"" << f(r.y) << "\" width=\"" << f(r.width)
       << "\" height=\"" << f(r.height) << "\" rx=\"" << f(radius) << "\" fill=\"" << hex(fillOf(n))
       << "\" stroke=\"" << (n.kind == ItemKind::kGroup ? "#3c5a99" : "#555555")
       << "\" stroke-width=\"" << (n.kind == ItemKind::kGroup ? "1.8" : "1") << "\"/>\n";
    double lineHeight = 14,
           top = r.y + (r.height - lineHeight * static_cast<double>(n.lines.size())) / 2;
    for (size_t l = 0; l < n.lines.size(); ++l) {
      os << "<text x=\"" << f(r.x + r.width / 2) << "\" y=\"" << f(top + lineHeight * (l + 0.75))
         << "\" text-anchor=\"middle\"" << (l == 0 ? " font-weight=\"bold\" font-size=\"11\"" : "")
         << ">" << esc(n.lines[l]) << "</text>\n";
    }
    os << "</g>\n";
  }
  os << "</g>\n</svg>\n";
  return os.str();
}

}  // namespace passlab::layout
