// The lowering's dispatch over the plan's operators, and the operators that need no family of
// their own: filters, projections, DISTINCT, unions, limits, sorts, VALUES, windows, samples,
// change post-processing stages, row replication, and shared (reused) results.
#include "exec/lowering.h"

#include <fmt/format.h>

#include <chrono>
#include <limits>

#include "arrow/array/builder_primitive.h"
#include "arrow/array/util.h"
#include "arrow/compute/api.h"
#include "arrow/table.h"
#include "cdc/net_changes_pass.h"
#include "cdc/row_level_pass.h"
#include "exec/expression_lowering.h"
#include "exec/generate.h"
#include "exec/replicate_rows.h"
#include "exec/row_numbering.h"
#include "exec/sample.h"
#include "exec/window_lowering.h"
#include "kernels/spark_errors.h"

namespace parley {

namespace ac = arrow::acero;
namespace cp = arrow::compute;

std::vector<std::pair<std::string, std::string>> AggregateCustomMetrics(
    const Scan& scan, const std::vector<TaskMetrics>& tasks) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& metric : scan.SupportedCustomMetrics()) {
    std::vector<int64_t> values;
    for (const auto& task : tasks) {
      for (const auto& value : task.custom) {
        if (value.name == metric->name()) values.push_back(value.value);
      }
    }
    out.emplace_back(metric->name(), metric->AggregateTaskMetrics(values));
  }
  return out;
}

ac::QueryOptions PlanOptions(const ScanRunOptions& options) {
  ac::QueryOptions query;
  query.memory_pool = options.control.pool();
  return query;
}

Result<std::shared_ptr<arrow::Table>> RunToTable(ac::Declaration declaration,
                                                 const ScanRunOptions& options) {
  auto table = ac::DeclarationToTable(std::move(declaration), PlanOptions(options));
  if (!table.ok()) return ToSparkError(table.status());
  return std::move(table).ValueUnsafe();
}

void Lowering::CollectReuse(const PlanNode& node) {
  if (node.reuses != nullptr) {
    reuse_key_[&node] = node.reuses;
    reuse_key_[node.reuses] = node.reuses;
  }
  for (const auto& child : node.children) CollectReuse(*child);
}

Result<ac::Declaration> Lowering::Lower(const PlanNodePtr& node) {
  if (auto key = reuse_key_.find(node.get()); key != reuse_key_.end()) {
    return LowerReused(node, key->second);
  }
  if (!profile_) return LowerNode(node);
  auto start = std::chrono::steady_clock::now();
  size_t tasks_before = metrics_.size();
  ARROW_ASSIGN_OR_RAISE(auto declaration, LowerNode(node));
  ARROW_ASSIGN_OR_RAISE(auto table, RunToTable(std::move(declaration), options_));
  // A node lowered once per key group of a storage-partitioned join adds up its runs.
  auto& entry = profile_by_node_[node.get()];
  entry.rows_out += table->num_rows();
  entry.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (node->kind == PlanNode::Kind::kScan) {
    entry.tasks.insert(entry.tasks.end(), metrics_.begin() + tasks_before, metrics_.end());
    entry.custom_metrics = AggregateCustomMetrics(*node->negotiation->scan, entry.tasks);
  }
  return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(table)));
}

void Lowering::StopStreams() {
  for (auto& stream : streams_) stream->Stop();
}

Status Lowering::FinishStreams() {
  Status first_error;
  for (auto& stream : streams_) {
    auto metrics = stream->Finish();
    if (!metrics.ok()) {
      if (first_error.ok()) first_error = metrics.status();
      continue;
    }
    metrics_.insert(metrics_.end(), metrics->begin(), metrics->end());
  }
  streams_.clear();
  return first_error;
}

