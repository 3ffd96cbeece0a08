// DmlBinder: DELETE, UPDATE and MERGE as a query over the target's groups that yields every row
// to keep, change or add, each tagged with its RowAction.
#include "analysis/dml_binder.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analysis/analysis_error.h"
#include "analysis/expression_binder.h"
#include "analysis/from_binder.h"
#include "analysis/query_binder.h"
#include "analysis/subquery.h"
#include "analysis/write_binder.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "plan/join_condition.h"

namespace parley {
namespace {

constexpr const char* kTargetPresent = "__target_present";
constexpr const char* kSourcePresent = "__source_present";
constexpr const char* kClause = "__merge_clause";

BoundExprPtr BoolLiteral(bool value) {
  return MakeBoundLiteral(std::make_shared<arrow::BooleanScalar>(value));
}

BoundExprPtr IntLiteral(int32_t value) {
  return MakeBoundLiteral(std::make_shared<arrow::Int32Scalar>(value));
}

BoundExprPtr ActionLiteral(RowAction action) { return IntLiteral(static_cast<int32_t>(action)); }

// `condition` is true (NULL counts as false).
BoundExprPtr IsTrue(const BoundExprPtr& condition) {
  return MakeCall("COALESCE", {condition, BoolLiteral(false)}, arrow::boolean());
}

BoundExprPtr CaseWhen(std::vector<std::pair<BoundExprPtr, BoundExprPtr>> branches,
                      BoundExprPtr otherwise) {
  std::vector<BoundExprPtr> args;
  for (auto& [when, then] : branches) {
    args.push_back(std::move(when));
    args.push_back(std::move(then));
  }
  auto type = otherwise->type;
  args.push_back(std::move(otherwise));
  auto call = std::const_pointer_cast<BoundExpr>(MakeCall("CASE_WHEN", std::move(args), type));
  call->has_else = true;
  return call;
}

BoundExprPtr Field(const OutputField& field) {
  return MakeColumnRef(field.name, field.display, field.type);
}

// A projection of `input` with one output field per (name, expression).
PlanNodePtr Project(const PlanNodePtr& input,
                    const std::vector<std::pair<OutputField, BoundExprPtr>>& items) {
  auto project = std::make_shared<PlanNode>();
  project->kind = PlanNode::Kind::kProject;
  project->children = {input};
  for (const auto& [field, expr] : items) {
    project->output.push_back(field);
    project->exprs.push_back(expr);
  }
  return project;
}

// `input`'s fields unchanged, plus `extra`.
PlanNodePtr Extend(const PlanNodePtr& input,
                   const std::vector<std::pair<OutputField, BoundExprPtr>>& extra) {
  std::vector<std::pair<OutputField, BoundExprPtr>> items;
  for (const auto& field : input->output) items.emplace_back(field, Field(field));
  items.insert(items.end(), extra.begin(), extra.end());
  return Project(input, items);
}

OutputField MakeField(std::string name, std::shared_ptr<arrow::DataType> type,
                      bool nullable = true) {
  return OutputField{name, name, std::move(type), nullable};
}

Status Unsupported(const ResolvedName& name, std::string_view operation, SourcePosition pos) {
  return AnalysisError(
      "UNSUPPORTED_FEATURE.TABLE_OPERATION",
      fmt::format("The feature is not supported: Table {} does not support {}. Please check the "
                  "current catalog and namespace to make sure the qualified table name is "
                  "expected, and also check the catalog implementation which is configured by "
                  "\"spark.sql.catalog.{}\".",
                  name.ToString(), operation, name.catalog ? name.catalog->name() : "<path>"),
      pos);
}

// A delta-based operation's row id, each column resolved among the table's columns and the
// required metadata columns (by name, ignoring case), so the query can carry its values.
Status BindRowId(RowLevelPlan* plan) {
  const std::string table_name = plan->target_name.ToString();
  auto* delta = dynamic_cast<const SupportsDelta*>(plan->operation.get());
  if (delta == nullptr) {
    return InvalidError("CONNECTOR_CONTRACT_VIOLATION.MISSING_DELTA_MIXIN",
                        fmt::format("The row-level operation {} of the table {} is delta-based "
                                    "but does not implement SupportsDelta.",
                                    plan->operation->description(), table_name));
  }
  plan->update_as_delete_and_insert = delta->RepresentUpdateAsDeleteAndInsert();
  for (const auto& wanted : delta->RowId()) {
    const Column* found = nullptr;
    for (const auto* columns : {&plan->columns, &plan->metadata_columns}) {
      for (const auto& column : *columns) {
        if (found == nullptr && EqualsIgnoreCase(column.name, wanted.name)) found = &column;
      }
    }
    if (found == nullptr) {
      return InvalidError(
          "CONNECTOR_CONTRACT_VIOLATION.UNRESOLVED_ROW_ID",
          fmt::format("The delta-based {} of the table {} declares the row id column {}, which "
                      "is neither a column of the table nor one of its required metadata "
                      "columns.",
                      plan->operation->description(), table_name, QuoteIdentifier(wanted.name)));
    }
    plan->row_id_columns.push_back(*found);
  }
  return Status::OK();
}

// The target: loaded, checked, and scanned with every column visible under its qualifier.
struct Target {
  RowLevelPlan plan;
  Scope scope;
};

Result<Target> BindTarget(const sql::QualifiedName& name, const std::string& alias,
                          RowLevelCommand command, CatalogManager* catalogs) {
  ARROW_ASSIGN_OR_RAISE(auto loaded,
                        LoadTableForCommand(name, catalogs, RowLevelCommandName(command)));
  Target target;
  target.plan.command = command;
  target.plan.target_name = loaded.first;
  target.plan.table = loaded.second;
  const Table& table = *loaded.second;
  const bool row_level = dynamic_cast<const SupportsRowLevelOperations*>(&table) != nullptr;
  const bool delete_v2 = dynamic_cast<const SupportsDeleteV2*>(&table) != nullptr;
  if (!row_level && !(command == RowLevelCommand::kDelete && delete_v2)) {
    return Unsupported(loaded.first, RowLevelCommandName(command), name.pos);
  }
  if (row_level && (table.capabilities().count(TableCapability::kBatchRead) == 0 ||
                    dynamic_cast<const SupportsRead*>(&table) == nullptr)) {
    return Unsupported(loaded.first, "batch scan (capability BATCH_READ)", name.pos);
  }
  target.plan.columns = table.columns();
  std::vector<std::string> qualifier;
  if (alias.empty()) {
    if (loaded.first.catalog) qualifier = {loaded.first.catalog->name()};
    for (const auto& part : loaded.first.ident.namespace_path) qualifier.push_back(part);
    qualifier.push_back(loaded.first.ident.name);
  } else {
    qualifier = {alias};
  }
  auto scan = std::make_shared<PlanNode>();
  scan->kind = PlanNode::Kind::kScan;
  scan->table_name = loaded.first;
  scan->table = loaded.second;
  for (const auto& column : target.plan.columns) {
    scan->output.push_back({column.name, column.name, column.type, column.nullable});
    target.scope.push_back({qualifier, column.name, column.name, column.type});
  }
  if (row_level) {
    auto& supports = dynamic_cast<SupportsRowLevelOperations&>(*loaded.second);
    ARROW_ASSIGN_OR_RAISE(auto builder, supports.NewRowLevelOperationBuilder({command, {}}));
    ARROW_ASSIGN_OR_RAISE(target.plan.operation, builder->Build());
    target.plan.metadata_columns = target.plan.operation->RequiredMetadataAttributes();
    target.plan.representation = target.plan.operation->representation();
    if (target.plan.representation == RowLevelRepresentation::kDeltaBased) {
      ARROW_RETURN_NOT_OK(BindRowId(&target.plan));
    } else {
      target.plan.change_rows = target.plan.operation->RequiresChangeRows();
    }
    for (const auto& column : target.plan.metadata_columns) {
      scan->output.push_back({column.name, column.name, column.type, true});
    }
  }
  target.plan.target_scan = scan;
  return target;
}

Result<BoundExprPtr> BindCondition(const sql::Expr& condition, const Scope& scope,
                                   std::string_view clause, const BindOptions& options = {}) {
  ARROW_ASSIGN_OR_RAISE(auto bound, BindExpression(condition, scope, options));
  if (bound->type->id() != arrow::Type::BOOL) {
    return AnalysisError("DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN",
                         fmt::format("Cannot resolve \"{}\" due to data type mismatch: the {} "
                                     "condition has the type \"{}\", not \"BOOLEAN\".",
                                     condition.source_text, clause, SqlTypeName(*bound->type)),
                         condition.pos);
  }
  return bound;
}

// The subqueries of a DELETE's or UPDATE's WHERE, each planned as a value per target row
// (PlanSubqueryValue): joins above the target's scan that keep each of its rows exactly once,
// as Spark's ExistenceJoin, never a semi or anti join that would drop rows. A subquery may be
// correlated with the target's columns.
class WhereSubqueries {
 public:
  WhereSubqueries(const Scope& target_scope, const PlanNode& target_scan, CatalogManager* catalogs)
      : scope_(target_scope), catalogs_(catalogs) {
    outer_.scopes = {&scope_};
    for (const auto& column : scope_) outer_.taken.insert(column.field);
    for (const auto& field : target_scan.output) outer_.taken.insert(field.name);
    outer_.counter = &counter_;
  }

