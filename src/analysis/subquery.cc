// Subquery expressions as joins: scalar values, EXISTS and IN.
#include "analysis/subquery.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/analysis_error.h"
#include "analysis/types.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "plan/join_condition.h"

namespace parley {
namespace {

BoundExprPtr RefTo(const OutputField& field) {
  return MakeColumnRef(field.name, field.display, field.type);
}

BoundExprPtr BooleanLiteral(bool value) {
  return MakeBoundLiteral(std::make_shared<arrow::BooleanScalar>(value));
}

// A CASE WHEN with an ELSE: `args` are condition, value pairs then the ELSE value.
BoundExprPtr CaseWhen(std::vector<BoundExprPtr> args, std::shared_ptr<arrow::DataType> type) {
  auto call = std::make_shared<BoundExpr>(*MakeCall("CASE_WHEN", std::move(args), type));
  call->has_else = true;
  return call;
}

// The one row of `plan`'s first field: its row count and its value (the minimum over at most
// one row), guarded by SCALAR_SUBQUERY_VALUE.
PlanNodePtr SingleValue(const PlanNodePtr& plan, int* counter) {
  const OutputField& value = plan->output[0];
  const int id = ++*counter;
  AggregateCall rows;
  rows.function = "COUNT_STAR";
  rows.type = arrow::int64();
  AggregateCall any;
  any.function = "MIN";
  any.args = {RefTo(value)};
  any.type = value.type;
  auto aggregate = std::make_shared<PlanNode>();
  aggregate->kind = PlanNode::Kind::kAggregate;
  aggregate->children = {plan};
  aggregate->aggregates = {rows, any};
  OutputField rows_field{fmt::format("#s{}_rows", id), rows.ToString(), rows.type, false};
  OutputField any_field{fmt::format("#s{}_any", id), any.ToString(), value.type, true};
  aggregate->output = {rows_field, any_field};
  auto project = std::make_shared<PlanNode>();
  project->kind = PlanNode::Kind::kProject;
  project->children = {aggregate};
  project->exprs = {
      MakeCall("SCALAR_SUBQUERY_VALUE", {RefTo(rows_field), RefTo(any_field)}, value.type)};
  project->output = {{fmt::format("#s{}_value", id), value.display, value.type, true}};
  return project;
}

// `plan` with its first field cast to `type` when that field is untyped (a NULL literal), which
// a join cannot carry.
PlanNodePtr TypeFirstField(const PlanNodePtr& plan, const std::shared_ptr<arrow::DataType>& type) {
  if (plan->output[0].type->id() != arrow::Type::NA) return plan;
  auto project = std::make_shared<PlanNode>();
  project->kind = PlanNode::Kind::kProject;
  project->children = {plan};
  for (const auto& field : plan->output) {
    OutputField out = field;
    project->exprs.push_back(project->exprs.empty() ? CastTo(RefTo(field), type) : RefTo(field));
    if (project->output.empty()) out.type = type;
    project->output.push_back(std::move(out));
  }
  return project;
}

}  // namespace

Result<BoundExprPtr> PlanScalarSubquery(const sql::Expr& expr, BoundSubquery subquery, int* counter,
                                        std::vector<SubqueryJoin>* joins) {
  if (subquery.columns != 1) {
    return AnalysisError(
        "INVALID_SUBQUERY_EXPRESSION.SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN",
        fmt::format("Invalid subquery: Scalar subquery must return only one column, but got "
                    "{}: \"{}\".",
                    subquery.columns, expr.source_text),
        expr.pos);
  }
  subquery.plan = TypeFirstField(subquery.plan, arrow::boolean());
  if (subquery.correlation.empty()) {
    PlanNodePtr right = subquery.one_row ? subquery.plan : SingleValue(subquery.plan, counter);
    joins->push_back({right, PlanJoinType::kCross, nullptr});
    return RefTo(right->output[0]);
  }
  if (!subquery.aggregate) {
    return AnalysisError(
        "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.MUST_AGGREGATE_CORRELATED_SCALAR_SUBQUERY",
        fmt::format("Unsupported subquery expression: Correlated scalar subqueries must be "
                    "aggregated to return at most one row: \"{}\".",
                    expr.source_text),
        expr.pos);
  }
  joins->push_back(
      {subquery.plan, PlanJoinType::kLeftOuter, CombineConjuncts(subquery.correlation)});
  auto value = RefTo(subquery.plan->output[0]);
  if (!subquery.empty_value) return value;
  // A group key is NULL only where no group matched: the value over no rows stands there.
  auto unmatched =
      MakeCall("IS_NULL", {RefTo(subquery.plan->output[subquery.columns])}, arrow::boolean());
  return CaseWhen({unmatched, CastTo(subquery.empty_value, value->type), value}, value->type);
}

namespace {

Status CorrelatedAggregate(const sql::Expr& expr) {
  return AnalysisError("UNSUPPORTED_FEATURE.SUBQUERY",
                       fmt::format("A correlated aggregate under EXISTS or IN is not supported "
                                   "yet: \"{}\".",
                                   expr.source_text),
                       expr.pos);
}

// The (outer side, inner side) of each correlation equality of `subquery`, the inner side over
// its output; an error naming `what` when a conjunct is no such equality.
Result<std::vector<std::pair<BoundExprPtr, BoundExprPtr>>> CorrelationEqualities(
    const sql::Expr& expr, const BoundSubquery& subquery, std::string_view what) {
  std::set<std::string> inner_fields;
  for (const auto& field : subquery.plan->output) inner_fields.insert(field.name);
  auto reads_only = [&](const BoundExpr& side, bool inner) {
    std::vector<std::string> fields;
    side.CollectFields(&fields);
    return !fields.empty() && std::all_of(fields.begin(), fields.end(), [&](const auto& f) {
      return (inner_fields.count(f) > 0) == inner;
    });
  };
  std::vector<std::pair<BoundExprPtr, BoundExprPtr>> equalities;
  for (const auto& conjunct : subquery.correlation) {
    size_t before = equalities.size();
    for (size_t i = 0; conjunct->function == "=" && i < 2 && equalities.size() == before; ++i) {
      const auto& inner = conjunct->args[i];
      const auto& outer = conjunct->args[1 - i];
      if (reads_only(*inner, true) && reads_only(*outer, false)) {
        equalities.emplace_back(outer, inner);
      }
    }
    if (equalities.size() == before) {
      return AnalysisError("UNSUPPORTED_FEATURE.SUBQUERY",
                           fmt::format("{} correlated by other than equalities is supported "
                                       "only as a conjunct of a query's WHERE: \"{}\".",
                                       what, expr.source_text),
                           expr.pos);
    }
  }
  return equalities;
}

// The type `value IN (subquery)` compares in. Errors: IN_SUBQUERY_LENGTH_MISMATCH,
// IN_SUBQUERY_DATA_TYPE_MISMATCH.
Result<std::shared_ptr<arrow::DataType>> InType(const sql::Expr& expr, const BoundExpr& value,
                                                const BoundSubquery& subquery) {
  const auto& output = subquery.plan->output;
  if (subquery.columns != 1) {
    std::vector<std::string> names;
    for (size_t i = 0; i < subquery.columns; ++i) names.push_back(output[i].display);
    return AnalysisError(
        "DATATYPE_MISMATCH.IN_SUBQUERY_LENGTH_MISMATCH",
        fmt::format("Cannot resolve \"{}\" due to data type mismatch: The number of columns in "
                    "the left hand side of an IN subquery does not match the number of columns "
                    "in the output of subquery. Left hand side columns(length: 1): [{}], right "
                    "hand side columns(length: {}): [{}].",
                    expr.source_text, value.ToString(), subquery.columns, fmt::join(names, ", ")),
        expr.pos);
  }
  auto common = CommonType(value.type, output[0].type);
  if (common == nullptr) {
    return AnalysisError(
        "DATATYPE_MISMATCH.IN_SUBQUERY_DATA_TYPE_MISMATCH",
        fmt::format("Cannot resolve \"{}\" due to data type mismatch: The data type of one or "
                    "more elements in the left hand side of an IN subquery is not compatible "
                    "with the data type of the output of the subquery. Left side: [\"{}\"], "
                    "right side: [\"{}\"].",
                    expr.source_text, SqlTypeName(*value.type), SqlTypeName(*output[0].type)),
        expr.pos);
  }
  return common->id() == arrow::Type::NA ? arrow::boolean() : common;
}

// A projection of `plan` to the inner side of each correlation equality (`#s<id>_k<i>`) then
// `extra`; `condition` gains each equality over the projection's key.
PlanNodePtr KeyProjection(const PlanNodePtr& plan,
                          const std::vector<std::pair<BoundExprPtr, BoundExprPtr>>& equalities,
                          int id, std::vector<std::pair<BoundExprPtr, OutputField>> extra,
                          std::vector<BoundExprPtr>* condition) {
  auto project = std::make_shared<PlanNode>();
  project->kind = PlanNode::Kind::kProject;
  project->children = {plan};
  for (size_t i = 0; i < equalities.size(); ++i) {
    const auto& [outer, inner] = equalities[i];
    OutputField key{fmt::format("#s{}_k{}", id, i), inner->ToString(), inner->type, true};
    project->exprs.push_back(inner);
    project->output.push_back(key);
    condition->push_back(MakeCall("=", {outer, RefTo(key)}, arrow::boolean()));
  }
  for (auto& [expr, field] : extra) {
    project->exprs.push_back(std::move(expr));
    project->output.push_back(std::move(field));
  }
  return project;
}

PlanNodePtr DistinctOf(const PlanNodePtr& plan) {
  auto distinct = std::make_shared<PlanNode>();
  distinct->kind = PlanNode::Kind::kDistinct;
  distinct->children = {plan};
  distinct->output = plan->output;
  return distinct;
}

}  // namespace

Result<BoundExprPtr> PlanExistsValue(const sql::Expr& expr, BoundSubquery subquery, int* counter,
                                     std::vector<SubqueryJoin>* joins) {
  if (!subquery.correlation.empty() && subquery.aggregate) return CorrelatedAggregate(expr);
  ARROW_ASSIGN_OR_RAISE(auto equalities, CorrelationEqualities(expr, subquery, "EXISTS"));
  const int id = ++*counter;
  OutputField mark{fmt::format("#s{}_exists", id), "exists", arrow::boolean(), false};
  if (equalities.empty()) {
    AggregateCall rows;
    rows.function = "COUNT_STAR";
    rows.type = arrow::int64();
    auto aggregate = std::make_shared<PlanNode>();
    aggregate->kind = PlanNode::Kind::kAggregate;
    aggregate->children = {subquery.plan};
    aggregate->aggregates = {rows};
    OutputField rows_field{fmt::format("#s{}_rows", id), rows.ToString(), rows.type, false};
    aggregate->output = {rows_field};
    auto project = std::make_shared<PlanNode>();
    project->kind = PlanNode::Kind::kProject;
    project->children = {aggregate};
    project->exprs = {MakeCall(
        ">", {RefTo(rows_field), MakeBoundLiteral(std::make_shared<arrow::Int64Scalar>(0))},
        arrow::boolean())};
    project->output = {mark};
    joins->push_back({project, PlanJoinType::kCross, nullptr});
    return RefTo(mark);
  }
  std::vector<BoundExprPtr> condition;
  auto keys =
      KeyProjection(subquery.plan, equalities, id, {{BooleanLiteral(true), mark}}, &condition);
  joins->push_back({DistinctOf(keys), PlanJoinType::kLeftOuter, CombineConjuncts(condition)});
  return MakeCall("IS_NOT_NULL", {RefTo(mark)}, arrow::boolean());
}

Result<BoundExprPtr> PlanInValue(const sql::Expr& expr, const BoundExprPtr& value,
                                 BoundSubquery match, BoundSubquery count, int* counter,
                                 std::vector<SubqueryJoin>* joins) {
  if (!match.correlation.empty() && match.aggregate) return CorrelatedAggregate(expr);
  ARROW_ASSIGN_OR_RAISE(auto type, InType(expr, *value, match));
  ARROW_ASSIGN_OR_RAISE(auto match_keys, CorrelationEqualities(expr, match, "IN"));
  ARROW_ASSIGN_OR_RAISE(auto count_keys, CorrelationEqualities(expr, count, "IN"));
  const int id = ++*counter;
  auto left = CastTo(value, type);
  // Whether a subquery row equals the value: the distinct (keys, value) pairs, marked.
  OutputField found{fmt::format("#s{}_found", id), "found", arrow::boolean(), false};
  OutputField item{fmt::format("#s{}_v", id), match.plan->output[0].display, type, true};
  std::vector<BoundExprPtr> match_condition;
  auto pairs = KeyProjection(
      match.plan, match_keys, id,
      {{CastTo(RefTo(match.plan->output[0]), type), item}, {BooleanLiteral(true), found}},
      &match_condition);
  match_condition.push_back(MakeCall("=", {left, RefTo(item)}, arrow::boolean()));
  joins->push_back(
      {DistinctOf(pairs), PlanJoinType::kLeftOuter, CombineConjuncts(match_condition)});
  // The subquery's rows and non-NULL values, per correlation key.
  const int count_id = ++*counter;
  OutputField counted{fmt::format("#s{}_cv", count_id), "v", type, true};
  std::vector<BoundExprPtr> count_condition;
  auto values =
      KeyProjection(count.plan, count_keys, count_id,
                    {{CastTo(RefTo(count.plan->output[0]), type), counted}}, &count_condition);
  auto aggregate = std::make_shared<PlanNode>();
  aggregate->kind = PlanNode::Kind::kAggregate;
  aggregate->children = {values};
  for (size_t i = 0; i < count_keys.size(); ++i) {
    aggregate->group_keys.push_back(RefTo(values->output[i]));
    aggregate->output.push_back(values->output[i]);
  }
  AggregateCall rows;
  rows.function = "COUNT_STAR";
  rows.type = arrow::int64();
  AggregateCall non_null;
  non_null.function = "COUNT";
  non_null.args = {RefTo(counted)};
  non_null.type = arrow::int64();
  aggregate->aggregates = {rows, non_null};
  OutputField rows_field{fmt::format("#s{}_rows", count_id), rows.ToString(), rows.type, true};
  OutputField values_field{fmt::format("#s{}_values", count_id), non_null.ToString(), non_null.type,
                           true};
  aggregate->output.push_back(rows_field);
  aggregate->output.push_back(values_field);
  joins->push_back({aggregate, count_keys.empty() ? PlanJoinType::kCross : PlanJoinType::kLeftOuter,
                    CombineConjuncts(count_condition)});
  // Found: true; no row: false; a NULL on either side: NULL; else false.
  auto zero = MakeBoundLiteral(std::make_shared<arrow::Int64Scalar>(0));
  auto no_rows =
      MakeCall("=", {MakeCall("COALESCE", {RefTo(rows_field), zero}, arrow::int64()), zero},
               arrow::boolean());
  auto unknown =
      MakeCall("OR",
               {MakeCall("IS_NULL", {left}, arrow::boolean()),
                MakeCall(">", {RefTo(rows_field), RefTo(values_field)}, arrow::boolean())},
               arrow::boolean());
  return CaseWhen(
      {MakeCall("IS_NOT_NULL", {RefTo(found)}, arrow::boolean()), BooleanLiteral(true), no_rows,
       BooleanLiteral(false), unknown, MakeBoundLiteral(arrow::MakeNullScalar(arrow::boolean())),
       BooleanLiteral(false)},
      arrow::boolean());
}

Result<BoundExprPtr> PlanSubqueryValue(const sql::Expr& expr, const BoundExprPtr& in_value,
                                       const SubqueryBinder& bind, int* counter,
                                       std::vector<SubqueryJoin>* joins) {
  ARROW_ASSIGN_OR_RAISE(auto subquery, bind());
  if (expr.subquery_kind == sql::SubqueryKind::kIn) {
    ARROW_ASSIGN_OR_RAISE(auto count, bind());
    ARROW_ASSIGN_OR_RAISE(auto value, PlanInValue(expr, in_value, std::move(subquery),
                                                  std::move(count), counter, joins));
    return expr.negated ? MakeCall("NOT", {value}, arrow::boolean()) : value;
  }
  if (expr.subquery_kind == sql::SubqueryKind::kExists) {
    return PlanExistsValue(expr, std::move(subquery), counter, joins);
  }
  return PlanScalarSubquery(expr, std::move(subquery), counter, joins);
}

Result<SubqueryJoin> PlanPredicateSubquery(const sql::Expr& expr, const BoundExprPtr& value,
                                           bool negated, BoundSubquery subquery) {
  if (!subquery.correlation.empty() && subquery.aggregate) return CorrelatedAggregate(expr);
  std::vector<BoundExprPtr> conjuncts = subquery.correlation;
  if (value) {
    ARROW_ASSIGN_OR_RAISE(auto common, InType(expr, *value, subquery));
    subquery.plan = TypeFirstField(subquery.plan, common);
    auto equal =
        MakeCall("=", {CastTo(value, common), CastTo(RefTo(subquery.plan->output[0]), common)},
                 arrow::boolean());
    if (negated) {
      equal =
          MakeCall("OR", {equal, MakeCall("IS_NULL", {equal}, arrow::boolean())}, arrow::boolean());
    }
    conjuncts.push_back(equal);
  }
  return SubqueryJoin{subquery.plan, negated ? PlanJoinType::kLeftAnti : PlanJoinType::kLeftSemi,
                      CombineConjuncts(conjuncts)};
}

BoundExprPtr ValueOverNoRows(const PlanNode& aggregate, const BoundExprPtr& value) {
  std::map<std::string, BoundExprPtr> empty;
  bool counted = false;
  const size_t keys = aggregate.group_keys.size();
  for (size_t i = 0; i < aggregate.output.size(); ++i) {
    const auto& field = aggregate.output[i];
    const std::string function = i < keys ? "" : aggregate.aggregates[i - keys].function;
    const bool count = function == "COUNT" || function == "COUNT_STAR";
    counted = counted || count;
    empty[field.name] = MakeBoundLiteral(count ? std::make_shared<arrow::Int64Scalar>(0)
                                               : arrow::MakeNullScalar(field.type));
  }
  return counted ? ReplaceColumns(value, empty) : nullptr;
}

PlanNodePtr ApplySubqueryJoins(PlanNodePtr plan, const std::vector<SubqueryJoin>& joins) {
  for (const auto& spec : joins) {
    auto join = std::make_shared<PlanNode>();
    join->kind = PlanNode::Kind::kJoin;
    join->join_type = spec.type;
    join->children = {plan, spec.right};
    join->output = plan->output;
    if (spec.type != PlanJoinType::kLeftSemi && spec.type != PlanJoinType::kLeftAnti) {
      for (auto field : spec.right->output) {
        field.nullable = field.nullable || spec.type == PlanJoinType::kLeftOuter;
        join->output.push_back(std::move(field));
      }
    }
    if (spec.condition) AddJoinCondition(join.get(), spec.condition);
    plan = join;
  }
  return plan;
}

void CollectConjuncts(const sql::Expr& expr, std::vector<const sql::Expr*>* out) {
  if (expr.kind == sql::ExprKind::kBinary && expr.op == "AND") {
    CollectConjuncts(*expr.children[0], out);
    CollectConjuncts(*expr.children[1], out);
    return;
  }
  out->push_back(&expr);
}

const sql::Expr* AsPredicateSubquery(const sql::Expr& expr, bool* negated) {
  *negated = false;
  const sql::Expr* node = &expr;
  if (expr.kind == sql::ExprKind::kUnary && expr.op == "NOT") {
    node = expr.children[0].get();
    *negated = true;
  }
  if (node->subquery_kind == sql::SubqueryKind::kExists) return node;
  if (node->subquery_kind == sql::SubqueryKind::kIn) {
    if (node->negated) *negated = !*negated;
    return node;
  }
  return nullptr;
}

}  // namespace parley
