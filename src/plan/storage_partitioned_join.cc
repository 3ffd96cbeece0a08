// Storage-partitioned joins: match the two sides' reported partitionings against the join keys
// and group the planned partitions by key value.
#include "plan/storage_partitioned_join.h"

#include <fmt/format.h>

#include <map>

#include "arrow/scalar.h"
#include "plan/pushdown.h"

namespace parley {
namespace {

// The scan under one join input, through column projections and filters, with the scan column
// each of the input's fields carries ("" for a computed one).
struct PartitionedSide {
  PlanNode* scan = nullptr;
  std::map<std::string, std::string> columns;
};

std::optional<PartitionedSide> FindScan(PlanNode* node) {
  PartitionedSide side;
  side.scan = ScanBelowProjections(node, &side.columns, /*through_filters=*/true);
  if (side.scan == nullptr || !side.scan->negotiation || !side.scan->negotiation->scan) {
    return std::nullopt;
  }
  return side;
}

// The column a transform reads and its other arguments as text (e.g. the bucket count).
struct TransformShape {
  std::string column;
  std::string name_and_parameters;
};

std::optional<TransformShape> Shape(const Transform& transform) {
  TransformShape shape;
  std::vector<std::string> parameters;
  for (const auto& argument : transform.arguments()) {
    if (const auto* column = AsColumnName(*argument)) {
      if (!shape.column.empty()) return std::nullopt;
      shape.column = *column;
    } else {
      parameters.push_back(argument->ToString());
    }
  }
  if (shape.column.empty()) return std::nullopt;
  shape.name_and_parameters = fmt::format("{}({})", transform.name(), fmt::join(parameters, ", "));
  return shape;
}

// The key-grouped partitioning of a side's scan; empty when it reports none.
std::vector<std::shared_ptr<Transform>> PartitionKeys(const PlanNode& scan) {
  const auto* reporting =
      dynamic_cast<const SupportsReportPartitioning*>(scan.negotiation->scan.get());
  if (reporting == nullptr) return {};
  return reporting->OutputPartitioning().keys;
}

// Whether some join key pairs the left scan column `left` with the right scan column `right`.
bool JoinKeyPairs(const PlanNode& join, const PartitionedSide& l, const PartitionedSide& r,
                  const std::string& left, const std::string& right) {
  for (const auto& key : join.join_keys) {
    if (key.left->kind != BoundExpr::Kind::kColumn || key.right->kind != BoundExpr::Kind::kColumn) {
      continue;
    }
    auto lc = l.columns.find(key.left->field);
    auto rc = r.columns.find(key.right->field);
    if (lc != l.columns.end() && rc != r.columns.end() && lc->second == left &&
        rc->second == right) {
      return true;
    }
  }
  return false;
}

// Each partition's key as text with its types, by partition index; nullopt when a partition
// reports no key or a key of the wrong arity.
std::optional<std::vector<std::string>> KeyTexts(const PlanNode& scan, size_t arity,
                                                 std::vector<std::string>* types) {
  std::vector<std::string> texts;
  for (const auto& partition : scan.negotiation->partitions) {
    const auto* keyed = dynamic_cast<const HasPartitionKey*>(partition.get());
    if (keyed == nullptr) return std::nullopt;
    auto values = keyed->PartitionKey();
    if (values.size() != arity) return std::nullopt;
    std::vector<std::string> parts, value_types;
    for (const auto& value : values) {
      parts.push_back(value->is_valid ? value->ToString() : "NULL");
      value_types.push_back(value->type->ToString());
    }
    std::string type_text = fmt::format("{}", fmt::join(value_types, ","));
    if (types->empty()) *types = {type_text};
    if ((*types)[0] != type_text) return std::nullopt;
    texts.push_back(fmt::format("{}", fmt::join(parts, "\x1f")));
  }
  return texts;
}

}  // namespace

Result<std::optional<PartitionGroups>> GroupJoinPartitions(const PlanNode& join) {
  if (join.kind != PlanNode::Kind::kJoin || join.join_keys.empty()) return std::nullopt;
  auto left = FindScan(join.children[0].get());
  auto right = FindScan(join.children[1].get());
  if (!left || !right || left->scan == right->scan) return std::nullopt;
  auto left_keys = PartitionKeys(*left->scan);
  auto right_keys = PartitionKeys(*right->scan);
  if (left_keys.empty() || left_keys.size() != right_keys.size()) return std::nullopt;
  PartitionGroups groups;
  for (size_t i = 0; i < left_keys.size(); ++i) {
    auto l = Shape(*left_keys[i]);
    auto r = Shape(*right_keys[i]);
    if (!l || !r || l->name_and_parameters != r->name_and_parameters ||
        !JoinKeyPairs(join, *left, *right, l->column, r->column)) {
      return std::nullopt;
    }
    groups.keys.push_back(left_keys[i]->ToString() + " = " + right_keys[i]->ToString());
  }
  ARROW_RETURN_NOT_OK(PlanScanPartitions(left->scan));
  ARROW_RETURN_NOT_OK(PlanScanPartitions(right->scan));
  std::vector<std::string> left_types, right_types;
  auto left_texts = KeyTexts(*left->scan, left_keys.size(), &left_types);
  auto right_texts = KeyTexts(*right->scan, right_keys.size(), &right_types);
  if (!left_texts || !right_texts) return std::nullopt;
  if (!left_types.empty() && !right_types.empty() && left_types != right_types) {
    return std::nullopt;
  }
  std::map<std::string, std::pair<std::vector<size_t>, std::vector<size_t>>> by_key;
  for (size_t i = 0; i < left_texts->size(); ++i) by_key[(*left_texts)[i]].first.push_back(i);
  for (size_t i = 0; i < right_texts->size(); ++i) by_key[(*right_texts)[i]].second.push_back(i);
  groups.left_scan = left->scan;
  groups.right_scan = right->scan;
  for (auto& [key, sides] : by_key) {
    groups.left.push_back(std::move(sides.first));
    groups.right.push_back(std::move(sides.second));
  }
  return groups;
}

Status MarkStoragePartitionedJoins(const PlanNodePtr& plan) {
  for (const auto& child : plan->children) ARROW_RETURN_NOT_OK(MarkStoragePartitionedJoins(child));
  if (plan->kind != PlanNode::Kind::kJoin) return Status::OK();
  ARROW_ASSIGN_OR_RAISE(auto groups, GroupJoinPartitions(*plan));
  plan->storage_partitioned = groups.has_value();
  return Status::OK();
}

}  // namespace parley