  BindOptions Options() {
    BindOptions options;
    options.subquery_hook = [this](const sql::Expr& expr) { return Bind(expr); };
    return options;
  }

  const std::vector<SubqueryJoin>& joins() const { return joins_; }

  // Whether `expr` reads a value one of the joins adds.
  bool Reads(const BoundExpr& expr) const {
    std::vector<std::string> fields;
    expr.CollectFields(&fields);
    return std::any_of(fields.begin(), fields.end(),
                       [&](const std::string& field) { return outer_.taken.count(field) == 0; });
  }

 private:
  Result<BoundExprPtr> Bind(const sql::Expr& expr) {
    BoundExprPtr in_value;
    if (expr.subquery_kind == sql::SubqueryKind::kIn) {
      ARROW_ASSIGN_OR_RAISE(in_value, BindExpression(*expr.children[0], scope_, Options()));
    }
    auto bind = [&]() { return BindSubquery(*expr.subquery, catalogs_, outer_); };
    return PlanSubqueryValue(expr, in_value, bind, &counter_, &joins_);
  }

  const Scope& scope_;
  CatalogManager* catalogs_;
  OuterQuery outer_;
  int counter_ = 0;
  std::vector<SubqueryJoin> joins_;
};

// The WHERE of a DELETE or UPDATE: whether a target row matches (TRUE; NULL counts as false),
// over the returned input, the target's scan joined with the condition's subqueries. The
// conjuncts that read no subquery are the group filter. A condition with a subquery needs a
// row-level operation (it cannot be a metadata-only delete).
Result<PlanNodePtr> BindWhere(const sql::Expr& where, const Scope& target_scope,
                              CatalogManager* catalogs, RowLevelPlan* plan, BoundExprPtr* matched) {
  WhereSubqueries subqueries(target_scope, *plan->target_scan, catalogs);
  ARROW_ASSIGN_OR_RAISE(auto condition,
                        BindCondition(where, target_scope, "WHERE", subqueries.Options()));
  plan->subquery_condition = !subqueries.joins().empty();
  if (plan->subquery_condition && plan->operation == nullptr) {
    return Unsupported(
        plan->target_name,
        fmt::format("{} with a subquery in its condition", RowLevelCommandName(plan->command)),
        where.pos);
  }
  for (auto& conjunct : SplitConjuncts(condition)) {
    if (!subqueries.Reads(*conjunct)) plan->group_filter.push_back(conjunct);
    if (plan->command == RowLevelCommand::kDelete) plan->delete_conjuncts.push_back(conjunct);
  }
  *matched = IsTrue(condition);
  return ApplySubqueryJoins(plan->target_scan, subqueries.joins());
}

// The target column an assignment names, by index.
Result<size_t> AssignedColumn(const sql::Assignment& assignment, const Scope& target_scope,
                              const std::vector<Column>& columns) {
  ARROW_ASSIGN_OR_RAISE(const ScopeColumn* column,
                        ResolveColumn(assignment.column, target_scope, assignment.pos));
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == column->field) return i;
  }
  return Status::Invalid("assigned column not in the target");
}

