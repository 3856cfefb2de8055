// What a graph layout is asked for and what it answers: boxes, arrows and
// frames (clusters) with sizes in points, and where each one was placed.
//
// A LayoutRequest is plain data built from an ir::Graph on the caller's thread
// (see request_builder.h); laying it out never touches the IR, so it can run on
// any thread or in another process.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/node.h"
#include "core/layout/op_family.h"

namespace passlab::layout {

enum class ItemKind : uint8_t {
  kOp,      // one ir::Node
  kGroup,   // a collapsed group of nodes (name scope or repeated block)
  kInput,   // a graph input (or a value of an enclosing graph read by a body)
  kOutput,  // a graph output
};

struct LayoutNode {
  ItemKind kind = ItemKind::kOp;
  // Stable key: "n:<NodeId>", "g:<group id>", "in:<value>", "out:<index>".
  std::string key;
  // Label lines; the first is the title (op type, group name, value name).
  std::vector<std::string> lines;
  double width = 0, height = 0;  // points
  int cluster = -1;              // innermost cluster (expanded group) holding it, or -1
  ir::NodeId nodeId = 0;         // kOp
  std::string groupId;           // kGroup
  std::string valueName;         // kInput / kOutput
  std::string opType;            // kOp: qualified op type
  OpFamily family = OpFamily::kOther;
  size_t memberCount = 0;  // kGroup: nodes inside (recursively)
  bool hasSubgraphs = false;
};

struct LayoutEdge {
  int from = -1, to = -1;  // indices into LayoutRequest::nodes
  std::string valueName;   // the first value carried (several may be merged)
  std::string label;       // "float[1,3,224,224]", or "3 values" when merged
  int multiplicity = 1;    // values merged into this arrow
};

// An expanded group drawn as a frame around its members.
struct LayoutCluster {
  std::string groupId;
  std::string label;
  int parent = -1;  // enclosing cluster or -1
};

struct LayoutRequest {
  std::vector<LayoutNode> nodes;
  std::vector<LayoutEdge> edges;
  std::vector<LayoutCluster> clusters;
  int indexOf(const std::string& key) const;  // linear; -1 if absent
};

struct Point {
  double x = 0, y = 0;
};
struct Rect {
  double x = 0, y = 0, width = 0, height = 0;  // top-left corner, y grows downwards
};

struct EdgeRoute {
  // Cubic Bézier control points: p0, then three points per segment (1 + 3k).
  std::vector<Point> points;
  bool hasArrow = false;
  Point arrowTip;  // where the arrowhead points to (the target's border)
  Point labelPos;  // anchor for the edge label
};

enum class Engine : uint8_t { kNone, kGraphviz, kLayered };

// Why the layered fallback drew the graph instead of Graphviz.
enum class Fallback : uint8_t {
  kNone,           // Graphviz drew it
  kChosen,         // the caller asked for the layered layout
  kTooLarge,       // more boxes than Graphviz is allowed to take
  kHelperMissing,  // passlab-layout not found
  kHelperFailed,   // it could not start, crashed or exited with an error
  kTimedOut,       // it ran past the deadline and was killed
  kCancelled,      // the caller cancelled it
  kBadAnswer,      // it answered something unreadable
};

struct LayoutResult {
  std::vector<Rect> nodes;  // same order as the request
  std::vector<EdgeRoute> edges;
  std::vector<Rect> clusters;
  double width = 0, height = 0;
  Engine engine = Engine::kNone;
  Fallback fallback = Fallback::kNone;
  // Why the fallback was used, or what went wrong ("graphviz timed out after 20 s").
  std::string note;
  double seconds = 0;
  bool cancelled = false;
};

const char* engineName(Engine e);

}  // namespace passlab::layout
