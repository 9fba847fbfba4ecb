#include "Discover/JumpTable.h"

#include <set>

namespace hoist {

std::vector<uint64_t> JumpTable::distinctTargets() const {
  std::vector<uint64_t> distinct;
  std::set<uint64_t> seen;
  for (uint64_t target : targets)
    if (seen.insert(target).second)
      distinct.push_back(target);
  return distinct;
}

const char *jumpTableShapeName(JumpTable::Shape shape) {
  switch (shape) {
  case JumpTable::Shape::Absolute:
    return "absolute";
  case JumpTable::Shape::TableRelative:
    return "table-relative";
  case JumpTable::Shape::BaseRelative:
    return "base-relative";
  case JumpTable::Shape::Computed:
    return "computed";
  }
  return "?";
}

const char *jumpTableBoundName(JumpTable::Bound bound) {
  switch (bound) {
  case JumpTable::Bound::Compare:
    return "compare";
  case JumpTable::Bound::SetOfValues:
    return "set-of-values";
  case JumpTable::Bound::IndexWidth:
    return "index-width";
  case JumpTable::Bound::StoredValues:
    return "stored-values";
  case JumpTable::Bound::TableEnd:
    return "table-end";
  }
  return "?";
}

} // namespace hoist
