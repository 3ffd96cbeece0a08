// FromBinder: tables, subqueries and joins of the FROM clause.
#include "analysis/from_binder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <random>
#include <set>

#include "analysis/analysis_error.h"
#include "analysis/changes_binder.h"
#include "analysis/generator.h"
#include "analysis/query_binder.h"
#include "analysis/result_clauses.h"
#include "analysis/routine_binder.h"
#include "analysis/sql_function_binder.h"
#include "analysis/types.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "catalog/identifiers.h"
#include "parley/connector/metadata_columns.h"
#include "plan/join_condition.h"
#include "sql/parser.h"

namespace parley {
namespace {

// The views being expanded on this thread (as their errors name them), outermost first: a view
// met again is a cycle (RECURSIVE_VIEW).
thread_local std::vector<std::string> expanding_views;

// While a persistent view's query is bound: where the temporary views it reads are listed.
thread_local std::vector<std::string>* temp_view_references = nullptr;

// How many persistent views are being expanded on this thread: inside one, names never resolve
// to temporary views (a session's temporary view must not change a stored view's meaning).
thread_local int persistent_view_depth = 0;

class PersistentExpansion {
 public:
  explicit PersistentExpansion(bool persistent) : persistent_(persistent) {
    persistent_view_depth += persistent_ ? 1 : 0;
  }
  ~PersistentExpansion() { persistent_view_depth -= persistent_ ? 1 : 0; }

 private:
  bool persistent_;
};

class ViewExpansion {
 public:
  explicit ViewExpansion(std::string name) { expanding_views.push_back(std::move(name)); }
  ~ViewExpansion() { expanding_views.pop_back(); }
};

Status Unsupported(std::string_view what, SourcePosition pos) {
  return AnalysisError("UNSUPPORTED_FEATURE.QUERY_SHAPE",
                       fmt::format("{} is not supported yet.", what), pos);
}

// A table is read only when it declares BATCH_READ and implements SupportsRead; checked at
// analysis so nothing runs against a table that cannot serve the query.
Status CheckBatchRead(const ResolvedName& name, const Table& table, SourcePosition pos) {
  if (table.capabilities().count(TableCapability::kBatchRead) > 0 &&
      dynamic_cast<const SupportsRead*>(&table) != nullptr) {
    return Status::OK();
  }
  return AnalysisError(
      "UNSUPPORTED_FEATURE.TABLE_OPERATION",
      fmt::format("The feature is not supported: Table {} does not support batch scan "
                  "(capability BATCH_READ). Please check the current catalog and namespace to "
                  "make sure the qualified table name is expected, and also check the catalog "
                  "implementation which is configured by \"spark.sql.catalog.{}\".",
                  name.ToString(), name.catalog ? name.catalog->name() : "<path>"),
      pos);
}

PlanJoinType ToPlanJoinType(sql::JoinType type) {
  switch (type) {
    case sql::JoinType::kInner: return PlanJoinType::kInner;
    case sql::JoinType::kCross: return PlanJoinType::kCross;
    case sql::JoinType::kLeftOuter: return PlanJoinType::kLeftOuter;
    case sql::JoinType::kRightOuter: return PlanJoinType::kRightOuter;
    case sql::JoinType::kFullOuter: return PlanJoinType::kFullOuter;
    case sql::JoinType::kLeftSemi: return PlanJoinType::kLeftSemi;
    case sql::JoinType::kLeftAnti: return PlanJoinType::kLeftAnti;
  }
  return PlanJoinType::kInner;
}

bool OutputsLeftOnly(PlanJoinType type) {
  return type == PlanJoinType::kLeftSemi || type == PlanJoinType::kLeftAnti;
}

BoundExprPtr ColumnOf(const ScopeColumn& column) {
  return MakeColumnRef(column.field, column.name, column.type);
}

// `plan` under its TABLESAMPLE, as Spark plans it: a fraction (PERCENT, BUCKET x OUT OF y)
// is a Sample node, `n ROWS` a Limit. Without REPEATABLE the seed is random.
Result<PlanNodePtr> ApplySample(const sql::TableSample& sample, PlanNodePtr plan) {
  auto node = std::make_shared<PlanNode>();
  node->children = {plan};
  node->output = plan->output;
  if (sample.method == sql::SampleMethod::kRows) {
    node->kind = PlanNode::Kind::kLimit;
    ARROW_ASSIGN_OR_RAISE(node->limit, LimitValue(*sample.rows, "limit"));
    return node;
  }
  double fraction =
      sample.method == sql::SampleMethod::kPercent
          ? sample.percent / 100.0
          : static_cast<double>(sample.numerator) / static_cast<double>(sample.denominator);
  // Spark's slack for floating-point rounding (RandomSampler.roundingEpsilon).
  constexpr double kEpsilon = 1e-6;
  if (sample.method == sql::SampleMethod::kBucket && sample.denominator <= 0) {
    return AnalysisError("INVALID_SAMPLING_FRACTION",
                         fmt::format("Sampling fraction ({} OUT OF {}) must be on interval "
                                     "[0, 1]",
                                     sample.numerator, sample.denominator),
                         sample.pos);
  }
  if (fraction < -kEpsilon || fraction > 1 + kEpsilon) {
    return AnalysisError("INVALID_SAMPLING_FRACTION",
                         fmt::format("Sampling fraction ({}) must be on interval [0, 1]", fraction),
                         sample.pos);
  }
  node->kind = PlanNode::Kind::kSample;
  node->sample.upper = std::clamp(fraction, 0.0, 1.0);
  if (sample.seed) {
    node->sample.seed = *sample.seed;
  } else {
    std::random_device device;
    node->sample.seed = static_cast<int64_t>(static_cast<uint64_t>(device()) << 32 | device());
  }
  return node;
}

class FromBinder {
 public:
  FromBinder(CatalogManager* catalogs, const CteScope* ctes) : catalogs_(catalogs), ctes_(ctes) {}