Result<ac::Declaration> Lowering::LowerNode(const PlanNodePtr& node) {
  switch (node->kind) {
    case PlanNode::Kind::kScan: {
      std::optional<cp::Expression> filter;
      if (auto it = row_filters_.find(node.get()); it != row_filters_.end()) {
        filter = it->second;
      }
      if (!profile_) return StreamScan(node, std::move(filter));
      ARROW_ASSIGN_OR_RAISE(auto table, RunScanTasks(node.get(), options_, &metrics_,
                                                     std::move(filter), Subset(node.get())));
      return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(table)));
    }
    case PlanNode::Kind::kOneRow: {
      arrow::Int32Builder builder;
      ARROW_RETURN_NOT_OK(builder.Append(0));
      ARROW_ASSIGN_OR_RAISE(auto column, builder.Finish());
      auto table =
          arrow::Table::Make(arrow::schema({arrow::field("__one_row", arrow::int32())}), {column});
      return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(table)));
    }
    case PlanNode::Kind::kValues: return LowerValues(*node);
    case PlanNode::Kind::kFilter: {
      ARROW_ASSIGN_OR_RAISE(auto condition, LowerExpression(*node->condition));
      if (node->children[0]->kind == PlanNode::Kind::kScan) {
        if (auto it = row_filters_.find(node->children[0].get()); it != row_filters_.end()) {
          condition = cp::and_(it->second, std::move(condition));
        }
        return LowerFilteredScan(node->children[0], std::move(condition));
      }
      ARROW_ASSIGN_OR_RAISE(auto input, Lower(node->children[0]));
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
      MarkUnorderedInput(*node);
      ARROW_ASSIGN_OR_RAISE(auto input, Lower(node->children[0]));
      std::vector<arrow::FieldRef> keys;
      for (const auto& field : node->output) keys.emplace_back(field.name);
      return ac::Declaration::Sequence(
          {std::move(input), {"aggregate", ac::AggregateNodeOptions({}, std::move(keys))}});
    }
    case PlanNode::Kind::kSort: return LowerSort(node);
    case PlanNode::Kind::kAggregate: return LowerAggregate(node);
    case PlanNode::Kind::kJoin: return LowerJoinNode(node);
    case PlanNode::Kind::kChangelogPass: return LowerChangelogPass(*node);
    case PlanNode::Kind::kUnion: {
      std::vector<ac::Declaration::Input> inputs;
      for (const auto& child : node->children) {
        ARROW_ASSIGN_OR_RAISE(auto input, Lower(child));
        inputs.emplace_back(std::move(input));
      }
      return ac::Declaration("union", std::move(inputs), ac::ExecNodeOptions{});
    }
    case PlanNode::Kind::kReplicateRows: return LowerReplicateRows(*node);
    case PlanNode::Kind::kExpand: return LowerExpand(*node);
    case PlanNode::Kind::kSample: {
      // Gathered first: the rows then have one order, so a seed keeps the same rows.
      ARROW_ASSIGN_OR_RAISE(auto input, Gather(node->children[0]));
      ARROW_ASSIGN_OR_RAISE(auto sampled, BernoulliSample(std::move(input), node->sample));
      return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(sampled)));
    }
    case PlanNode::Kind::kGenerate: {
      ARROW_ASSIGN_OR_RAISE(auto input, Gather(node->children[0]));
      ARROW_ASSIGN_OR_RAISE(auto output, ComputeGenerate(*node, input));
      return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(output)));
    }
    case PlanNode::Kind::kWindow: {
      if (IsRowNumbering(*node)) return LowerRowNumbering(*node);
      ARROW_ASSIGN_OR_RAISE(auto input, Gather(node->children[0]));
      ARROW_ASSIGN_OR_RAISE(auto output, ComputeWindow(*node, input));
      return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(output)));
    }
    case PlanNode::Kind::kLimit: {
      ARROW_ASSIGN_OR_RAISE(auto input, Lower(node->children[0]));
      // Acero's fetch needs ordered input. Only a sort (or a table source) provides one;
      // any other input is gathered first, and its table then has an order.
      if (node->children[0]->kind != PlanNode::Kind::kSort && !profile_) {
        ARROW_ASSIGN_OR_RAISE(auto table, RunToTable(std::move(input), options_));
        input = ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(table)));
      }
      int64_t count = node->limit.value_or(std::numeric_limits<int64_t>::max());
      return ac::Declaration::Sequence(
          {std::move(input), {"fetch", ac::FetchNodeOptions(node->offset, count)}});
    }
  }
  return Status::Invalid("unknown plan node");
}

