// The write runner: from a bound WritePlan to a committed (or aborted) write.
#include "exec/write_runner.h"

#include <fmt/format.h>

#include "arrow/scalar.h"
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

}  // namespace

Result<WriteJobResult> RunWrite(WritePlan* plan, const WriteRunOptions& options) {
  if (plan->mode == WritePlan::Mode::kOverwriteByFilter) {
    ARROW_RETURN_NOT_OK(BuildOverwritePredicates(plan, options.scan));
  }
  ARROW_ASSIGN_OR_RAISE(auto result, ExecutePlan(plan->query, options.scan));
  auto schema = ColumnsToSchema(plan->columns);
  for (size_t i = 0; i < plan->columns.size(); ++i) {
    if (!plan->columns[i].nullable && result.table->column(static_cast<int>(i))->null_count() > 0) {
      return InvalidError("NOT_NULL_ASSERT_VIOLATION",
                          fmt::format("NULL value appeared in non-nullable field {} of the table "
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
