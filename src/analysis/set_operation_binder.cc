// SetOperationBinder: result types, names, and the plan of each set operator.
#include "analysis/set_operation_binder.h"

#include <fmt/format.h>

#include "analysis/analysis_error.h"
#include "analysis/expression_binder.h"
#include "analysis/query_binder.h"
#include "analysis/types.h"
#include "arrow/scalar.h"
#include "arrow/type.h"

namespace parley {
namespace {

// The operator as Spark's messages name it.
const char* OperatorName(const sql::SetOperation& operation) {
  switch (operation.op) {
    case sql::SetOperator::kUnion: return "UNION";
    case sql::SetOperator::kIntersect: return operation.all ? "INTERSECTALL" : "INTERSECT";
    case sql::SetOperator::kExcept: return operation.all ? "EXCEPTALL" : "EXCEPT";
  }
  return "UNION";
}

// "first", "second", ... for a 1-based position.
std::string Ordinal(size_t n) {
  static const char* kWords[] = {"first", "second",  "third",  "fourth", "fifth",
                                 "sixth", "seventh", "eighth", "ninth",  "tenth"};
  if (n >= 1 && n <= 10) return kWords[n - 1];
  return fmt::format("{}th", n);
}

BoundExprPtr Ref(const OutputField& field) {
  return MakeColumnRef(field.name, field.display, field.type);
}

// `input` projected to the result's types, column i named `prefix`i, then the `extra` columns.
PlanNodePtr Conform(const PlanNodePtr& input, const std::vector<OutputField>& result,
                    const std::string& prefix,
                    const std::vector<std::pair<OutputField, BoundExprPtr>>& extra = {}) {
  auto project = std::make_shared<PlanNode>();
  project->kind = PlanNode::Kind::kProject;
  project->children = {input};
  for (size_t i = 0; i < result.size(); ++i) {
    const OutputField& field = input->output[i];
    project->exprs.push_back(CastTo(Ref(field), result[i].type));
    project->output.push_back(
        {fmt::format("{}{}", prefix, i), result[i].display, result[i].type, field.nullable});
  }
  for (const auto& [field, expr] : extra) {
    project->output.push_back(field);
    project->exprs.push_back(expr);
  }
  return project;
}

PlanNodePtr MakeNode(PlanNode::Kind kind, std::vector<PlanNodePtr> children,
                     std::vector<OutputField> output) {
  auto node = std::make_shared<PlanNode>();
  node->kind = kind;
  node->children = std::move(children);
  node->output = std::move(output);
  return node;
}

PlanNodePtr MakeUnion(PlanNodePtr left, PlanNodePtr right) {
  std::vector<OutputField> output = left->output;
  for (size_t i = 0; i < output.size(); ++i) {
    output[i].nullable = output[i].nullable || right->output[i].nullable;
  }
  return MakeNode(PlanNode::Kind::kUnion, {std::move(left), std::move(right)}, std::move(output));
}

BoundExprPtr Literal(std::shared_ptr<arrow::Scalar> value) {
  return MakeBoundLiteral(std::move(value));
}

// INTERSECT ALL and EXCEPT ALL: each distinct row with how many copies the result keeps.
PlanNodePtr BindAllForm(const sql::SetOperation& operation, const PlanNodePtr& left,
                        const PlanNodePtr& right, const std::vector<OutputField>& result) {
  const bool intersect = operation.op == sql::SetOperator::kIntersect;
  std::vector<std::pair<OutputField, BoundExprPtr>> left_tags;
  std::vector<std::pair<OutputField, BoundExprPtr>> right_tags;
  std::vector<AggregateCall> calls;
  if (intersect) {
    auto yes = Literal(std::make_shared<arrow::BooleanScalar>(true));
    auto no = Literal(arrow::MakeNullScalar(arrow::boolean()));
    OutputField in_left{"#in_left", "#in_left", arrow::boolean(), true};
    OutputField in_right{"#in_right", "#in_right", arrow::boolean(), true};
    left_tags = {{in_left, yes}, {in_right, no}};
    right_tags = {{in_left, no}, {in_right, yes}};
    calls.push_back({"COUNT", {Ref(in_left)}, false, arrow::int64(), nullptr});
    calls.push_back({"COUNT", {Ref(in_right)}, false, arrow::int64(), nullptr});
  } else {
    OutputField sign{"#sign", "#sign", arrow::int64(), false};
    left_tags = {{sign, Literal(std::make_shared<arrow::Int64Scalar>(1))}};
    right_tags = {{sign, Literal(std::make_shared<arrow::Int64Scalar>(-1))}};
    calls.push_back({"SUM", {Ref(sign)}, false, arrow::int64(), nullptr});
  }
  auto both =
      MakeUnion(Conform(left, result, "_u", left_tags), Conform(right, result, "_u", right_tags));
  auto aggregate = MakeNode(PlanNode::Kind::kAggregate, {both}, result);
  for (const auto& field : result) aggregate->group_keys.push_back(Ref(field));
  aggregate->aggregates = calls;
  std::vector<OutputField> counts;
  for (size_t i = 0; i < calls.size(); ++i) {
    counts.push_back({fmt::format("#count{}", i), calls[i].ToString(), arrow::int64(), true});
    aggregate->output.push_back(counts.back());
  }
  auto zero = Literal(std::make_shared<arrow::Int64Scalar>(0));
  std::vector<BoundExprPtr> kept;
  for (const auto& count : counts) {
    kept.push_back(MakeCall(">", {Ref(count), zero}, arrow::boolean()));
  }
  auto filter = MakeNode(PlanNode::Kind::kFilter, {aggregate}, aggregate->output);
  filter->condition = CombineConjuncts(kept);
  PlanNodePtr input = filter;
  OutputField copies = counts[0];
  if (intersect) {
    // The smaller of the two counts.
    auto smaller = std::make_shared<BoundExpr>(
        *MakeCall("CASE_WHEN",
                  {MakeCall("<", {Ref(counts[0]), Ref(counts[1])}, arrow::boolean()),
                   Ref(counts[0]), Ref(counts[1])},
                  arrow::int64()));
    smaller->has_else = true;
    copies = {"#copies", "#copies", arrow::int64(), true};
    auto project = MakeNode(PlanNode::Kind::kProject, {filter}, result);
    for (const auto& field : result) project->exprs.push_back(Ref(field));
    project->output.push_back(copies);
    project->exprs.push_back(smaller);
    input = project;
  }
  auto replicate = MakeNode(PlanNode::Kind::kReplicateRows, {input}, result);
  replicate->replicate_count = Ref(copies);
  return replicate;
}

}  // namespace

Result<PlanNodePtr> BindSetOperation(const sql::SetOperation& operation, CatalogManager* catalogs,
                                     const CteScope* ctes) {
  ARROW_ASSIGN_OR_RAISE(auto left, BindSelect(*operation.left, catalogs, ctes));
  ARROW_ASSIGN_OR_RAISE(auto right, BindSelect(*operation.right, catalogs, ctes));
  const char* name = OperatorName(operation);
  if (left->output.size() != right->output.size()) {
    return AnalysisError("NUM_COLUMNS_MISMATCH",
                         fmt::format("{} can only be performed on inputs with the same number of "
                                     "columns, but the first input has {} columns and the second "
                                     "input has {} columns.",
                                     name, left->output.size(), right->output.size()),
                         operation.pos);
  }
  std::vector<OutputField> result;
  for (size_t i = 0; i < left->output.size(); ++i) {
    const OutputField& l = left->output[i];
    const OutputField& r = right->output[i];
    auto type = CommonType(l.type, r.type);
    if (type == nullptr) {
      return AnalysisError(
          "INCOMPATIBLE_COLUMN_TYPE",
          fmt::format("{} can only be performed on tables with compatible column types. The {} "
                      "column of the second table is \"{}\" type which is not compatible with "
                      "\"{}\" at the same column of the first table.",
                      name, Ordinal(i + 1), SqlTypeName(*r.type), SqlTypeName(*l.type)),
          operation.pos);
    }
    result.push_back({fmt::format("_u{}", i), l.display, type, l.nullable || r.nullable});
  }
  if (operation.op == sql::SetOperator::kUnion) {
    auto both = MakeUnion(Conform(left, result, "_u"), Conform(right, result, "_u"));
    if (operation.all) return both;
    return MakeNode(PlanNode::Kind::kDistinct, {both}, both->output);
  }
  if (operation.all) return BindAllForm(operation, left, right, result);
  auto join = std::make_shared<PlanNode>();
  join->kind = PlanNode::Kind::kJoin;
  join->join_type = operation.op == sql::SetOperator::kIntersect ? PlanJoinType::kLeftSemi
                                                                 : PlanJoinType::kLeftAnti;
  // Each side is made distinct before the join rather than the result after it: the same
  // rows, from a join of distinct rows only.
  auto distinct = [](PlanNodePtr input) {
    auto output = input->output;
    return MakeNode(PlanNode::Kind::kDistinct, {std::move(input)}, std::move(output));
  };
  join->children = {distinct(Conform(left, result, "_u")), distinct(Conform(right, result, "_r"))};
  join->output = join->children[0]->output;
  for (size_t i = 0; i < result.size(); ++i) {
    join->join_keys.push_back(
        {Ref(join->children[0]->output[i]), Ref(join->children[1]->output[i]), /*null_safe=*/true});
  }
  return join;
}

}  // namespace parley