// An aggregation's (or DISTINCT's) result does not depend on the order of its input rows:
// a scan below it, through projections and filters, may stream its batches in any order.
void Lowering::MarkUnorderedInput(const PlanNode& node) {
  const PlanNode* input = node.children[0].get();
  while (input->kind == PlanNode::Kind::kProject || input->kind == PlanNode::Kind::kFilter) {
    input = input->children[0].get();
  }
  if (input->kind == PlanNode::Kind::kScan) unordered_scans_.insert(input);
}

// A change post-processing stage needs all of its input (groups span every batch): the
// row-level stage takes it whole, net changes reads it batch by batch; the result enters the
// parent as a table.
Result<ac::Declaration> Lowering::LowerChangelogPass(const PlanNode& node) {
  ARROW_ASSIGN_OR_RAISE(auto input, Lower(node.children[0]));
  std::shared_ptr<arrow::Table> output;
  if (node.changelog_stage == ChangelogStage::kRowLevel) {
    ARROW_ASSIGN_OR_RAISE(auto table, RunToTable(std::move(input), options_));
    ARROW_ASSIGN_OR_RAISE(output, RunRowLevelStage(table, *node.changelog));
  } else {
    auto reader = ac::DeclarationToReader(std::move(input), PlanOptions(options_));
    if (!reader.ok()) return ToSparkError(reader.status());
    ARROW_ASSIGN_OR_RAISE(output, RunNetChanges(reader->get(), *node.changelog));
  }
  return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(output)));
}

// Row numbers over the whole input, appended to its batches as they stream through
// (exec/row_numbering.h): the input runs as a plan of its own, read on the I/O executor.
Result<ac::Declaration> Lowering::LowerRowNumbering(const PlanNode& node) {
  ARROW_ASSIGN_OR_RAISE(auto input, Lower(node.children[0]));
  auto reader = ac::DeclarationToReader(std::move(input), PlanOptions(options_));
  if (!reader.ok()) return ToSparkError(reader.status());
  std::shared_ptr<arrow::RecordBatchReader> numbered =
      NumberRows(node, std::move(reader).ValueUnsafe());
  return ac::Declaration("record_batch_reader_source",
                         ac::RecordBatchReaderSourceNodeOptions(std::move(numbered)));
}

// The input gathered, then each row repeated by its count (exec/replicate_rows.h).
Result<ac::Declaration> Lowering::LowerReplicateRows(const PlanNode& node) {
  ARROW_ASSIGN_OR_RAISE(auto table, Gather(node.children[0]));
  std::vector<std::string> columns;
  for (const auto& field : node.output) columns.push_back(field.name);
  ARROW_ASSIGN_OR_RAISE(auto output, ReplicateRows(*table, node.replicate_count->field, columns));
  return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(output)));
}

// The rows of the subplan `key` stands for, computed by the first of its uses lowered, each
// use reading them under its own column names.
// With profiling, each use records which node's run computed the rows it reads.
Result<ac::Declaration> Lowering::LowerReused(const PlanNodePtr& node, const PlanNode* key) {
  auto& rows = reused_rows_[key];
  const auto start = std::chrono::steady_clock::now();
  if (rows == nullptr) {
    ARROW_ASSIGN_OR_RAISE(auto declaration, LowerNode(node));
    ARROW_ASSIGN_OR_RAISE(auto table, RunToTable(std::move(declaration), options_));
    rows = std::move(table);
    computed_by_[key] = node.get();
  }
  if (profile_) {
    auto& entry = profile_by_node_[node.get()];
    entry.rows_out += rows->num_rows();
    entry.seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    entry.rows_computed_by = computed_by_[key];
  }
  std::vector<std::string> names;
  for (const auto& field : node->output) names.push_back(field.name);
  ARROW_ASSIGN_OR_RAISE(auto renamed, rows->RenameColumns(names));
  return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(renamed)));
}

// The whole output of `node`, as one table.
Result<std::shared_ptr<arrow::Table>> Lowering::Gather(const PlanNodePtr& node) {
  ARROW_ASSIGN_OR_RAISE(auto input, Lower(node));
  ARROW_ASSIGN_OR_RAISE(auto table, RunToTable(std::move(input), options_));
  return table;
}