  Result<BoundRelation> Bind(const sql::FromItem& item) {
    BoundRelation relation;
    switch (item.kind) {
      case sql::FromItemKind::kTable: {
        ARROW_ASSIGN_OR_RAISE(relation, BindTable(item));
        break;
      }
      case sql::FromItemKind::kSubquery: {
        if (item.lateral) return Unsupported("A LATERAL subquery", item.pos);
        ARROW_ASSIGN_OR_RAISE(relation.plan, BindSelect(*item.subquery, catalogs_, ctes_));
        for (const auto& field : relation.plan->output) {
          relation.scope.push_back({{}, field.display, field.name, field.type});
        }
        break;
      }
      case sql::FromItemKind::kJoin: {
        ARROW_ASSIGN_OR_RAISE(relation, BindJoin(item));
        break;
      }
      case sql::FromItemKind::kLateralView: {
        ARROW_ASSIGN_OR_RAISE(relation, BindLateralView(item));
        break;
      }
      case sql::FromItemKind::kTableFunction: {
        if (item.name.parts.size() == 1 && (IsGeneratorName(ToLowerAscii(item.name.parts[0])) ||
                                            EqualsIgnoreCase(item.name.parts[0], "range"))) {
          ARROW_ASSIGN_OR_RAISE(relation, BindGeneratorTable(item));
          break;
        }
        if (item.name.parts.size() == 1 && EqualsIgnoreCase(item.name.parts[0], "table_changes")) {
          ARROW_ASSIGN_OR_RAISE(relation, BindTableChanges(item.arguments, item.pos, catalogs_));
          break;
        }
        ARROW_ASSIGN_OR_RAISE(relation, BindTableFunction(item));
        break;
      }
    }
    if (item.sample) {
      ARROW_ASSIGN_OR_RAISE(relation.plan, ApplySample(*item.sample, std::move(relation.plan)));
    }
    return ApplyAlias(item, std::move(relation));
  }

 private:
  // `generator` (as `call` names it) over `input`, its columns in `scope` under `qualifier`
  // and named `columns` (Spark's names when empty).
  Result<BoundRelation> Generate(BoundRelation input, const sql::Expr& call,
                                 BoundGenerator generator, const std::string& qualifier,
                                 const std::vector<std::string>& columns) {
    if (!columns.empty() && columns.size() != generator.columns.size()) {
      return AnalysisError("UDTF_ALIAS_NUMBER_MISMATCH",
                           fmt::format("The number of aliases supplied in the AS clause does not "
                                       "match the number of columns output by the UDTF. "
                                       "Expected {} aliases, but got {}.",
                                       generator.columns.size(), columns.size()),
                           call.pos);
    }
    std::vector<OutputField> outputs;
    BoundRelation out;
    out.scope = std::move(input.scope);
    for (size_t i = 0; i < generator.columns.size(); ++i) {
      const auto& [name, type] = generator.columns[i];
      std::string display = columns.empty() ? name : columns[i];
      std::string field = fmt::format("#generated{}", ++counter_);
      outputs.push_back({field, display, type, true});
      out.scope.push_back({{qualifier}, display, field, type});
    }
    out.plan = MakeGenerateNode(input.plan, generator, outputs,
                                fmt::format("#generator{}_arg", ++counter_));
    return out;
  }

