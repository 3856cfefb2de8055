// passlab-layout: lays out one DOT graph with Graphviz's dot and prints where
// everything went (the format is in core/layout/dot_format.h).
//
// A process of its own because Graphviz is not thread-safe, cannot be
// cancelled, and some failures call abort() or exit(): the caller kills it at
// its deadline and falls back to its own layout if it dies.
//
//   passlab-layout < graph.dot > placements.txt
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <string>

// AddressSanitizer builds (docs/sanitizers.md): Graphviz and the fontconfig it
// loads keep allocations for the life of the process, which LeakSanitizer
// reports at exit, so every layout of this short-lived helper "failed". Only
// those libraries' allocations are suppressed; PassLab's own are still checked.
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libgvc.so\nleak:libcgraph.so\nleak:libcdt.so\nleak:libpathplan.so\n"
         "leak:libgvplugin\nleak:libfontconfig.so\n";
}
#endif

namespace {

double flipY = 0, shiftX = 0;  // Graphviz has y upwards; we answer with y downwards

double X(double x) {
  return x - shiftX;
}
double Y(double y) {
  return flipY - y;
}

void printClusters(Agraph_t* g) {
  for (int i = 1; i <= GD_n_cluster(g); ++i) {
    Agraph_t* c = GD_clust(g)[i];
    std::string name = agnameof(c);
    const std::string prefix = "cluster_";
    if (name.rfind(prefix, 0) == 0) {
      boxf bb = GD_bb(c);
      std::printf("cluster %s %.2f %.2f %.2f %.2f\n", name.c_str() + prefix.size(), X(bb.LL.x),
                  Y(bb.UR.y), bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
    }
    printClusters(c);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) {
    std::fprintf(stderr, "usage: %s < graph.dot\n", argv[0]);
    return 2;
  }
  std::string dot((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  GVC_t* gvc = gvContext();
  Agraph_t* g = agmemread(dot.c_str());
  if (g == nullptr) {
    std::fprintf(stderr, "passlab-layout: cannot parse the DOT input\n");
    return 1;
  }
  if (gvLayout(gvc, g, "dot") != 0) {
    std::fprintf(stderr, "passlab-layout: dot layout failed\n");
    return 1;
  }
  boxf bb = GD_bb(g);
  flipY = bb.UR.y;
  shiftX = bb.LL.x;
  std::printf("passlab-layout 1\n");
  std::printf("graph %.2f %.2f\n", bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
  for (Agnode_t* n = agfstnode(g); n != nullptr; n = agnxtnode(g, n)) {
    const char* name = agnameof(n);
    if (name[0] != 'n') continue;
    std::printf("node %s %.2f %.2f %.2f %.2f\n", name + 1, X(ND_coord(n).x), Y(ND_coord(n).y),
                ND_width(n) * 72.0, ND_height(n) * 72.0);
  }
  for (Agnode_t* n = agfstnode(g); n != nullptr; n = agnxtnode(g, n)) {
    for (Agedge_t* e = agfstout(g, n); e != nullptr; e = agnxtout(g, e)) {
      const char* id = agget(e, const_cast<char*>("id"));
      if (id == nullptr || *id == '\0' || ED_spl(e) == nullptr || ED_spl(e)->size == 0) continue;
      const bezier& bz = ED_spl(e)->list[0];
      std::printf("edge %s %d %.2f %.2f %d", id, bz.eflag ? 1 : 0, X(bz.ep.x), Y(bz.ep.y), bz.size);
      for (int k = 0; k < bz.size; ++k) std::printf(" %.2f %.2f", X(bz.list[k].x), Y(bz.list[k].y));
      std::printf("\n");
    }
  }
  printClusters(g);
  std::printf("end\n");
  std::fflush(stdout);
  gvFreeLayout(gvc, g);
  agclose(g);
  return gvFreeContext(gvc) == 0 ? 0 : 1;
}