// Evaluate each VALUES row over one empty input row and stack the rows into a table.
Result<ac::Declaration> Lowering::LowerValues(const PlanNode& node) {
  auto schema = node.OutputSchema();
  auto one_row = arrow::RecordBatch::Make(arrow::schema({}), 1, arrow::ArrayVector{});
  std::vector<std::shared_ptr<arrow::RecordBatch>> rows;
  for (const auto& row : node.values) {
    arrow::ArrayVector columns;
    for (const auto& value : row) {
      ARROW_ASSIGN_OR_RAISE(auto expr, LowerExpression(*value));
      ARROW_ASSIGN_OR_RAISE(expr, expr.Bind(*one_row->schema()));
      auto datum = cp::ExecuteScalarExpression(expr, cp::ExecBatch(*one_row));
      if (!datum.ok()) return ToSparkError(datum.status());
      std::shared_ptr<arrow::Array> array;
      if (datum->is_scalar()) {
        ARROW_ASSIGN_OR_RAISE(array, arrow::MakeArrayFromScalar(*datum->scalar(), 1));
      } else {
        array = datum->make_array();
      }
      columns.push_back(std::move(array));
    }
    rows.push_back(arrow::RecordBatch::Make(schema, 1, std::move(columns)));
  }
  ARROW_ASSIGN_OR_RAISE(auto table, arrow::Table::FromRecordBatches(schema, rows));
  // One batch, so that the rows are consumed in their order: an aggregate over them then
  // sees them as Spark's single partition does (a sum overflows where Spark's does).
  ARROW_ASSIGN_OR_RAISE(table, table->CombineChunks());
  return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(table)));
}

// Arrow places NaN beside the NULLs, whatever the direction; Spark orders NaN above every
// number. A floating-point key is therefore sorted on whether it is NaN first (a column
// projected for the sort and dropped after it), then on its value.
Result<ac::Declaration> Lowering::LowerSort(const PlanNodePtr& node) {
  ARROW_ASSIGN_OR_RAISE(auto input, Lower(node->children[0]));
  std::vector<cp::SortKey> keys;
  std::vector<cp::Expression> with_nan_keys;
  std::vector<std::string> with_nan_names;
  for (const auto& key : node->sort_keys) {
    if (key.expr->kind != BoundExpr::Kind::kColumn) {
      return Status::Invalid("sort keys must be columns of the sort's input");
    }
    const auto order = key.ascending ? cp::SortOrder::Ascending : cp::SortOrder::Descending;
    const auto nulls = key.nulls_first ? cp::NullPlacement::AtStart : cp::NullPlacement::AtEnd;
    const auto type = key.expr->type->id();
    if (type == arrow::Type::DOUBLE || type == arrow::Type::FLOAT) {
      std::string name = fmt::format("#nan{}", keys.size());
      with_nan_keys.push_back(cp::call("is_nan", {cp::field_ref(key.expr->field)}));
      with_nan_names.push_back(name);
      keys.emplace_back(name, order, nulls);
    }
    keys.emplace_back(key.expr->field, order, nulls);
  }
  if (with_nan_keys.empty()) {
    return ac::Declaration::Sequence(
        {std::move(input), {"order_by", ac::OrderByNodeOptions(cp::Ordering(std::move(keys)))}});
  }
  std::vector<cp::Expression> columns;
  std::vector<std::string> names;
  for (const auto& field : node->children[0]->output) {
    columns.push_back(cp::field_ref(field.name));
    names.push_back(field.name);
  }
  std::vector<cp::Expression> widened = columns;
  std::vector<std::string> widened_names = names;
  widened.insert(widened.end(), with_nan_keys.begin(), with_nan_keys.end());
  widened_names.insert(widened_names.end(), with_nan_names.begin(), with_nan_names.end());
  return ac::Declaration::Sequence(
      {std::move(input),
       {"project", ac::ProjectNodeOptions(std::move(widened), std::move(widened_names))},
       {"order_by", ac::OrderByNodeOptions(cp::Ordering(std::move(keys)))},
       {"project", ac::ProjectNodeOptions(std::move(columns), std::move(names))}});
}

}  // namespace parley
