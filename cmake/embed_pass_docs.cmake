# Collects the header comment of every core/passes/*.cpp (what the pass does,
# Before / After, Conditions, opsets) into a C++ source defining
# `passlab::passes::kPassDocs`: blocks "@@ FILE\n" followed by the comment's
# lines without their "// " (core/passes/pass_docs.h reads them).
# Usage: cmake -DDIR=core/passes -DOUTPUT=file.cpp -P embed_pass_docs.cmake
file(GLOB SOURCES "${DIR}/*.cpp")
list(SORT SOURCES)
set(CONTENT "")
foreach(source IN LISTS SOURCES)
  # Read as one string and split by hand: list operations would cut lines at
  # ';' and join them at unbalanced brackets, so those are encoded meanwhile.
  file(READ "${source}" TEXT)
  string(REPLACE ";" "@SEMI@" TEXT "${TEXT}")
  string(REPLACE "[" "@LB@" TEXT "${TEXT}")
  string(REPLACE "]" "@RB@" TEXT "${TEXT}")
  string(REPLACE "\n" ";" LINES "${TEXT}")
  get_filename_component(NAME "${source}" NAME)
  set(BLOCK "")
  foreach(line IN LISTS LINES)
    if(line MATCHES "^//( |$)(.*)")
      string(APPEND BLOCK "${CMAKE_MATCH_2}\n")
    else()
      break()
    endif()
  endforeach()
  string(REPLACE "@SEMI@" ";" BLOCK "${BLOCK}")
  string(REPLACE "@LB@" "[" BLOCK "${BLOCK}")
  string(REPLACE "@RB@" "]" BLOCK "${BLOCK}")
  if(NOT BLOCK STREQUAL "")
    string(APPEND CONTENT "@@ ${NAME}\n${BLOCK}")
  endif()
endforeach()
string(FIND "${CONTENT}" ")PLTXT\"" CLASH)
if(NOT CLASH EQUAL -1)
  message(FATAL_ERROR "a pass header contains the raw-string delimiter")
endif()
file(WRITE "${OUTPUT}.tmp" "// Generated from ${DIR}/*.cpp; do not edit.\n#include <cstddef>\nnamespace passlab::passes {\nextern const char kPassDocs[];\nextern const std::size_t kPassDocsSize;\nconst char kPassDocs[] = R\"PLTXT(${CONTENT})PLTXT\";\nconst std::size_t kPassDocsSize = sizeof(kPassDocs) - 1;\n}\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