// The value of each target column after `assignments` (null: unassigned), store-assigned.
Result<std::vector<BoundExprPtr>> BindAssignments(const std::vector<sql::Assignment>& assignments,
                                                  const Scope& target_scope,
                                                  const Scope& value_scope,
                                                  const RowLevelPlan& plan) {
  std::vector<BoundExprPtr> values(plan.columns.size());
  const std::string table_name = plan.target_name.ToString();
  for (const auto& assignment : assignments) {
    ARROW_ASSIGN_OR_RAISE(size_t index, AssignedColumn(assignment, target_scope, plan.columns));
    if (values[index]) {
      return AnalysisError("DUPLICATE_ASSIGNMENTS",
                           fmt::format("The columns or variables {} appear more than once as "
                                       "assignment targets.",
                                       QuoteIdentifier(plan.columns[index].name)),
                           assignment.pos);
    }
    ARROW_ASSIGN_OR_RAISE(auto value, BindExpression(*assignment.value, value_scope));
    ARROW_ASSIGN_OR_RAISE(values[index],
                          StoreAssign(value, plan.columns[index], table_name, assignment.pos));
  }
  return values;
}

// The target's columns from the scan, then the action, as the plan's query.
PlanNodePtr FinishQuery(const RowLevelPlan& plan, const PlanNodePtr& input,
                        const std::vector<BoundExprPtr>& values, const BoundExprPtr& action) {
  std::vector<std::pair<OutputField, BoundExprPtr>> items;
  for (size_t i = 0; i < plan.columns.size(); ++i) {
    const Column& column = plan.columns[i];
    items.emplace_back(OutputField{fmt::format("_w{}", i), column.name, column.type, true},
                       values[i]);
  }
  items.emplace_back(MakeField(RowLevelPlan::kActionField, arrow::int32(), false), action);
  return Project(input, items);
}

