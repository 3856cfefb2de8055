# Turns a text file into a C++ source defining `const char SYMBOL[]` (a raw string).
# Usage: cmake -DINPUT=file -DOUTPUT=file.cpp -DSYMBOL=name [-DNAMESPACE=passlab::ir] -P embed_text.cmake
if(NOT NAMESPACE)
  set(NAMESPACE passlab::ir)
endif()
file(READ "${INPUT}" CONTENT)
string(FIND "${CONTENT}" ")PLTXT\"" CLASH)
if(NOT CLASH EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter")
endif()
string(LENGTH "${CONTENT}" NBYTES)
file(WRITE "${OUTPUT}" "// Generated from ${INPUT}; do not edit.\n#include <cstddef>\nnamespace ${NAMESPACE} {\nextern const char ${SYMBOL}[];\nextern const std::size_t ${SYMBOL}Size;\nconst char ${SYMBOL}[] = R\"PLTXT(${CONTENT})PLTXT\";\nconst std::size_t ${SYMBOL}Size = sizeof(${SYMBOL}) - 1;\n}\n")
