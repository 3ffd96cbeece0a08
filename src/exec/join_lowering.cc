// Join -> Acero hashjoin.
#include "exec/join_lowering.h"

#include <fmt/format.h>

#include <algorithm>

#include "arrow/acero/options.h"
#include "arrow/scalar.h"
#include "exec/expression_lowering.h"
#include "plan/join_reorder.h"

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

// One input projected to its fields plus its key columns (`prefix`0, `prefix`1, ...); returns
// the key columns' references through `keys`.
Result<ac::Declaration> WithKeyColumns(ac::Declaration input, const PlanNode& child,
                                       const std::vector<BoundExprPtr>& key_exprs,
                                       const std::string& prefix,
                                       std::vector<arrow::FieldRef>* keys) {
  std::vector<cp::Expression> exprs;
  std::vector<std::string> names;
  for (const auto& field : child.output) {
    exprs.push_back(cp::field_ref(field.name));
    names.push_back(field.name);
  }
  for (size_t i = 0; i < key_exprs.size(); ++i) {
    std::string name = fmt::format("{}{}", prefix, i);
    ARROW_ASSIGN_OR_RAISE(auto key, LowerExpression(*key_exprs[i]));
    exprs.push_back(std::move(key));
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
  ARROW_ASSIGN_OR_RAISE(left, WithKeyColumns(std::move(left), left_node, left_exprs, "#lk",
                                             &left_keys));
  ARROW_ASSIGN_OR_RAISE(right, WithKeyColumns(std::move(right), right_node, right_exprs, "#rk",
                                              &right_keys));
  std::vector<arrow::FieldRef> left_output;
  std::vector<arrow::FieldRef> right_output;
  for (const auto& field : join.output) {
    if (Outputs(left_node, field.name)) {
      left_output.emplace_back(field.name);
    } else if (Outputs(right_node, field.name)) {
      right_output.emplace_back(field.name);
    }
  }
  cp::Expression filter = cp::literal(true);
  if (join.condition) {
    ARROW_ASSIGN_OR_RAISE(filter, LowerExpression(*join.condition));
  }
  // Acero's join outputs at least one column: with none needed (e.g. count(*) over a join)
  // it outputs the first left key, and a projection drops it.
  const bool no_output = left_output.empty() && right_output.empty();
  if (no_output) left_output.push_back(left_keys[0]);
  // Acero builds its hash table on the right input: a semi or anti join whose left input is
  // estimated the smaller runs as a right semi or anti join of the swapped inputs.
  const bool semi = join.join_type == PlanJoinType::kLeftSemi;
  if ((semi || join.join_type == PlanJoinType::kLeftAnti) &&
      EstimateRows(left_node) < EstimateRows(right_node)) {
    ac::HashJoinNodeOptions swapped(
        semi ? ac::JoinType::RIGHT_SEMI : ac::JoinType::RIGHT_ANTI, std::move(right_keys),
        std::move(left_keys), {}, std::move(left_output), std::move(key_cmp), std::move(filter));
    ac::Declaration joined("hashjoin", {std::move(right), std::move(left)}, std::move(swapped));
    if (!no_output) return joined;
    return ac::Declaration::Sequence(
        {std::move(joined), {"project", ac::ProjectNodeOptions({}, {})}});
  }
  ac::HashJoinNodeOptions options(AceroJoinType(join.join_type), std::move(left_keys),
                                  std::move(right_keys), std::move(left_output),
                                  std::move(right_output), std::move(key_cmp), std::move(filter));
  ac::Declaration joined("hashjoin", {std::move(left), std::move(right)}, std::move(options));
  if (!no_output) return joined;
  return ac::Declaration::Sequence(
      {std::move(joined), {"project", ac::ProjectNodeOptions({}, {})}});
}

}  // namespace parley