// The values of the table's columns as the target scan reads them.
std::vector<BoundExprPtr> ColumnValues(const RowLevelPlan& plan) {
  std::vector<BoundExprPtr> values;
  for (size_t i = 0; i < plan.columns.size(); ++i) {
    values.push_back(Field(plan.target_scan->output[i]));
  }
  return values;
}

// End the query's output with the target's metadata columns, then its row id columns.
void AppendMetadataColumns(RowLevelPlan* plan) {
  for (const auto& column : plan->metadata_columns) {
    plan->query->output.push_back(MakeField(column.name, column.type));
    plan->query->exprs.push_back(MakeColumnRef(column.name, column.name, column.type));
  }
  for (size_t i = 0; i < plan->row_id_columns.size(); ++i) {
    const Column& column = plan->row_id_columns[i];
    plan->query->output.push_back(
        OutputField{fmt::format("_rid{}", i), column.name, column.type, true});
    plan->query->exprs.push_back(MakeColumnRef(column.name, column.name, column.type));
  }
}

// When the write wants change rows, end the query's output with `originals`, the target's
// columns as read (the pre-images of updated rows).
void AppendPreimages(RowLevelPlan* plan, const std::vector<BoundExprPtr>& originals) {
  if (!plan->change_rows) return;
  for (size_t i = 0; i < plan->columns.size(); ++i) {
    const Column& column = plan->columns[i];
    plan->query->output.push_back(
        OutputField{fmt::format("_pre{}", i), column.name, column.type, true});
    plan->query->exprs.push_back(originals[i]);
  }
}

}  // namespace