  Result<BoundGenerator> BindGeneratorCall(const sql::Expr& call, const Scope& scope, bool outer) {
    std::vector<BoundExprPtr> args;
    for (const auto& child : call.children) {
      ARROW_ASSIGN_OR_RAISE(auto arg, BindExpression(*child, scope));
      args.push_back(std::move(arg));
    }
    std::string name = ToLowerAscii(call.name_parts.back());
    bool has_outer = name.size() > 6 && name.compare(name.size() - 6, 6, "_outer") == 0;
    if (outer && !has_outer && name != "stack") name += "_outer";
    return BindGenerator(call, name, std::move(args));
  }

  // left LATERAL VIEW [OUTER] generator(...) alias [AS] columns.
  Result<BoundRelation> BindLateralView(const sql::FromItem& item) {
    ARROW_ASSIGN_OR_RAISE(auto left, Bind(*item.left));
    const sql::Expr& call = *item.arguments[0];
    if (call.name_parts.size() != 1 || !IsGeneratorName(ToLowerAscii(call.name_parts[0]))) {
      return AnalysisError("UNSUPPORTED_FEATURE.LATERAL_VIEW",
                           fmt::format("LATERAL VIEW of \"{}\", which is not a generator, is "
                                       "not supported.",
                                       call.source_text),
                           call.pos);
    }
    ARROW_ASSIGN_OR_RAISE(auto generator, BindGeneratorCall(call, left.scope, item.outer));
    return Generate(std::move(left), call, std::move(generator), item.view_alias,
                    item.view_columns);
  }

  // range([start, ]end[, step[, partitions]]): the BIGINTs from start (0) up to end, exclusive,
  // by step (1); constant arguments, numbers cut to integers.
  static Result<BoundGenerator> BindRange(const sql::Expr& call, std::vector<BoundExprPtr> args) {
    if (args.empty() || args.size() > 4) {
      return AnalysisError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                           fmt::format("The `range` requires [1, 2, 3, 4] parameters but the "
                                       "actual number is {}.",
                                       args.size()),
                           call.pos);
    }
    std::vector<int64_t> values;
    for (const auto& arg : args) {
      if (arg->kind != BoundExpr::Kind::kLiteral || !IsNumeric(*arg->type) ||
          !arg->literal->is_valid) {
        return AnalysisError("FAILED_FUNCTION_CALL",
                             "Failed preparing of the function `range` for call. Please, double "
                             "check function's arguments.",
                             call.pos);
      }
      if (arg->type->id() == arrow::Type::DECIMAL128) {
        const auto& decimal = static_cast<const arrow::Decimal128Scalar&>(*arg->literal);
        int32_t scale = static_cast<const arrow::DecimalType&>(*arg->type).scale();
        arrow::Decimal128 whole = decimal.value.ReduceScaleBy(scale, /*round=*/false);
        values.push_back(static_cast<int64_t>(whole.low_bits()));
        continue;
      }
      if (arrow::is_floating(arg->type->id())) {
        ARROW_ASSIGN_OR_RAISE(auto as_double, arg->literal->CastTo(arrow::float64()));
        values.push_back(
            static_cast<int64_t>(static_cast<const arrow::DoubleScalar&>(*as_double).value));
        continue;
      }
      ARROW_ASSIGN_OR_RAISE(auto as_long, arg->literal->CastTo(arrow::int64()));
      values.push_back(static_cast<const arrow::Int64Scalar&>(*as_long).value);
    }
    int64_t start = values.size() == 1 ? 0 : values[0];
    int64_t end = values.size() == 1 ? values[0] : values[1];
    int64_t step = values.size() >= 3 ? values[2] : 1;
    if (step == 0) {
      return AnalysisError("FAILED_FUNCTION_CALL",
                           "Failed preparing of the function `range` for call. Please, double "
                           "check function's arguments.",
                           call.pos);
    }
    BoundGenerator generator;
    generator.function = "range";
    for (int64_t value : {start, end, step}) {
      generator.args.push_back(MakeBoundLiteral(std::make_shared<arrow::Int64Scalar>(value)));
    }
    generator.columns = {{"id", arrow::int64()}};
    return generator;
  }

