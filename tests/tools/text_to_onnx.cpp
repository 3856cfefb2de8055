// text_to_onnx IN.txt OUT.onnx: writes a model given in PassLab's text format
// (core/io/text_parser.cpp) as an ONNX file, so CLI tests can build small
// models, including ones the verifier must refuse.
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/io/model_io.h"
#include "core/io/text_format.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: text_to_onnx IN.txt OUT.onnx\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  auto model = passlab::io::parseModelText(text.str());
  if (!model) {
    std::fprintf(stderr, "%s: %s\n", argv[1], model.error().message().c_str());
    return 1;
  }
  passlab::Status saved = passlab::io::saveModel(*model, argv[2]);
  if (!saved.isOk()) {
    std::fprintf(stderr, "%s\n", saved.message().c_str());
    return 1;
  }
  return 0;
}