Result<RowLevelPlan> BindDelete(const sql::DeleteFrom& statement, CatalogManager* catalogs) {
  ARROW_ASSIGN_OR_RAISE(auto target, BindTarget(statement.table, statement.alias,
                                                RowLevelCommand::kDelete, catalogs));
  RowLevelPlan& plan = target.plan;
  BoundExprPtr matched = BoolLiteral(true);
  PlanNodePtr input = plan.target_scan;
  if (statement.condition) {
    ARROW_ASSIGN_OR_RAISE(input,
                          BindWhere(*statement.condition, target.scope, catalogs, &plan, &matched));
  }
  auto action =
      CaseWhen({{matched, ActionLiteral(RowAction::kDelete)}}, ActionLiteral(RowAction::kCopy));
  plan.query = FinishQuery(plan, input, ColumnValues(plan), action);
  AppendMetadataColumns(&plan);
  return std::move(plan);
}

Result<RowLevelPlan> BindUpdate(const sql::Update& statement, CatalogManager* catalogs) {
  ARROW_ASSIGN_OR_RAISE(auto target, BindTarget(statement.table, statement.alias,
                                                RowLevelCommand::kUpdate, catalogs));
  RowLevelPlan& plan = target.plan;
  BoundExprPtr matched = BoolLiteral(true);
  PlanNodePtr input = plan.target_scan;
  if (statement.condition) {
    ARROW_ASSIGN_OR_RAISE(input,
                          BindWhere(*statement.condition, target.scope, catalogs, &plan, &matched));
  }
  ARROW_ASSIGN_OR_RAISE(auto assigned,
                        BindAssignments(statement.assignments, target.scope, target.scope, plan));
  auto values = ColumnValues(plan);
  for (size_t i = 0; i < values.size(); ++i) {
    if (assigned[i]) values[i] = CaseWhen({{matched, assigned[i]}}, values[i]);
  }
  auto action =
      CaseWhen({{matched, ActionLiteral(RowAction::kUpdate)}}, ActionLiteral(RowAction::kCopy));
  plan.query = FinishQuery(plan, input, values, action);
  AppendMetadataColumns(&plan);
  AppendPreimages(&plan, ColumnValues(plan));
  return std::move(plan);
}

