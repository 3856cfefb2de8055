// onnx_check MODEL: runs Debian libonnx's onnx::checker::check_model on a file
// and says OK, SKIP or what it rejects.
// libonnx 1.12 knows IR versions up to 8 and default-domain opsets up to 17:
// newer files are skipped (exit 77), not failed. Exit 1 when the checker
// rejects the model.
#include <onnx/checker.h>
#include <onnx/onnx_pb.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: onnx_check MODEL.onnx\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  onnx::ModelProto model;
  if (!in || !model.ParseFromString(buf.str())) {
    std::printf("FAIL %s: not a readable ModelProto\n", argv[1]);
    return 1;
  }
  if (model.ir_version() > onnx::IR_VERSION) {
    std::printf("SKIP %s: IR version %lld is newer than libonnx knows (%d)\n", argv[1],
                static_cast<long long>(model.ir_version()), static_cast<int>(onnx::IR_VERSION));
    return 77;
  }
  for (const auto& op : model.opset_import())
    if ((op.domain().empty() || op.domain() == "ai.onnx") && op.version() > 17) {
      std::printf("SKIP %s: opset %lld is newer than libonnx 1.12 knows (17)\n", argv[1],
                  static_cast<long long>(op.version()));
      return 77;
    }
  // Also what ONNX Runtime refuses and libonnx 1.12 does not check: two
  // nodes of one (non-empty) name in a graph.
  std::set<std::string> names;
  for (const auto& n : model.graph().node())
    if (!n.name().empty() && !names.insert(n.name()).second) {
      std::printf("FAIL %s: two nodes are named '%s'\n", argv[1], n.name().c_str());
      return 1;
    }
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception& e) {
    std::printf("FAIL %s: %s\n", argv[1], e.what());
    return 1;
  }
  std::printf("OK %s\n", argv[1]);
  return 0;
}
