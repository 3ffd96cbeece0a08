// The write runner: from a bound WritePlan to a committed (or aborted) write.
#include "exec/write_runner.h"

#include <fmt/format.h>

#include "arrow/array.h"
#include "arrow/compute/cast.h"
#include "arrow/scalar.h"
#include "arrow/util/decimal.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "exec/executor.h"

namespace parley {
namespace {

Status MissingMixin(const WritePlan& plan, std::string_view mixin) {
  return InvalidError("CONNECTOR_CONTRACT_VIOLATION.MISSING_WRITE_MIXIN",
                      fmt::format("The table {} declares the capability for {} but its write "
                                  "builder does not implement {}.",
                                  plan.target_name.ToString(), plan.ModeDescription(), mixin));
}

// Evaluate the static PARTITION values into `column = value` predicates.
Status BuildOverwritePredicates(WritePlan* plan, const ScanRunOptions& options) {
  auto values = std::make_shared<PlanNode>();
  values->kind = PlanNode::Kind::kValues;
  std::vector<BoundExprPtr> row;
  for (size_t i = 0; i < plan->static_partition_values.size(); ++i) {
    const auto& value = plan->static_partition_values[i].second;
    values->output.push_back({fmt::format("_p{}", i), "p", value->type, true});
    row.push_back(value);
  }
  values->values = {row};
  ARROW_ASSIGN_OR_RAISE(auto result, ExecutePlan(values, options));
  plan->overwrite_predicates.clear();
  for (size_t i = 0; i < plan->static_partition_values.size(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto scalar, result.table->column(static_cast<int>(i))->GetScalar(0));
    auto column = FieldReference(plan->static_partition_values[i].first);
    plan->overwrite_predicates.push_back(
        scalar->is_valid ? MakePredicate("=", {column, MakeLiteral(scalar)})
                         : MakePredicate("IS_NULL", {column}));
  }
  return Status::OK();
}

Status ConfigureMode(WritePlan* plan, WriteBuilder* builder) {
  switch (plan->mode) {
    case WritePlan::Mode::kAppend:
      return Status::OK();
    case WritePlan::Mode::kTruncate: {
      auto* truncate = dynamic_cast<SupportsTruncate*>(builder);
      if (truncate == nullptr) return MissingMixin(*plan, "SupportsTruncate");
      return truncate->Truncate();
    }
    case WritePlan::Mode::kOverwriteByFilter: {
      auto* overwrite = dynamic_cast<SupportsOverwriteV2*>(builder);
      if (overwrite == nullptr) return MissingMixin(*plan, "SupportsOverwriteV2");
      if (!overwrite->CanOverwrite(plan->overwrite_predicates)) {
        return InvalidError("UNSUPPORTED_OVERWRITE.TABLE",
                            fmt::format("Can't overwrite the target {}: the table cannot "
                                        "overwrite by the filter {}.",
                                        plan->target_name.ToString(), plan->ModeDescription()));
      }
      return overwrite->Overwrite(plan->overwrite_predicates);
    }
    case WritePlan::Mode::kOverwriteDynamic: {
      auto* dynamic = dynamic_cast<SupportsDynamicOverwrite*>(builder);
      if (dynamic == nullptr) return MissingMixin(*plan, "SupportsDynamicOverwrite");
      return dynamic->OverwriteDynamicPartitions();
    }
  }
  return Status::OK();
}

Status InsertOverflow(const arrow::DataType& from, const Column& column) {
  return InvalidError("CAST_OVERFLOW_IN_TABLE_INSERT",
                      fmt::format("Fail to insert a value of \"{}\" type into the \"{}\" type "
                                  "column {} due to an overflow. Use `try_cast` on the input value "
                                  "to tolerate overflow and return NULL instead.",
                                  SqlTypeName(from), SqlTypeName(*column.type),
                                  QuoteIdentifier(column.name)));
}

// The type a written column had before store assignment cast it.
const arrow::DataType& SourceType(const WritePlan& plan, size_t column) {
  const auto& expr = plan.query->exprs[column];
  if (expr->kind == BoundExpr::Kind::kCall && expr->function == "CAST") return *expr->args[0]->type;
  return *expr->type;
}

// Whether every value of a decimal column fits its type's precision (other types always fit).
bool FitsPrecision(const arrow::ChunkedArray& values, const arrow::DataType& type) {
  if (type.id() != arrow::Type::DECIMAL128) return true;
  const int precision = static_cast<const arrow::Decimal128Type&>(type).precision();
  for (const auto& chunk : values.chunks()) {
    const auto& array = static_cast<const arrow::Decimal128Array&>(*chunk);
    for (int64_t row = 0; row < array.length(); ++row) {
      if (array.IsValid(row) &&
          !arrow::Decimal128(array.GetValue(row)).FitsInPrecision(precision)) {
        return false;
      }
    }
  }
  return true;
}

// Decimal casts from integers keep values that exceed the declared precision; Spark's store
// assignment fails.
Status CheckDecimalPrecision(const WritePlan& plan, const arrow::Table& rows) {
  for (size_t i = 0; i < plan.columns.size(); ++i) {
    if (!FitsPrecision(*rows.column(static_cast<int>(i)), *plan.columns[i].type)) {
      return InsertOverflow(SourceType(plan, i), plan.columns[i]);
    }
  }
  return Status::OK();
}

// A cast overflow while running the write's query: if it came from store assignment (the query
// alone runs, and casting one of its columns to the table's type overflows), report Spark's
// CAST_OVERFLOW_IN_TABLE_INSERT naming the column; otherwise the query's own error stands.
Status DiagnoseOverflow(const WritePlan& plan, const ScanRunOptions& options, Status error) {
  const std::string condition = ErrorCondition(error);
  if (condition != "CAST_OVERFLOW" && condition.rfind("NUMERIC_VALUE_OUT_OF_RANGE", 0) != 0) {
    return error;
  }
  auto query = ExecutePlan(plan.query->children[0], options);
  if (!query.ok()) return error;
  const auto& input = plan.query->children[0]->output;
  for (size_t i = 0; i < plan.columns.size(); ++i) {
    const auto& expr = plan.query->exprs[i];
    if (expr->kind != BoundExpr::Kind::kCall || expr->function != "CAST" ||
        expr->args[0]->kind != BoundExpr::Kind::kColumn) {
      continue;
    }
    for (size_t f = 0; f < input.size(); ++f) {
      if (input[f].name != expr->args[0]->field) continue;
      // The store-assignment cast alone; a decimal fraction that is rounded away is no overflow.
      auto options = arrow::compute::CastOptions::Safe(plan.columns[i].type);
      options.allow_decimal_truncate = true;
      auto cast = arrow::compute::Cast(query->table->column(static_cast<int>(f)), options);
      if (!cast.ok() || !FitsPrecision(*cast->chunked_array(), *plan.columns[i].type)) {
        return InsertOverflow(*expr->args[0]->type, plan.columns[i]);
      }
    }
  }
  return error;
}

}  // namespace

Result<WriteJobResult> RunWrite(WritePlan* plan, const WriteRunOptions& options) {
  if (plan->mode == WritePlan::Mode::kOverwriteByFilter && !plan->static_partition_values.empty()) {
    ARROW_RETURN_NOT_OK(BuildOverwritePredicates(plan, options.scan));
  }
  auto executed = ExecutePlan(plan->query, options.scan);
  if (!executed.ok()) return DiagnoseOverflow(*plan, options.scan, executed.status());
  ExecutionResult result = std::move(executed).ValueUnsafe();
  ARROW_RETURN_NOT_OK(CheckDecimalPrecision(*plan, *result.table));
  auto schema = ColumnsToSchema(plan->columns);
  for (size_t i = 0; i < plan->columns.size(); ++i) {
    if (!plan->columns[i].nullable && result.table->column(static_cast<int>(i))->null_count() > 0) {
      return InvalidError("NOT_NULL_ASSERT_VIOLATION",
                          fmt::format("NULL value appeared in non-nullable field: {} of the table "
                                      "{}.",
                                      QuoteIdentifier(plan->columns[i].name),
                                      plan->target_name.ToString()));
    }
  }
  auto data = arrow::Table::Make(schema, result.table->columns(), result.table->num_rows());

  auto* writable = dynamic_cast<SupportsWrite*>(plan->table.get());
  if (writable == nullptr) return MissingMixin(*plan, "SupportsWrite");
  LogicalWriteInfo info{options.query_id, schema, plan->options};
  ARROW_ASSIGN_OR_RAISE(auto builder, writable->NewWriteBuilder(info));
  ARROW_RETURN_NOT_OK(ConfigureMode(plan, builder.get()));
  ARROW_ASSIGN_OR_RAISE(auto write, builder->Build());
  ARROW_ASSIGN_OR_RAISE(auto partitions, PartitionForWrite(data, *write, options.rows_per_task));
  return RunWriteJob(write.get(), partitions, options.job);
}

}  // namespace parley