namespace {

// One MERGE clause, bound: when it applies and the row it produces.
struct BoundClause {
  sql::MergeClause::Match match;
  RowAction action;
  BoundExprPtr condition;            // null: always
  std::vector<BoundExprPtr> values;  // kUpdate, kInsert: every column's new value
};

// The source column named like `column` (UPDATE SET * and INSERT *).
Result<BoundExprPtr> SourceColumnFor(const Column& column, const Scope& source_scope,
                                     SourcePosition pos) {
  ARROW_ASSIGN_OR_RAISE(const ScopeColumn* found, ResolveColumn({column.name}, source_scope, pos));
  return MakeColumnRef(found->field, found->name, found->type);
}

// Binding options of a MERGE condition: a subquery in it is UNSUPPORTED_MERGE_CONDITION.SUBQUERY,
// as in Spark; `kind` names the condition (SEARCH for ON, else the clause's action).
BindOptions MergeConditionOptions(const RowLevelPlan& plan, const sql::Expr& condition,
                                  std::string kind) {
  BindOptions options;
  options.subquery_hook = [&plan, &condition, kind](const sql::Expr& expr) -> Result<BoundExprPtr> {
    return AnalysisError("UNSUPPORTED_MERGE_CONDITION.SUBQUERY",
                         fmt::format("MERGE operation into {} contains unsupported {} condition. "
                                     "Subqueries are not allowed: \"{}\".",
                                     plan.target_name.ToString(), kind, condition.source_text),
                         expr.pos);
  };
  return options;
}

Result<BoundClause> BindClause(const sql::MergeClause& clause, const RowLevelPlan& plan,
                               const Scope& target_scope, const Scope& source_scope,
                               const Scope& both) {
  using Match = sql::MergeClause::Match;
  using Action = sql::MergeClause::Action;
  const Scope& scope = clause.match == Match::kMatched              ? both
                       : clause.match == Match::kNotMatchedByTarget ? source_scope
                                                                    : target_scope;
  const std::string table_name = plan.target_name.ToString();
  BoundClause bound;
  bound.match = clause.match;
  if (clause.condition) {
    const char* kind = clause.action == Action::kDelete ? "DELETE"
                       : clause.action == Action::kUpdate || clause.action == Action::kUpdateStar
                           ? "UPDATE"
                           : "INSERT";
    ARROW_ASSIGN_OR_RAISE(bound.condition,
                          BindCondition(*clause.condition, scope, "MERGE clause",
                                        MergeConditionOptions(plan, *clause.condition, kind)));
  }
  switch (clause.action) {
    case Action::kDelete: bound.action = RowAction::kDelete; return bound;
    case Action::kUpdate:
    case Action::kUpdateStar: {
      bound.action = RowAction::kUpdate;
      std::vector<BoundExprPtr> assigned(plan.columns.size());
      if (clause.action == Action::kUpdate) {
        ARROW_ASSIGN_OR_RAISE(assigned,
                              BindAssignments(clause.assignments, target_scope, scope, plan));
      } else {
        for (size_t i = 0; i < plan.columns.size(); ++i) {
          ARROW_ASSIGN_OR_RAISE(auto value,
                                SourceColumnFor(plan.columns[i], source_scope, clause.pos));
          ARROW_ASSIGN_OR_RAISE(assigned[i],
                                StoreAssign(value, plan.columns[i], table_name, clause.pos));
        }
      }
      for (size_t i = 0; i < plan.columns.size(); ++i) {
        bound.values.push_back(
            assigned[i]
                ? assigned[i]
                : MakeColumnRef(plan.columns[i].name, plan.columns[i].name, plan.columns[i].type));
      }
      return bound;
    }
    case Action::kInsert:
    case Action::kInsertStar: {
      bound.action = RowAction::kInsert;
      bound.values.resize(plan.columns.size());
      if (clause.action == Action::kInsertStar) {
        for (size_t i = 0; i < plan.columns.size(); ++i) {
          ARROW_ASSIGN_OR_RAISE(auto value,
                                SourceColumnFor(plan.columns[i], source_scope, clause.pos));
          ARROW_ASSIGN_OR_RAISE(bound.values[i],
                                StoreAssign(value, plan.columns[i], table_name, clause.pos));
        }
        return bound;
      }
      for (size_t i = 0; i < clause.insert_columns.size(); ++i) {
        sql::Assignment assignment;
        assignment.pos = clause.insert_values[i]->pos;
        assignment.column = {clause.insert_columns[i]};
        ARROW_ASSIGN_OR_RAISE(size_t index, AssignedColumn(assignment, target_scope, plan.columns));
        if (bound.values[index]) {
          return AnalysisError("DUPLICATE_ASSIGNMENTS",
                               fmt::format("The columns or variables {} appear more than once "
                                           "as assignment targets.",
                                           QuoteIdentifier(plan.columns[index].name)),
                               assignment.pos);
        }
        ARROW_ASSIGN_OR_RAISE(auto value, BindExpression(*clause.insert_values[i], scope));
        ARROW_ASSIGN_OR_RAISE(bound.values[index],
                              StoreAssign(value, plan.columns[index], table_name, assignment.pos));
      }
      for (size_t i = 0; i < plan.columns.size(); ++i) {
        if (!bound.values[i]) {
          ARROW_ASSIGN_OR_RAISE(bound.values[i],
                                DefaultFor(plan.columns[i], table_name, clause.pos));
        }
      }
      return bound;
    }
  }
  return bound;
}

// Whether every column `expr` reads is one of the target's.
bool ReadsOnlyTarget(const BoundExpr& expr, const std::vector<Column>& columns) {
  std::vector<std::string> fields;
  expr.CollectFields(&fields);
  if (fields.empty()) return false;
  return std::all_of(fields.begin(), fields.end(), [&](const std::string& field) {
    return std::any_of(columns.begin(), columns.end(),
                       [&](const Column& c) { return c.name == field; });
  });
}

}  // namespace

