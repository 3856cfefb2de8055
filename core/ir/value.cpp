#include "core/ir/value.h"

#include <algorithm>

namespace passlab::ir {
namespace {
const std::string kNoString;
const std::vector<Graph*> kNoGraphs;
const std::vector<std::pair<std::string, std::string>> kNoMetadata;
}  // namespace

const std::vector<Graph*>& Value::outputOf() const {
  return extras_ ? extras_->outputOf : kNoGraphs;
}

const std::string& Value::docString() const {
  return extras_ ? extras_->docString : kNoString;
}

void Value::setDocString(std::string s) {
  if (s.empty() && !extras_) return;
  extras().docString = std::move(s);
}

const std::vector<std::pair<std::string, std::string>>& Value::metadata() const {
  return extras_ ? extras_->metadata : kNoMetadata;
}

Value::Extras& Value::extras() {
  if (!extras_) extras_ = std::make_unique<Extras>();
  return *extras_;
}

void Value::addOutputOf(Graph* g) {
  extras().outputOf.push_back(g);
  ++outputOfCount_;
}

void Value::removeOutputOf(Graph* g) {
  if (!extras_) return;
  auto& of = extras_->outputOf;
  auto it = std::find(of.begin(), of.end(), g);
  if (it == of.end()) return;
  of.erase(it);
  --outputOfCount_;
}

}  // namespace passlab::ir