  // A generator in FROM (`FROM explode(array(1, 2))`), or range: over one empty row.
  Result<BoundRelation> BindGeneratorTable(const sql::FromItem& item) {
    auto one_row = std::make_shared<PlanNode>();
    one_row->kind = PlanNode::Kind::kOneRow;
    sql::Expr call;
    call.kind = sql::ExprKind::kFunction;
    call.pos = item.pos;
    call.name_parts = item.name.parts;
    call.source_text = item.name.parts.back();
    std::vector<BoundExprPtr> args;
    for (const auto& argument : item.arguments) {
      ARROW_ASSIGN_OR_RAISE(auto arg, BindExpression(*argument, Scope{}));
      args.push_back(std::move(arg));
    }
    const std::string name = ToLowerAscii(item.name.parts[0]);
    BoundGenerator generator;
    if (name == "range") {
      ARROW_ASSIGN_OR_RAISE(generator, BindRange(call, std::move(args)));
    } else {
      ARROW_ASSIGN_OR_RAISE(generator, BindGenerator(call, name, std::move(args)));
    }
    BoundRelation input;
    input.plan = one_row;
    return Generate(std::move(input), call, std::move(generator), item.name.parts[0], {});
  }

  // A reference to a CTE: its query bound afresh, its columns named by the CTE's column list.
  Result<BoundRelation> BindCte(const sql::FromItem& item, const CteScope& found) {
    const sql::CommonTableExpr& cte = *found.cte;
    if (item.changes) {
      std::string relation = QuoteIdentifier(item.name.parts[0]);
      return MakeErrorWithParameters(
          arrow::StatusCode::Invalid, "UNSUPPORTED_FEATURE.CHANGE_DATA_CAPTURE_ON_RELATION",
          {{"relationId", relation}},
          fmt::format("The feature is not supported: change data capture on the relation {}, "
                      "which is not a catalog table. (line {}, column {})",
                      relation, item.pos.line, item.pos.column));
    }
    if (item.time_travel) {
      return AnalysisError("UNSUPPORTED_FEATURE.TIME_TRAVEL",
                           fmt::format("The feature is not supported: time travel on the relation "
                                       "{}, which is not a catalog table.",
                                       QuoteIdentifier(cte.name)),
                           item.time_travel->pos);
    }
    BoundRelation relation;
    ARROW_ASSIGN_OR_RAISE(relation.plan, BindSelect(*cte.query, catalogs_, found.parent));
    const auto& output = relation.plan->output;
    if (!cte.column_aliases.empty() && cte.column_aliases.size() != output.size()) {
      return AnalysisError("ASSIGNMENT_ARITY_MISMATCH",
                           fmt::format("The number of columns or variables assigned or aliased: "
                                       "{} does not match the number of source tuples: {}.",
                                       cte.column_aliases.size(), output.size()),
                           cte.pos);
    }
    for (size_t i = 0; i < output.size(); ++i) {
      std::string name = cte.column_aliases.empty() ? output[i].display : cte.column_aliases[i];
      relation.scope.push_back({{cte.name}, name, output[i].name, output[i].type});
    }
    return relation;
  }