Result<RowLevelPlan> BindMerge(const sql::Merge& statement, CatalogManager* catalogs) {
  using Match = sql::MergeClause::Match;
  ARROW_ASSIGN_OR_RAISE(auto target, BindTarget(statement.target, statement.target_alias,
                                                RowLevelCommand::kMerge, catalogs));
  RowLevelPlan& plan = target.plan;
  const bool any_matched = std::any_of(statement.clauses.begin(), statement.clauses.end(),
                                       [](const auto& c) { return c.match == Match::kMatched; });
  const bool any_insert =
      std::any_of(statement.clauses.begin(), statement.clauses.end(),
                  [](const auto& c) { return c.match == Match::kNotMatchedByTarget; });
  const bool any_by_source =
      std::any_of(statement.clauses.begin(), statement.clauses.end(),
                  [](const auto& c) { return c.match == Match::kNotMatchedBySource; });
  // Several source rows may match one target row only when the sole MATCHED clause is an
  // unconditional DELETE, as in Spark and Delta.
  const bool only_delete =
      std::count_if(statement.clauses.begin(), statement.clauses.end(),
                    [](const auto& c) { return c.match == Match::kMatched; }) == 1 &&
      std::any_of(statement.clauses.begin(), statement.clauses.end(), [](const auto& c) {
        return c.match == Match::kMatched && !c.condition &&
               c.action == sql::MergeClause::Action::kDelete;
      });
  plan.check_cardinality = any_matched && !only_delete;

  // Target side: its columns, a presence marker and the row's number (a target row matched by
  // several source rows is written once; see RowLevelPlan).
  std::vector<std::pair<OutputField, BoundExprPtr>> target_extra = {
      {MakeField(kTargetPresent, arrow::boolean()), BoolLiteral(true)}};
  PlanNodePtr target_side = Extend(plan.target_scan, target_extra);
  {
    auto window = std::make_shared<PlanNode>();
    window->kind = PlanNode::Kind::kWindow;
    window->children = {target_side};
    window->output = target_side->output;
    WindowCall call;
    call.function = "row_number";
    call.type = arrow::int32();
    call.frame.rows = true;
    call.frame.start.type = WindowBound::Type::kUnboundedPreceding;
    call.frame.end.type = WindowBound::Type::kCurrentRow;
    window->window_calls.push_back(call);
    window->output.push_back(MakeField(RowLevelPlan::kTargetRowField, arrow::int32(), false));
    target_side = window;
  }

  // Source side: any relation, its fields renamed apart from the target's.
  ARROW_ASSIGN_OR_RAISE(auto source, BindFromItem(*statement.source, catalogs));
  std::set<std::string> taken;
  for (const auto& field : target_side->output) taken.insert(field.name);
  taken.insert({kSourcePresent, kClause, RowLevelPlan::kActionField, RowLevelPlan::kMatchedField});
  source = RenameApart(std::move(source), taken);
  Scope source_scope = source.scope;
  PlanNodePtr source_side =
      Extend(source.plan, {{MakeField(kSourcePresent, arrow::boolean()), BoolLiteral(true)}});

  Scope both = target.scope;
  both.insert(both.end(), source_scope.begin(), source_scope.end());
  ARROW_ASSIGN_OR_RAISE(auto on,
                        BindCondition(*statement.condition, both, "MERGE ON",
                                      MergeConditionOptions(plan, *statement.condition, "SEARCH")));

  auto join = std::make_shared<PlanNode>();
  join->kind = PlanNode::Kind::kJoin;
  join->join_type = any_insert ? PlanJoinType::kFullOuter : PlanJoinType::kLeftOuter;
  join->children = {target_side, source_side};
  for (auto field : target_side->output) {
    field.nullable = true;
    join->output.push_back(field);
  }
  for (auto field : source_side->output) {
    field.nullable = true;
    join->output.push_back(field);
  }
  AddJoinCondition(join.get(), on);
  if (!any_by_source) {
    for (const auto& conjunct : SplitConjuncts(on)) {
      if (ReadsOnlyTarget(*conjunct, plan.columns)) plan.group_filter.push_back(conjunct);
    }
  }

  std::vector<BoundClause> clauses;
  for (const auto& clause : statement.clauses) {
    ARROW_ASSIGN_OR_RAISE(auto bound, BindClause(clause, plan, target.scope, source_scope, both));
    clauses.push_back(std::move(bound));
  }

  // Which clause applies to each joined row: the first whose kind and condition hold (0: none).
  auto present = [](const char* field) {
    return MakeCall("IS_NOT_NULL", {MakeColumnRef(field, field, arrow::boolean())},
                    arrow::boolean());
  };
  auto target_present = present(kTargetPresent);
  auto source_present = present(kSourcePresent);
  auto matched = MakeCall("AND", {target_present, source_present}, arrow::boolean());
  auto not_matched = MakeCall("NOT", {target_present}, arrow::boolean());
  auto by_source =
      MakeCall("AND", {target_present, MakeCall("NOT", {source_present}, arrow::boolean())},
               arrow::boolean());
  std::vector<std::pair<BoundExprPtr, BoundExprPtr>> selectors;
  for (size_t i = 0; i < clauses.size(); ++i) {
    const auto& kind = clauses[i].match == Match::kMatched              ? matched
                       : clauses[i].match == Match::kNotMatchedByTarget ? not_matched
                                                                        : by_source;
    auto when = clauses[i].condition
                    ? MakeCall("AND", {kind, IsTrue(clauses[i].condition)}, arrow::boolean())
                    : kind;
    selectors.emplace_back(when, IntLiteral(static_cast<int32_t>(i + 1)));
  }
  PlanNodePtr selected =
      Extend(join, {{MakeField(kClause, arrow::int32()), CaseWhen(selectors, IntLiteral(0))}});

  // Each column's value and the row's action by the clause that applies.
  auto clause_is = [](size_t i) {
    return MakeCall(
        "=",
        {MakeColumnRef(kClause, kClause, arrow::int32()), IntLiteral(static_cast<int32_t>(i + 1))},
        arrow::boolean());
  };
  std::vector<BoundExprPtr> values;
  std::vector<BoundExprPtr> originals;
  for (size_t c = 0; c < plan.columns.size(); ++c) {
    std::vector<std::pair<BoundExprPtr, BoundExprPtr>> branches;
    for (size_t i = 0; i < clauses.size(); ++i) {
      if (!clauses[i].values.empty()) branches.emplace_back(clause_is(i), clauses[i].values[c]);
    }
    auto unchanged =
        MakeColumnRef(plan.columns[c].name, plan.columns[c].name, plan.columns[c].type);
    originals.push_back(unchanged);
    values.push_back(branches.empty() ? unchanged : CaseWhen(branches, unchanged));
  }
  std::vector<std::pair<BoundExprPtr, BoundExprPtr>> actions;
  std::vector<BoundExprPtr> matched_clauses;
  for (size_t i = 0; i < clauses.size(); ++i) {
    actions.emplace_back(clause_is(i), ActionLiteral(clauses[i].action));
    if (clauses[i].match == Match::kMatched) matched_clauses.push_back(clause_is(i));
  }
  auto action = CaseWhen(actions, CaseWhen({{target_present, ActionLiteral(RowAction::kCopy)}},
                                           ActionLiteral(RowAction::kDiscard)));
  plan.query = FinishQuery(plan, selected, values, action);
  {
    // NULL for a row that is not a pair of a target and a source row: only pairs repeat.
    BoundExprPtr any = BoolLiteral(false);
    for (const auto& is : matched_clauses) any = MakeCall("OR", {any, is}, arrow::boolean());
    any = CaseWhen({{matched, any}}, MakeBoundLiteral(std::make_shared<arrow::BooleanScalar>()));
    plan.query->output.push_back(MakeField(RowLevelPlan::kTargetRowField, arrow::int32()));
    plan.query->exprs.push_back(MakeColumnRef(RowLevelPlan::kTargetRowField,
                                              RowLevelPlan::kTargetRowField, arrow::int32()));
    plan.query->output.push_back(MakeField(RowLevelPlan::kMatchedField, arrow::boolean()));
    plan.query->exprs.push_back(any);
  }
  AppendMetadataColumns(&plan);
  AppendPreimages(&plan, originals);
  return std::move(plan);
}

}  // namespace parley
