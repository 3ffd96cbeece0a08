// Join pushdown: find the scans under an inner join, alias their columns apart, translate the
// condition, and on acceptance fold the join into the left scan.
#include "plan/join_pushdown.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include <fmt/format.h>

#include "arrow/type.h"
#include "plan/predicate_translation.h"

namespace parley {
namespace {

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// One side of a join: its scan, the scan's join mix-in, and for each field of the side's output
// (in order) the scan column it carries.
struct JoinSide {
  PlanNodePtr scan;
  SupportsPushDownJoin* builder = nullptr;
  std::vector<std::string> columns;
};

// The side below `node` when only column-to-column projections lie between it and a scan whose
// builder takes joins.
std::optional<JoinSide> FindSide(const PlanNodePtr& node) {
  std::vector<std::string> columns;
  for (const auto& field : node->output) columns.push_back(field.name);
  PlanNodePtr current = node;
  while (current->kind == PlanNode::Kind::kProject) {
    std::map<std::string, std::string> below;
    for (size_t i = 0; i < current->exprs.size(); ++i) {
      if (current->exprs[i]->kind != BoundExpr::Kind::kColumn) return std::nullopt;
      below[current->output[i].name] = current->exprs[i]->field;
    }
    for (auto& column : columns) column = below.at(column);
    current = current->children[0];
  }
  if (current->kind != PlanNode::Kind::kScan || !current->negotiation) return std::nullopt;
  auto* builder = dynamic_cast<SupportsPushDownJoin*>(current->negotiation->builder.get());
  if (builder == nullptr) return std::nullopt;
  return JoinSide{current, builder, std::move(columns)};
}

// The join's keys and residual condition as one conjunction over its output's fields.
BoundExprPtr FullCondition(const PlanNode& join) {
  std::vector<BoundExprPtr> conjuncts;
  for (const auto& key : join.join_keys) {
    conjuncts.push_back(
        MakeCall(key.null_safe ? "<=>" : "=", {key.left, key.right}, arrow::boolean()));
  }
  if (join.condition) conjuncts.push_back(join.condition);
  return CombineConjuncts(conjuncts);
}

const std::string& FinalName(const ColumnWithAlias& column) {
  return column.alias.empty() ? column.column : column.alias;
}

// Column references renaming each field of `fields` named in `renames` to its new name.
std::map<std::string, BoundExprPtr> Renames(const std::vector<OutputField>& fields,
                                            const std::map<std::string, std::string>& renames) {
  std::map<std::string, BoundExprPtr> out;
  for (const auto& field : fields) {
    auto it = renames.find(field.name);
    if (it != renames.end()) out[field.name] = MakeColumnRef(it->second, field.display, field.type);
  }
  return out;
}

}  // namespace

void AliasJoinColumns(const std::vector<std::string>& left, const std::vector<std::string>& right,
                      std::vector<ColumnWithAlias>* left_out,
                      std::vector<ColumnWithAlias>* right_out) {
  std::map<std::string, int> uses;
  for (const auto& name : left) ++uses[Lower(name)];
  for (const auto& name : right) ++uses[Lower(name)];
  // Names used once are claimed first: no repeated name may take one of them as its alias.
  std::set<std::string> claimed;
  for (const auto& [name, count] : uses) {
    if (count == 1) claimed.insert(name);
  }
  std::map<std::string, int> next_suffix;
  auto alias = [&](const std::string& name) {
    const std::string key = Lower(name);
    if (uses[key] == 1) return ColumnWithAlias{name, ""};
    int attempt = next_suffix[key];
    std::string candidate = attempt == 0 ? name : fmt::format("{}_{}", name, attempt);
    while (claimed.count(Lower(candidate)) > 0) {
      candidate = fmt::format("{}_{}", name, ++attempt);
    }
    next_suffix[key] = attempt + 1;
    claimed.insert(Lower(candidate));
    return ColumnWithAlias{name, candidate == name ? "" : candidate};
  };
  for (const auto& name : left) left_out->push_back(alias(name));
  for (const auto& name : right) right_out->push_back(alias(name));
}

Result<PlanNodePtr> OfferJoin(const PlanNodePtr& join) {
  if (join->join_type != PlanJoinType::kInner) return join;
  if (join->join_keys.empty() && !join->condition) return join;
  auto left = FindSide(join->children[0]);
  auto right = FindSide(join->children[1]);
  if (!left || !right) return join;
  if (!left->builder->IsOtherSideCompatibleForJoin(*right->builder)) return join;

  std::vector<ColumnWithAlias> left_columns, right_columns;
  AliasJoinColumns(left->columns, right->columns, &left_columns, &right_columns);
  // The join's output is the left side's fields then the right side's, one per column.
  std::vector<ColumnWithAlias> all = left_columns;
  all.insert(all.end(), right_columns.begin(), right_columns.end());
  std::map<std::string, std::string> renames;
  for (size_t i = 0; i < join->output.size(); ++i) {
    renames[join->output[i].name] = FinalName(all[i]);
  }
  BoundExprPtr condition = ReplaceColumns(FullCondition(*join), Renames(join->output, renames));
  PredicatePtr predicate = TranslatePredicate(*condition);
  if (!predicate) return join;
  ARROW_ASSIGN_OR_RAISE(bool accepted,
                        left->builder->PushDownJoin(*right->builder, JoinType::kInner, left_columns,
                                                    right_columns, predicate));
  if (!accepted) return join;

  auto& negotiation = *left->scan->negotiation;
  auto& right_negotiation = *right->scan->negotiation;
  // Predicates each side applies exactly still hold on the joined rows, under the new names.
  auto carry_exact = [&](const JoinSide& side, const std::vector<ColumnWithAlias>& columns,
                         const ScanNegotiation& from,
                         std::vector<std::pair<PredicatePtr, BoundExprPtr>>* out) {
    std::map<std::string, std::string> side_renames;
    for (const auto& column : columns) side_renames[column.column] = FinalName(column);
    auto replacements = Renames(side.scan->output, side_renames);
    for (const auto& [pushed, bound] : from.exact_predicates) {
      out->emplace_back(pushed, ReplaceColumns(bound, replacements));
    }
  };
  std::vector<std::pair<PredicatePtr, BoundExprPtr>> exact;
  carry_exact(*left, left_columns, negotiation, &exact);
  carry_exact(*right, right_columns, right_negotiation, &exact);
  exact.emplace_back(predicate, condition);
  negotiation.exact_predicates = std::move(exact);
  for (auto& pushed : right_negotiation.pushed_joins) {
    negotiation.pushed_joins.push_back(std::move(pushed));
  }
  negotiation.pushed_joins.push_back({right->scan->table_name.ToString(), predicate, left_columns,
                                      right_columns, right_negotiation.pushed_predicates});

  std::vector<OutputField> joined;
  auto project = std::make_shared<PlanNode>();
  project->kind = PlanNode::Kind::kProject;
  project->children = {left->scan};
  project->output = join->output;
  for (size_t i = 0; i < join->output.size(); ++i) {
    OutputField field = join->output[i];
    field.name = FinalName(all[i]);
    project->exprs.push_back(MakeColumnRef(field.name, field.display, field.type));
    joined.push_back(std::move(field));
  }
  negotiation.joined_columns = joined;
  left->scan->output = std::move(joined);
  return project;
}

}  // namespace parley