  // A view's query bound again in the catalog, namespace and settings it was created with. Its
  // columns are those of its creation: taken by name from what the query returns now and cast
  // to the recorded types (Spark's schema compensation), so a column the tables gained since is
  // left out and one they lost is INCOMPATIBLE_VIEW_SCHEMA_CHANGE. `display` names the view in
  // errors; `qualifier` qualifies its columns.
  Result<BoundRelation> BindView(const sql::FromItem& item, const ViewInfo& view,
                                 const std::string& display, std::vector<std::string> qualifier,
                                 bool persistent) {
    if (item.changes || item.time_travel) {
      return AnalysisError(
          item.changes ? "UNSUPPORTED_FEATURE.CHANGE_DATA_CAPTURE_ON_RELATION"
                       : "UNSUPPORTED_FEATURE.TIME_TRAVEL",
          fmt::format("The feature is not supported: {} on the view {}, which is not a table.",
                      item.changes ? "change data capture" : "time travel", display),
          item.pos);
    }
    ARROW_RETURN_NOT_OK(CheckNotExpanding(display, item.pos));
    ARROW_ASSIGN_OR_RAISE(auto statement, sql::ParseStatement(view.query_text));
    const auto* query = std::get_if<sql::SelectStatement>(&statement.node);
    if (query == nullptr) return Status::Invalid("the view ", display, " holds no query");
    BoundRelation relation;
    {
      ViewExpansion expansion(display);
      PersistentExpansion scope(persistent);
      CatalogManager::CurrentOverride current(catalogs_, view.current_catalog,
                                              view.current_namespace, view.sql_configs);
      ARROW_ASSIGN_OR_RAISE(relation.plan, BindSelect(*query, catalogs_, nullptr));
    }
    const auto& output = relation.plan->output;
    auto project = std::make_shared<PlanNode>();
    project->kind = PlanNode::Kind::kProject;
    project->children = {relation.plan};
    for (size_t i = 0; i < view.query_column_names.size() && i < view.columns.size(); ++i) {
      const std::string& wanted = view.query_column_names[i];
      auto found = std::find_if(output.begin(), output.end(), [&](const OutputField& field) {
        return EqualsIgnoreCase(field.display, wanted);
      });
      if (found == output.end()) {
        std::string unquoted = display;
        std::erase(unquoted, '`');
        return AnalysisError(
            "INCOMPATIBLE_VIEW_SCHEMA_CHANGE",
            fmt::format("The SQL query of view {} has an incompatible schema change and column {} "
                        "cannot be resolved. Expected 1 columns named {} but got [].\nPlease try "
                        "to re-create the view by running: CREATE OR REPLACE VIEW {} AS {}.",
                        display, wanted, wanted, unquoted, view.query_text),
            item.pos);
      }
      const Column& column = view.columns[i];
      BoundExprPtr value = MakeColumnRef(found->name, found->display, found->type);
      OutputField field = *found;
      field.display = column.name;
      if (column.type != nullptr && !found->type->Equals(*column.type)) {
        value = MakeCall("CAST", {value}, column.type);
        field.type = column.type;
      }
      project->exprs.push_back(std::move(value));
      project->output.push_back(field);
    }
    relation.plan = project;
    for (const auto& field : project->output) {
      relation.scope.push_back({qualifier, field.display, field.name, field.type});
    }
    return relation;
  }

  // A call of a table SQL function; any other table-valued function is not supported yet.
  Result<BoundRelation> BindTableFunction(const sql::FromItem& item) {
    ARROW_ASSIGN_OR_RAISE(Routine routine, FindRoutineNamed(item.name.parts));
    const auto* function = dynamic_cast<const SqlFunction*>(routine.function.get());
    if (function == nullptr) return Unsupported("A table-valued function", item.pos);
    BoundRelation relation;
    ARROW_ASSIGN_OR_RAISE(relation.plan, BindSqlTableFunction(item, routine, *function, catalogs_));
    for (const auto& field : relation.plan->output) {
      relation.scope.push_back({{item.name.parts.back()}, field.display, field.name, field.type});
    }
    return relation;
  }

  // RECURSIVE_VIEW when the view `display` is being expanded already (it reaches itself).
  static Status CheckNotExpanding(const std::string& display, SourcePosition pos) {
    auto outer =
        std::find_if(expanding_views.begin(), expanding_views.end(),
                     [&](const std::string& name) { return EqualsIgnoreCase(name, display); });
    if (outer == expanding_views.end()) return Status::OK();
    std::string cycle;
    for (auto it = outer; it != expanding_views.end(); ++it) cycle += *it + " -> ";
    return AnalysisError(
        "RECURSIVE_VIEW",
        fmt::format("Recursive view {} detected (cycle: {}{}).", display, cycle, display), pos);
  }

