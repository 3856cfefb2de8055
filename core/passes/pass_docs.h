// A pass's documentation for people: the header comment of its source file
// (what it does, Before / After, Conditions, opsets), compiled in from
// core/passes/*.cpp (cmake/embed_pass_docs.cmake), so the code and the help
// the GUI shows are one text. A header documents the passes its first line
// names: "fuse_conv_batchnorm — ..." or "convert_to_float16, convert_to_bfloat16 — ...".
#pragma once

#include <string>
#include <string_view>

namespace passlab::passes {

// The documentation of pass `id`, or "" when no source header names it.
std::string passDocumentation(std::string_view id);

// The same lookup over a text in the embedded format ("@@ FILE" lines, each
// followed by that file's header), for tests.
std::string passDocumentationIn(std::string_view docs, std::string_view id);

}  // namespace passlab::passes
