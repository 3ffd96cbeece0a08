// Join -> Acero hashjoin.
#include "exec/join_lowering.h"

#include <fmt/format.h>

#include <algorithm>

#include "arrow/acero/options.h"
#include "arrow/compute/api_scalar.h"
#include "arrow/scalar.h"
#include "arrow/table.h"
#include "exec/expression_lowering.h"
#include "exec/lowering.h"
#include "plan/runtime_filter.h"

namespace parley {
namespace {

namespace ac = arrow::acero;
namespace cp = arrow::compute;

ac::JoinType AceroJoinType(PlanJoinType type) {
  switch (type) {
    case PlanJoinType::kInner:
    case PlanJoinType::kCross: return ac::JoinType::INNER;
    case PlanJoinType::kLeftOuter: return ac::JoinType::LEFT_OUTER;
    case PlanJoinType::kRightOuter: return ac::JoinType::RIGHT_OUTER;
    case PlanJoinType::kFullOuter: return ac::JoinType::FULL_OUTER;
    case PlanJoinType::kLeftSemi: return ac::JoinType::LEFT_SEMI;
    case PlanJoinType::kLeftAnti: return ac::JoinType::LEFT_ANTI;
  }
  return ac::JoinType::INNER;
}

// Acero's join cannot carry struct columns: they cross it as their validity (`name#v`) and
// their fields (`name#0`, `name#1`, ...), and are assembled again after it.
std::string StructPart(const std::string& name, const std::string& part) {
  return name + "#" + part;
}

// The columns that carry `field` across the join.
std::vector<std::string> CarriedNames(const OutputField& field) {
  if (field.type->id() != arrow::Type::STRUCT) return {field.name};
  std::vector<std::string> names = {StructPart(field.name, "v")};
  for (int i = 0; i < field.type->num_fields(); ++i) {
    names.push_back(StructPart(field.name, std::to_string(i)));
  }
  return names;
}

// `field` as the join's output, from the columns that carried it. Its fields become nullable:
// an outer join's missing rows have null structs whose fields are null too.
cp::Expression Assemble(const OutputField& field) {
  if (field.type->id() != arrow::Type::STRUCT) return cp::field_ref(field.name);
  std::vector<cp::Expression> children;
  std::vector<std::string> names;
  std::vector<bool> nullable;
  arrow::FieldVector fields;
  for (int i = 0; i < field.type->num_fields(); ++i) {
    children.push_back(cp::field_ref(StructPart(field.name, std::to_string(i))));
    names.push_back(field.type->field(i)->name());
    nullable.push_back(true);
    fields.push_back(field.type->field(i)->WithNullable(true));
  }
  auto made = cp::call(
      "make_struct", std::move(children),
      cp::MakeStructOptions(
          std::move(names), std::move(nullable),
          std::vector<std::shared_ptr<const arrow::KeyValueMetadata>>(field.type->num_fields())));
  std::vector<cp::Expression> args = {
      cp::field_ref(StructPart(field.name, "v")), std::move(made),
      cp::literal(arrow::MakeNullScalar(arrow::struct_(std::move(fields))))};
  return cp::call("if_else", std::move(args));
}

// One input projected to its fields (structs split, CarriedNames) plus its key columns
// (`prefix`0, `prefix`1, ...); returns the key columns' references through `keys`.
Result<ac::Declaration> WithKeyColumns(ac::Declaration input, const PlanNode& child,
                                       const std::vector<BoundExprPtr>& key_exprs,
                                       const std::string& prefix,
                                       std::vector<arrow::FieldRef>* keys) {
  std::vector<cp::Expression> exprs;
  std::vector<std::string> names;
  for (const auto& field : child.output) {
    if (field.type->id() == arrow::Type::STRUCT) {
      exprs.push_back(cp::call("is_valid", {cp::field_ref(field.name)}));
      for (int i = 0; i < field.type->num_fields(); ++i) {
        exprs.push_back(
            cp::call("struct_field", {cp::field_ref(field.name)}, cp::StructFieldOptions({i})));
      }
    } else {
      exprs.push_back(cp::field_ref(field.name));
    }
    for (auto& name : CarriedNames(field)) names.push_back(std::move(name));
  }
  for (size_t i = 0; i < key_exprs.size(); ++i) {
    std::string name = fmt::format("{}{}", prefix, i);
    ARROW_ASSIGN_OR_RAISE(auto key, LowerExpression(*key_exprs[i]));
    exprs.push_back(NormalizedKey(std::move(key), *key_exprs[i]->type));
    names.push_back(name);
    keys->emplace_back(name);
  }
  return ac::Declaration::Sequence(
      {std::move(input), {"project", ac::ProjectNodeOptions(std::move(exprs), std::move(names))}});
}

bool Outputs(const PlanNode& node, const std::string& name) {
  return std::any_of(node.output.begin(), node.output.end(),
                     [&](const OutputField& f) { return f.name == name; });
}

// The hash join's output as the join's: nothing when it needs no column (the join's output
// then is a key column), the struct columns assembled again when `split`.
ac::Declaration Finish(const PlanNode& join, ac::Declaration joined, bool no_output, bool split) {
  if (no_output) {
    return ac::Declaration::Sequence(
        {std::move(joined), {"project", ac::ProjectNodeOptions({}, {})}});
  }
  if (!split) return joined;
  std::vector<cp::Expression> exprs;
  std::vector<std::string> names;
  for (const auto& field : join.output) {
    exprs.push_back(Assemble(field));
    names.push_back(field.name);
  }
  return ac::Declaration::Sequence(
      {std::move(joined), {"project", ac::ProjectNodeOptions(std::move(exprs), std::move(names))}});
}

}  // namespace

Result<ac::Declaration> LowerJoin(const PlanNode& join, ac::Declaration left,
                                  ac::Declaration right) {
  const PlanNode& left_node = *join.children[0];
  const PlanNode& right_node = *join.children[1];
  std::vector<BoundExprPtr> left_exprs;
  std::vector<BoundExprPtr> right_exprs;
  std::vector<ac::JoinKeyCmp> key_cmp;
  for (const auto& key : join.join_keys) {
    left_exprs.push_back(key.left);
    right_exprs.push_back(key.right);
    key_cmp.push_back(key.null_safe ? ac::JoinKeyCmp::IS : ac::JoinKeyCmp::EQ);
  }
  if (join.join_keys.empty()) {
    auto constant = MakeBoundLiteral(std::make_shared<arrow::Int32Scalar>(0));
    left_exprs.push_back(constant);
    right_exprs.push_back(constant);
    key_cmp.push_back(ac::JoinKeyCmp::EQ);
  }
  std::vector<arrow::FieldRef> left_keys;
  std::vector<arrow::FieldRef> right_keys;
  ARROW_ASSIGN_OR_RAISE(left,
                        WithKeyColumns(std::move(left), left_node, left_exprs, "#lk", &left_keys));
  ARROW_ASSIGN_OR_RAISE(
      right, WithKeyColumns(std::move(right), right_node, right_exprs, "#rk", &right_keys));
  std::vector<arrow::FieldRef> left_output;
  std::vector<arrow::FieldRef> right_output;
  bool split = false;
  for (const auto& field : join.output) {
    auto* side = Outputs(left_node, field.name)    ? &left_output
                 : Outputs(right_node, field.name) ? &right_output
                                                   : nullptr;
    if (side == nullptr) continue;
    split = split || field.type->id() == arrow::Type::STRUCT;
    for (const auto& name : CarriedNames(field)) side->emplace_back(name);
  }
  cp::Expression filter = cp::literal(true);
  if (join.condition) {
    ARROW_ASSIGN_OR_RAISE(filter, LowerExpression(*join.condition));
  }
  // Acero's join outputs at least one column: with none needed (e.g. count(*) over a join)
  // it outputs the first left key, and a projection drops it.
  const bool no_output = left_output.empty() && right_output.empty();
  if (no_output) left_output.push_back(left_keys[0]);
  // Acero builds its hash table on the right input: a semi or anti join the plan builds on its
  // left input (PlanNode::build_left) runs as a right semi or anti join of the swapped inputs.
  const bool semi = join.join_type == PlanJoinType::kLeftSemi;
  if ((semi || join.join_type == PlanJoinType::kLeftAnti) && join.build_left) {
    ac::HashJoinNodeOptions swapped(semi ? ac::JoinType::RIGHT_SEMI : ac::JoinType::RIGHT_ANTI,
                                    std::move(right_keys), std::move(left_keys), {},
                                    std::move(left_output), std::move(key_cmp), std::move(filter));
    return Finish(
        join, ac::Declaration("hashjoin", {std::move(right), std::move(left)}, std::move(swapped)),
        no_output, split);
  }
  ac::HashJoinNodeOptions options(AceroJoinType(join.join_type), std::move(left_keys),
                                  std::move(right_keys), std::move(left_output),
                                  std::move(right_output), std::move(key_cmp), std::move(filter));
  return Finish(
      join, ac::Declaration("hashjoin", {std::move(left), std::move(right)}, std::move(options)),
      no_output, split);
}

// A join with runtime filters (PlanNode::runtime_filters) computes its build side first;
// when that has at most runtime_filter_max_build_rows rows, each target scan is offered the
// build keys before its partitions are planned, and its tasks keep only rows whose key is
// among them. The join then reads the computed build side.
Result<ac::Declaration> Lowering::LowerJoinNode(const PlanNodePtr& node) {
  if (node->storage_partitioned) {
    ARROW_ASSIGN_OR_RAISE(auto groups, GroupJoinPartitions(*node));
    if (groups) return LowerPartitionedJoin(node, *groups);
  }
  if (node->runtime_filters.empty()) {
    ARROW_ASSIGN_OR_RAISE(auto left, Lower(node->children[0]));
    ARROW_ASSIGN_OR_RAISE(auto right, Lower(node->children[1]));
    return LowerJoin(*node, std::move(left), std::move(right));
  }
  const size_t build_child = BuildChild(*node);
  ARROW_ASSIGN_OR_RAISE(auto build_table, Gather(node->children[build_child]));
  std::vector<RuntimeFilterTarget> offered;
  if (build_table->num_rows() <= options_.runtime_filter_max_build_rows) {
    for (const auto& target : node->runtime_filters) {
      const JoinKey& key = node->join_keys[target.key_index];
      ARROW_ASSIGN_OR_RAISE(
          auto filter, MakeRuntimeFilter(*build_table, build_child == 1 ? *key.right : *key.left,
                                         target.column, options_.runtime_filter_max_in_list));
      ARROW_RETURN_NOT_OK(OfferRuntimeFilter(target.scan, filter));
      offered.push_back(target);
    }
  }
  if (profile_) {
    auto& entry = profile_by_node_[node.get()];
    entry.build_rows_first = build_table->num_rows();
    entry.offered_runtime_filters = std::move(offered);
  }
  ac::Declaration build("table_source", ac::TableSourceNodeOptions(std::move(build_table)));
  ARROW_ASSIGN_OR_RAISE(auto probe, Lower(node->children[1 - build_child]));
  if (build_child == 1) return LowerJoin(*node, std::move(probe), std::move(build));
  return LowerJoin(*node, std::move(build), std::move(probe));
}

// A storage-partitioned join (plan/storage_partitioned_join.h): the partitions of each key
// group joined on their own, one group after another, and the groups' rows stacked. A group
// with rows on one side only runs when the join keeps that side's unmatched rows.
Result<ac::Declaration> Lowering::LowerPartitionedJoin(const PlanNodePtr& node,
                                                       const PartitionGroups& groups) {
  const PlanJoinType type = node->join_type;
  const bool keeps_left = type == PlanJoinType::kLeftOuter || type == PlanJoinType::kFullOuter ||
                          type == PlanJoinType::kLeftAnti;
  const bool keeps_right = type == PlanJoinType::kRightOuter || type == PlanJoinType::kFullOuter;
  std::vector<std::shared_ptr<arrow::Table>> tables;
  for (size_t g = 0; g < groups.left.size(); ++g) {
    const bool left_rows = !groups.left[g].empty();
    const bool right_rows = !groups.right[g].empty();
    if (!(left_rows && right_rows) && !(left_rows && keeps_left) && !(right_rows && keeps_right)) {
      continue;
    }
    subsets_[groups.left_scan] = groups.left[g];
    subsets_[groups.right_scan] = groups.right[g];
    ARROW_ASSIGN_OR_RAISE(auto left, Lower(node->children[0]));
    ARROW_ASSIGN_OR_RAISE(auto right, Lower(node->children[1]));
    ARROW_ASSIGN_OR_RAISE(auto joined, LowerJoin(*node, std::move(left), std::move(right)));
    ARROW_ASSIGN_OR_RAISE(auto table, RunToTable(std::move(joined), options_));
    tables.push_back(std::move(table));
  }
  subsets_.erase(groups.left_scan);
  subsets_.erase(groups.right_scan);
  std::shared_ptr<arrow::Table> rows;
  if (tables.empty()) {
    ARROW_ASSIGN_OR_RAISE(rows, arrow::Table::MakeEmpty(node->OutputSchema()));
  } else {
    ARROW_ASSIGN_OR_RAISE(rows, arrow::ConcatenateTables(tables));
  }
  return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(rows)));
}

}  // namespace parley