  Result<BoundRelation> BindTable(const sql::FromItem& item) {
    if (ctes_ != nullptr && item.name.parts.size() == 1) {
      if (const CteScope* found = ctes_->Find(item.name.parts[0])) return BindCte(item, *found);
    }
    if (item.name.parts.size() == 1 && persistent_view_depth == 0) {
      if (const TempView* view = catalogs_->FindTempView(item.name.parts[0])) {
        if (temp_view_references != nullptr) temp_view_references->push_back(item.name.parts[0]);
        return BindView(item, *view, QuoteIdentifier(item.name.parts[0]), {item.name.parts[0]},
                        /*persistent=*/false);
      }
    }
    if (item.name.parts.size() == 2 && persistent_view_depth == 0 &&
        EqualsIgnoreCase(item.name.parts[0], catalogs_->GlobalTempDatabase())) {
      if (auto view = catalogs_->FindGlobalTempView(item.name.parts[1])) {
        if (temp_view_references != nullptr) temp_view_references->push_back(item.name.parts[1]);
        return BindView(item, *view,
                        QuoteIdentifier(catalogs_->GlobalTempDatabase()) + "." +
                            QuoteIdentifier(item.name.parts[1]),
                        {item.name.parts[0], item.name.parts[1]}, /*persistent=*/false);
      }
      return TableNotFound(item.name);
    }
    if (item.changes && item.time_travel) {
      return AnalysisError("INVALID_TIME_TRAVEL_SPEC",
                           "A change read (CHANGES FROM ...) cannot also time travel with AS OF.",
                           item.time_travel->pos);
    }
    if (item.changes) {
      return BindChanges(item.name, ChangesClauseOptions(*item.changes), item.changes->pos,
                         catalogs_);
    }
    ARROW_ASSIGN_OR_RAISE(
        auto found,
        LoadRelationForName(item.name, catalogs_, item.time_travel ? &*item.time_travel : nullptr));
    if (found.view) {
      std::vector<std::string> qualifier = {found.name.catalog->name()};
      for (const auto& part : found.name.ident.namespace_path) qualifier.push_back(part);
      qualifier.push_back(found.name.ident.name);
      return BindView(item, *found.view, found.name.ToString(), std::move(qualifier),
                      /*persistent=*/true);
    }
    std::pair<ResolvedName, std::shared_ptr<Table>> loaded{std::move(found.name),
                                                           std::move(found.table)};
    ARROW_RETURN_NOT_OK(CheckBatchRead(loaded.first, *loaded.second, item.name.pos));
    auto node = std::make_shared<PlanNode>();
    node->kind = PlanNode::Kind::kScan;
    node->table_name = loaded.first;
    node->table = loaded.second;
    std::vector<std::string> qualifier;
    if (loaded.first.catalog) qualifier = {loaded.first.catalog->name()};
    for (const auto& part : loaded.first.ident.namespace_path) qualifier.push_back(part);
    qualifier.push_back(loaded.first.ident.name);
    BoundRelation relation{node, {}};
    for (const auto& column : node->table->columns()) {
      node->output.push_back({column.name, column.name, column.type, column.nullable});
      relation.scope.push_back({qualifier, column.name, column.name, column.type});
    }
    // Metadata columns are hidden: out of `*`, reachable by name unless a data column has it.
    if (auto* metadata = dynamic_cast<const SupportsMetadataColumns*>(node->table.get())) {
      for (const auto& column : metadata->metadataColumns()) {
        auto columns = node->table->columns();
        if (std::any_of(columns.begin(), columns.end(), [&](const Column& data) {
              return EqualsIgnoreCase(data.name, column.name);
            })) {
          continue;
        }
        node->output.push_back({column.name, column.name, column.type, column.nullable});
        relation.scope.push_back({qualifier, column.name, column.name, column.type, true});
      }
    }
    return relation;
  }

  // `AS alias (c1, c2, ...)`: the alias replaces every column's qualifier; column aliases
  // rename the visible columns in order.
  Result<BoundRelation> ApplyAlias(const sql::FromItem& item, BoundRelation relation) {
    if (!item.alias.empty()) {
      for (auto& column : relation.scope) column.qualifier = {item.alias};
    }
    if (item.column_aliases.empty()) return relation;
    size_t visible = std::count_if(relation.scope.begin(), relation.scope.end(),
                                   [](const ScopeColumn& c) { return !c.hidden; });
    if (item.column_aliases.size() != visible) {
      return AnalysisError("ASSIGNMENT_ARITY_MISMATCH",
                           fmt::format("The number of columns or variables assigned or aliased: "
                                       "{} does not match the number of source tuples: {}.",
                                       item.column_aliases.size(), visible),
                           item.pos);
    }
    size_t next = 0;
    for (auto& column : relation.scope) {
      if (!column.hidden) column.name = item.column_aliases[next++];
    }
    return relation;
  }

  std::string FreshName(const std::string& base, const std::set<std::string>& taken) {
    std::string name;
    do {
      name = fmt::format("{}#{}", base, ++counter_);
    } while (taken.count(name) > 0);
    return name;
  }

  // Rename the fields of `right` whose internal names the left input already uses, so that
  // the join's fields have unique names.
  static BoundRelation Disambiguate(BoundRelation right, const PlanNode& left) {
    std::set<std::string> taken;
    for (const auto& field : left.output) taken.insert(field.name);
    return RenameApart(std::move(right), taken);
  }

