// Plan -> Acero declaration. Scans are materialised by their tasks and enter Acero as table
// sources; each logical operator becomes the matching Acero node.
#include "exec/executor.h"

#include <fmt/format.h>

#include <mutex>

#include "arrow/acero/exec_plan.h"
#include "arrow/acero/options.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/compute/api.h"
#include "arrow/compute/initialize.h"
#include "arrow/table.h"
#include "exec/expression_lowering.h"

namespace parley {
namespace {

namespace ac = arrow::acero;
namespace cp = arrow::compute;

class Lowering {
 public:
  explicit Lowering(const ScanRunOptions& options) : options_(options) {}

  Result<ac::Declaration> Lower(const PlanNodePtr& node) {
    switch (node->kind) {
      case PlanNode::Kind::kScan: {
        ARROW_ASSIGN_OR_RAISE(auto table, RunScanTasks(node.get(), options_, &metrics_));
        return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(table)));
      }
      case PlanNode::Kind::kOneRow: {
        arrow::Int32Builder builder;
        ARROW_RETURN_NOT_OK(builder.Append(0));
        ARROW_ASSIGN_OR_RAISE(auto column, builder.Finish());
        auto table = arrow::Table::Make(
            arrow::schema({arrow::field("__one_row", arrow::int32())}), {column});
        return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(table)));
      }
      case PlanNode::Kind::kFilter: {
        ARROW_ASSIGN_OR_RAISE(auto input, Lower(node->children[0]));
        ARROW_ASSIGN_OR_RAISE(auto condition, LowerExpression(*node->condition));
        return ac::Declaration::Sequence(
            {std::move(input), {"filter", ac::FilterNodeOptions(std::move(condition))}});
      }
      case PlanNode::Kind::kProject: {
        ARROW_ASSIGN_OR_RAISE(auto input, Lower(node->children[0]));
        std::vector<cp::Expression> exprs;
        std::vector<std::string> names;
        for (size_t i = 0; i < node->exprs.size(); ++i) {
          ARROW_ASSIGN_OR_RAISE(auto expr, LowerExpression(*node->exprs[i]));
          exprs.push_back(std::move(expr));
          names.push_back(node->output[i].name);
        }
        return ac::Declaration::Sequence(
            {std::move(input), {"project", ac::ProjectNodeOptions(exprs, names)}});
      }
      case PlanNode::Kind::kDistinct: {
        ARROW_ASSIGN_OR_RAISE(auto input, Lower(node->children[0]));
        std::vector<arrow::FieldRef> keys;
        for (const auto& field : node->output) keys.emplace_back(field.name);
        return ac::Declaration::Sequence(
            {std::move(input), {"aggregate", ac::AggregateNodeOptions({}, std::move(keys))}});
      }
      case PlanNode::Kind::kSort:
        return LowerSort(node);
      case PlanNode::Kind::kLimit: {
        ARROW_ASSIGN_OR_RAISE(auto input, Lower(node->children[0]));
        int64_t count = node->limit.value_or(std::numeric_limits<int64_t>::max());
        return ac::Declaration::Sequence(
            {std::move(input), {"fetch", ac::FetchNodeOptions(node->offset, count)}});
      }
    }
    return Status::Invalid("unknown plan node");
  }

  std::vector<TaskMetrics>& metrics() { return metrics_; }

 private:
  Result<ac::Declaration> LowerSort(const PlanNodePtr& node) {
    ARROW_ASSIGN_OR_RAISE(auto input, Lower(node->children[0]));
    std::vector<cp::SortKey> keys;
    for (const auto& key : node->sort_keys) {
      if (key.expr->kind != BoundExpr::Kind::kColumn) {
        return Status::Invalid("sort keys must be columns of the sort's input");
      }
      keys.emplace_back(key.expr->field,
                        key.ascending ? cp::SortOrder::Ascending : cp::SortOrder::Descending,
                        key.nulls_first ? cp::NullPlacement::AtStart : cp::NullPlacement::AtEnd);
    }
    return ac::Declaration::Sequence(
        {std::move(input), {"order_by", ac::OrderByNodeOptions(cp::Ordering(std::move(keys)))}});
  }

  const ScanRunOptions& options_;
  std::vector<TaskMetrics> metrics_;
};

// Arrow's non-core compute kernels (libarrow_compute) register on first use of the executor.
Status EnsureComputeInitialized() {
  static std::once_flag once;
  static Status status;
  std::call_once(once, [] { status = arrow::compute::Initialize(); });
  return status;
}

}  // namespace

Result<ExecutionResult> ExecutePlan(const PlanNodePtr& plan, const ScanRunOptions& options) {
  ARROW_RETURN_NOT_OK(EnsureComputeInitialized());
  Lowering lowering(options);
  ARROW_ASSIGN_OR_RAISE(auto declaration, lowering.Lower(plan));
  auto table = ac::DeclarationToTable(std::move(declaration), /*use_threads=*/true);
  if (!table.ok()) return ToSparkError(table.status());
  std::vector<std::string> names;
  for (const auto& field : plan->output) names.push_back(field.display);
  ARROW_ASSIGN_OR_RAISE(auto renamed, (*table)->RenameColumns(names));
  return ExecutionResult{std::move(renamed), std::move(lowering.metrics())};
}

}  // namespace parley
