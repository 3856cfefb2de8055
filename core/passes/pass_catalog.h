// Pass metadata as data: every pass's id, taxonomy category, kind, summaries
// in English and Chinese, options and covered opsets live in one file,
// core/passes/pass_catalog.json, compiled into the library. The pass code
// keeps only what it does; a teacher or translator edits the text in one
// place, and tools (`passlab-cli passes --json`) read the same format.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/passes/pass.h"
#include "core/support/error.h"

namespace passlab::passes {

// The entries of a catalog in the JSON format of pass_catalog.json, or an
// error naming the entry and the field that is wrong.
Expected<std::vector<PassInfo>> parsePassCatalog(std::string_view json);

// `infos` in the same format (what parsePassCatalog reads back).
std::string passCatalogJson(const std::vector<PassInfo>& infos);

// The compiled-in catalog's entry for `id`. A pass without an entry is a
// programming error: it aborts naming the id (the registry test checks that
// every registered pass has one and every entry has a pass).
const PassInfo& catalogInfo(std::string_view id);

// Every entry of the compiled-in catalog, in file order.
const std::vector<PassInfo>& passCatalog();

}  // namespace passlab::passes