  Result<BoundRelation> BindJoin(const sql::FromItem& item) {
    ARROW_ASSIGN_OR_RAISE(auto left, Bind(*item.left));
    ARROW_ASSIGN_OR_RAISE(auto right, Bind(*item.right));
    right = Disambiguate(std::move(right), *left.plan);
    auto join = std::make_shared<PlanNode>();
    join->kind = PlanNode::Kind::kJoin;
    join->join_type = ToPlanJoinType(item.join_type);
    join->children = {left.plan, right.plan};
    const PlanJoinType type = join->join_type;
    const bool full = type == PlanJoinType::kFullOuter;
    const bool left_nullable = full || type == PlanJoinType::kRightOuter;
    const bool right_nullable = full || type == PlanJoinType::kLeftOuter;
    for (auto field : left.plan->output) {
      field.nullable = field.nullable || left_nullable;
      join->output.push_back(std::move(field));
    }
    if (!OutputsLeftOnly(type)) {
      for (auto field : right.plan->output) {
        field.nullable = field.nullable || right_nullable;
        join->output.push_back(std::move(field));
      }
    }
    if (item.natural || !item.using_columns.empty()) return BindUsing(item, join, left, right);
    Scope both = left.scope;
    both.insert(both.end(), right.scope.begin(), right.scope.end());
    if (item.condition) {
      ARROW_ASSIGN_OR_RAISE(auto condition, BindExpression(*item.condition, both));
      if (condition->type->id() != arrow::Type::BOOL) {
        return AnalysisError(
            "JOIN_CONDITION_IS_NOT_BOOLEAN_TYPE",
            fmt::format("The join condition \"{}\" has the invalid type \"{}\", "
                        "expected \"BOOLEAN\".",
                        item.condition->source_text, SqlTypeName(*condition->type)),
            item.condition->pos);
      }
      AddJoinCondition(join.get(), condition);
    }
    return BoundRelation{join, OutputsLeftOnly(type) ? left.scope : both};
  }

  // The key column `name` on one side of a USING join: exactly one visible column.
  Result<const ScopeColumn*> UsingColumn(const std::string& name, const Scope& scope,
                                         const char* side, SourcePosition pos) {
    Scope visible;
    for (const auto& column : scope) {
      if (!column.hidden) visible.push_back(column);
    }
    auto found = ResolveColumn({name}, visible, pos);
    if (!found.ok()) {
      if (ErrorCondition(found.status()) == "AMBIGUOUS_REFERENCE") return found.status();
      std::vector<std::string> names;
      for (const auto& column : visible) names.push_back(column.name);
      std::sort(names.begin(), names.end());
      std::vector<std::string> quoted;
      for (const auto& n : names) quoted.push_back(QuoteIdentifier(n));
      return AnalysisError("UNRESOLVED_USING_COLUMN_FOR_JOIN",
                           fmt::format("USING column {} cannot be resolved on the {} side of "
                                       "the join. The {}-side columns: [{}].",
                                       QuoteIdentifier(name), side, side, fmt::join(quoted, ", ")),
                           pos);
    }
    // `visible` is a copy: find the column in the scope itself.
    for (const auto& column : scope) {
      if (!column.hidden && column.field == (*found)->field) return &column;
    }
    return Status::Invalid("USING column lost");
  }

  // USING (k, ...) and NATURAL: keys equal pairwise; the output lists each key once, first
  // (left's copy; right's for RIGHT OUTER; coalesce(left, right) for FULL OUTER), then the
  // other columns of the left, then of the right.
  Result<BoundRelation> BindUsing(const sql::FromItem& item, PlanNodePtr join,
                                  const BoundRelation& left, const BoundRelation& right) {
    std::vector<std::string> names = item.using_columns;
    if (item.natural) {
      for (const auto& column : left.scope) {
        if (column.hidden) continue;
        bool common = std::any_of(right.scope.begin(), right.scope.end(), [&](const auto& r) {
          return !r.hidden && EqualsIgnoreCase(r.name, column.name);
        });
        if (common) names.push_back(column.name);
      }
    }
    std::vector<const ScopeColumn*> left_keys;
    std::vector<const ScopeColumn*> right_keys;
    std::vector<std::shared_ptr<arrow::DataType>> types;
    std::vector<BoundExprPtr> equalities;
    for (const auto& name : names) {
      ARROW_ASSIGN_OR_RAISE(auto l, UsingColumn(name, left.scope, "left", item.pos));
      ARROW_ASSIGN_OR_RAISE(auto r, UsingColumn(name, right.scope, "right", item.pos));
      auto common = CommonType(l->type, r->type);
      if (common == nullptr) {
        return AnalysisError(
            "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES",
            fmt::format("Cannot resolve \"({} = {})\" due to data type mismatch: the left and "
                        "right operands of the binary operator have incompatible types (\"{}\" "
                        "and \"{}\").",
                        QuoteIdentifier(l->name), QuoteIdentifier(r->name), SqlTypeName(*l->type),
                        SqlTypeName(*r->type)),
            item.pos);
      }
      equalities.push_back(MakeCall(
          "=", {CastTo(ColumnOf(*l), common), CastTo(ColumnOf(*r), common)}, arrow::boolean()));
      left_keys.push_back(l);
      right_keys.push_back(r);
      types.push_back(common);
    }
    if (!equalities.empty()) AddJoinCondition(join.get(), CombineConjuncts(equalities));
    const PlanJoinType type = join->join_type;
    BoundRelation relation{join, {}};
    auto is_key = [](const ScopeColumn& column, const std::vector<const ScopeColumn*>& keys) {
      return std::find(keys.begin(), keys.end(), &column) != keys.end();
    };
    auto hidden = [](ScopeColumn column) {
      column.hidden = true;
      return column;
    };
    if (type == PlanJoinType::kFullOuter) {
      auto project = std::make_shared<PlanNode>();
      project->kind = PlanNode::Kind::kProject;
      project->children = {join};
      std::set<std::string> taken;
      for (const auto& field : join->output) {
        taken.insert(field.name);
        project->exprs.push_back(MakeColumnRef(field.name, field.display, field.type));
        project->output.push_back(field);
      }
      for (size_t i = 0; i < names.size(); ++i) {
        auto coalesce = MakeCall(
            "COALESCE",
            {CastTo(ColumnOf(*left_keys[i]), types[i]), CastTo(ColumnOf(*right_keys[i]), types[i])},
            types[i]);
        std::string field = FreshName(left_keys[i]->field, taken);
        taken.insert(field);
        project->exprs.push_back(coalesce);
        project->output.push_back({field, left_keys[i]->name, types[i], true});
        relation.scope.push_back({{}, left_keys[i]->name, field, types[i]});
      }
      relation.plan = project;
    } else {
      const auto& keys = type == PlanJoinType::kRightOuter ? right_keys : left_keys;
      for (const auto* key : keys) relation.scope.push_back(*key);
    }
    for (const auto& column : left.scope) {
      if (!is_key(column, left_keys)) {
        relation.scope.push_back(column);
      } else if (type == PlanJoinType::kRightOuter || type == PlanJoinType::kFullOuter) {
        relation.scope.push_back(hidden(column));
      }
    }
    if (OutputsLeftOnly(type)) return relation;
    for (const auto& column : right.scope) {
      if (!is_key(column, right_keys)) {
        relation.scope.push_back(column);
      } else if (type != PlanJoinType::kRightOuter) {
        relation.scope.push_back(hidden(column));
      }
    }
    return relation;
  }

  CatalogManager* catalogs_;
  const CteScope* ctes_;
  int counter_ = 0;
};

}  // namespace

BoundRelation RenameApart(BoundRelation relation, const std::set<std::string>& taken) {
  const auto& fields = relation.plan->output;
  bool clash = std::any_of(fields.begin(), fields.end(),
                           [&](const OutputField& f) { return taken.count(f.name) > 0; });
  if (!clash) return relation;
  std::set<std::string> used = taken;
  for (const auto& field : fields) used.insert(field.name);
  auto project = std::make_shared<PlanNode>();
  project->kind = PlanNode::Kind::kProject;
  project->children = {relation.plan};
  std::map<std::string, std::string> renamed;
  for (const auto& field : fields) {
    OutputField out = field;
    for (int n = 1; taken.count(out.name) > 0 || (out.name != field.name && used.count(out.name));
         ++n) {
      out.name = fmt::format("{}#{}", field.name, n);
    }
    used.insert(out.name);
    renamed[field.name] = out.name;
    project->exprs.push_back(MakeColumnRef(field.name, field.display, field.type));
    project->output.push_back(std::move(out));
  }
  for (auto& column : relation.scope) column.field = renamed[column.field];
  relation.plan = project;
  return relation;
}

Result<BoundRelation> BindFromItem(const sql::FromItem& item, CatalogManager* catalogs,
                                   const CteScope* ctes) {
  return FromBinder(catalogs, ctes).Bind(item);
}

ViewDefinitionScope::ViewDefinitionScope(std::string display, std::vector<std::string>* temp_views)
    : outer_temp_views_(temp_view_references) {
  expanding_views.push_back(std::move(display));
  temp_view_references = temp_views;
}

ViewDefinitionScope::~ViewDefinitionScope() {
  expanding_views.pop_back();
  temp_view_references = outer_temp_views_;
}

}  // namespace parley
