// Plan -> Acero declaration. Scans enter Acero as sources that their tasks feed while the plan
// runs (with profiling, as tables they gathered first), a filter directly above a scan
// applied by the tasks; each other logical operator becomes the matching Acero node.
#include "exec/executor.h"

#include <fmt/format.h>

#include <chrono>
#include <limits>
#include <map>
#include <mutex>
#include <set>

#include "arrow/acero/exec_plan.h"
#include "arrow/acero/options.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/array/util.h"
#include "arrow/compute/api.h"
#include "arrow/compute/initialize.h"
#include "arrow/dataset/plan.h"
#include "arrow/table.h"
#include "arrow/util/thread_pool.h"
#include "cdc/net_changes_pass.h"
#include "cdc/row_level_pass.h"
#include "exec/expression_lowering.h"
#include "exec/join_lowering.h"
#include "exec/replicate_rows.h"
#include "exec/row_numbering.h"
#include "exec/runtime_filter.h"
#include "exec/sample.h"
#include "exec/scalar_subquery_value.h"
#include "exec/shared_subexpressions.h"
#include "exec/window_lowering.h"
#include "kernels/expression_kernels.h"
#include "kernels/kernels.h"
#include "kernels/spark_errors.h"
#include "plan/runtime_filter.h"
#include "plan/storage_partitioned_join.h"

namespace parley {
namespace {

namespace ac = arrow::acero;
namespace cp = arrow::compute;

// Each scan custom metric aggregated over the scan's tasks, by the scan's CustomMetric.
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

// Acero options of every plan a statement runs: it allocates from the statement's pool.
ac::QueryOptions PlanOptions(const ScanRunOptions& options) {
  ac::QueryOptions query;
  query.memory_pool = options.control.pool();
  return query;
}

// The whole output of `declaration` as one table; runtime errors carry Spark conditions.
Result<std::shared_ptr<arrow::Table>> RunToTable(ac::Declaration declaration,
                                                 const ScanRunOptions& options) {
  auto table = ac::DeclarationToTable(std::move(declaration), PlanOptions(options));
  if (!table.ok()) return ToSparkError(table.status());
  return std::move(table).ValueUnsafe();
}

class Lowering {
 public:
  Lowering(const ScanRunOptions& options, bool profile) : options_(options), profile_(profile) {}

  // With profiling, each operator runs to completion on its own and enters its parent as a
  // table: its rows and time are then known exactly.
  // The nodes the plan marks as reusing another's rows (PlanNode::reuses), and those others,
  // read one computed result (LowerReused).
  void CollectReuse(const PlanNode& node) {
    if (node.reuses != nullptr) {
      reuse_key_[&node] = node.reuses;
      reuse_key_[node.reuses] = node.reuses;
    }
    for (const auto& child : node.children) CollectReuse(*child);
  }

  Result<ac::Declaration> Lower(const PlanNodePtr& node) {
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
    entry.seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (node->kind == PlanNode::Kind::kScan) {
      entry.tasks.insert(entry.tasks.end(), metrics_.begin() + tasks_before, metrics_.end());
      entry.custom_metrics = AggregateCustomMetrics(*node->negotiation->scan, entry.tasks);
    }
    return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(table)));
  }

  // End every streamed scan now (ScanStream::Stop): the plan above them then runs dry.
  void StopStreams() {
    for (auto& stream : streams_) stream->Stop();
  }

  // Wait for the tasks of every streamed scan and append their metrics, in the order the
  // scans started; the first task error, if any. Called once, after the plan ran or failed.
  Status FinishStreams() {
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

  std::map<const PlanNode*, OperatorProfile>& profile() { return profile_by_node_; }
  std::vector<TaskMetrics>& metrics() { return metrics_; }

 private:
  Result<ac::Declaration> LowerNode(const PlanNodePtr& node) {
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
        auto table = arrow::Table::Make(arrow::schema({arrow::field("__one_row", arrow::int32())}),
                                        {column});
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

  // A join with runtime filters (PlanNode::runtime_filters) computes its build side first;
  // when that has at most runtime_filter_max_build_rows rows, each target scan is offered the
  // build keys before its partitions are planned, and its tasks keep only rows whose key is
  // among them. The join then reads the computed build side.
  Result<ac::Declaration> LowerJoinNode(const PlanNodePtr& node) {
    if (node->storage_partitioned) {
      ARROW_ASSIGN_OR_RAISE(auto groups, GroupJoinPartitions(*node));
      if (groups) return LowerPartitionedJoin(node, *groups);
    }
    if (node->runtime_filters.empty()) {
      ARROW_ASSIGN_OR_RAISE(auto left, Lower(node->children[0]));
      ARROW_ASSIGN_OR_RAISE(auto right, Lower(node->children[1]));
      return LowerJoin(*node, std::move(left), std::move(right));
    }
    const size_t build_child = BuildChild(*node);
    ARROW_ASSIGN_OR_RAISE(auto build_table, Gather(node->children[build_child]));
    std::vector<RuntimeFilterTarget> offered;
    if (build_table->num_rows() <= options_.runtime_filter_max_build_rows) {
      for (const auto& target : node->runtime_filters) {
        const JoinKey& key = node->join_keys[target.key_index];
        ARROW_ASSIGN_OR_RAISE(
            auto filter, MakeRuntimeFilter(*build_table, build_child == 1 ? *key.right : *key.left,
                                           target.column, options_.runtime_filter_max_in_list));
        ARROW_RETURN_NOT_OK(OfferRuntimeFilter(target.scan, filter));
        offered.push_back(target);
      }
    }
    if (profile_) {
      auto& entry = profile_by_node_[node.get()];
      entry.build_rows_first = build_table->num_rows();
      entry.offered_runtime_filters = std::move(offered);
    }
    ac::Declaration build("table_source", ac::TableSourceNodeOptions(std::move(build_table)));
    ARROW_ASSIGN_OR_RAISE(auto probe, Lower(node->children[1 - build_child]));
    if (build_child == 1) return LowerJoin(*node, std::move(probe), std::move(build));
    return LowerJoin(*node, std::move(build), std::move(probe));
  }

  // A storage-partitioned join (plan/storage_partitioned_join.h): the partitions of each key
  // group joined on their own, one group after another, and the groups' rows stacked. A group
  // with rows on one side only runs when the join keeps that side's unmatched rows.
  Result<ac::Declaration> LowerPartitionedJoin(const PlanNodePtr& node,
                                               const PartitionGroups& groups) {
    const PlanJoinType type = node->join_type;
    const bool keeps_left = type == PlanJoinType::kLeftOuter || type == PlanJoinType::kFullOuter ||
                            type == PlanJoinType::kLeftAnti;
    const bool keeps_right = type == PlanJoinType::kRightOuter || type == PlanJoinType::kFullOuter;
    std::vector<std::shared_ptr<arrow::Table>> tables;
    for (size_t g = 0; g < groups.left.size(); ++g) {
      const bool left_rows = !groups.left[g].empty();
      const bool right_rows = !groups.right[g].empty();
      if (!(left_rows && right_rows) && !(left_rows && keeps_left) &&
          !(right_rows && keeps_right)) {
        continue;
      }
      subsets_[groups.left_scan] = groups.left[g];
      subsets_[groups.right_scan] = groups.right[g];
      ARROW_ASSIGN_OR_RAISE(auto left, Lower(node->children[0]));
      ARROW_ASSIGN_OR_RAISE(auto right, Lower(node->children[1]));
      ARROW_ASSIGN_OR_RAISE(auto joined, LowerJoin(*node, std::move(left), std::move(right)));
      ARROW_ASSIGN_OR_RAISE(auto table, RunToTable(std::move(joined), options_));
      tables.push_back(std::move(table));
    }
    subsets_.erase(groups.left_scan);
    subsets_.erase(groups.right_scan);
    std::shared_ptr<arrow::Table> rows;
    if (tables.empty()) {
      ARROW_ASSIGN_OR_RAISE(rows, arrow::Table::MakeEmpty(node->OutputSchema()));
    } else {
      ARROW_ASSIGN_OR_RAISE(rows, arrow::ConcatenateTables(tables));
    }
    return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(rows)));
  }

  // The partitions of `scan` to run: those of the key group being joined, else all.
  std::optional<std::vector<size_t>> Subset(const PlanNode* scan) const {
    auto it = subsets_.find(scan);
    if (it == subsets_.end()) return std::nullopt;
    return it->second;
  }

  // Give `scan` the predicates (its partitions are planned again afterwards) and add the row
  // filter to what its tasks evaluate.
  Status OfferRuntimeFilter(PlanNode* scan, const RuntimeFilter& filter) {
    auto& negotiation = *scan->negotiation;
    if (!filter.predicates.empty()) {
      auto* filtering = dynamic_cast<SupportsRuntimeV2Filtering*>(negotiation.scan.get());
      ARROW_RETURN_NOT_OK(filtering->Filter(filter.predicates));
      negotiation.runtime_predicates.insert(negotiation.runtime_predicates.end(),
                                            filter.predicates.begin(), filter.predicates.end());
      negotiation.batch = nullptr;
      negotiation.partitions.clear();
    }
    auto [it, inserted] = row_filters_.emplace(scan, filter.row_filter);
    if (!inserted) it->second = cp::and_(it->second, filter.row_filter);
    return Status::OK();
  }

  // An aggregation's (or DISTINCT's) result does not depend on the order of its input rows:
  // a scan below it, through projections and filters, may stream its batches in any order.
  void MarkUnorderedInput(const PlanNode& node) {
    const PlanNode* input = node.children[0].get();
    while (input->kind == PlanNode::Kind::kProject || input->kind == PlanNode::Kind::kFilter) {
      input = input->children[0].get();
    }
    if (input->kind == PlanNode::Kind::kScan) unordered_scans_.insert(input);
  }

  // A scan whose tasks stream their batches (and apply `filter`) into the plan as they read.
  Result<ac::Declaration> StreamScan(const PlanNodePtr& scan,
                                     std::optional<cp::Expression> filter) {
    const bool ordered =
        unordered_scans_.count(scan.get()) == 0 && options_.unordered_scans.count(scan.get()) == 0;
    ARROW_ASSIGN_OR_RAISE(auto stream, StartScanTasks(scan.get(), options_, std::move(filter),
                                                      Subset(scan.get()), ordered));
    streams_.push_back(stream);
    return ac::Declaration("source",
                           ac::SourceNodeOptions(
                               stream->schema(), [stream] { return stream->Next(); },
                               ordered ? cp::Ordering::Implicit() : cp::Ordering::Unordered()));
  }

  // A filter directly above a scan runs inside the scan's tasks (scan_tasks.h). The scan's
  // profile entry is its tasks' (rows as read); the filter's is recorded by Lower().
  Result<ac::Declaration> LowerFilteredScan(const PlanNodePtr& scan, cp::Expression condition) {
    if (!profile_) return StreamScan(scan, std::move(condition));
    auto start = std::chrono::steady_clock::now();
    size_t tasks_before = metrics_.size();
    ARROW_ASSIGN_OR_RAISE(auto table, RunScanTasks(scan.get(), options_, &metrics_,
                                                   std::move(condition), Subset(scan.get())));
    if (profile_) {
      auto& entry = profile_by_node_[scan.get()];
      entry.tasks.assign(metrics_.begin() + tasks_before, metrics_.end());
      entry.rows_out = 0;
      for (const auto& task : entry.tasks) entry.rows_out += task.rows;
      entry.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      entry.custom_metrics = AggregateCustomMetrics(*scan->negotiation->scan, entry.tasks);
    }
    return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(table)));
  }

  // A change post-processing stage needs all of its input (groups span every batch): the
  // row-level stage takes it whole, net changes reads it batch by batch; the result enters the
  // parent as a table.
  Result<ac::Declaration> LowerChangelogPass(const PlanNode& node) {
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
  Result<ac::Declaration> LowerRowNumbering(const PlanNode& node) {
    ARROW_ASSIGN_OR_RAISE(auto input, Lower(node.children[0]));
    auto reader = ac::DeclarationToReader(std::move(input), PlanOptions(options_));
    if (!reader.ok()) return ToSparkError(reader.status());
    std::shared_ptr<arrow::RecordBatchReader> numbered =
        NumberRows(node, std::move(reader).ValueUnsafe());
    return ac::Declaration("record_batch_reader_source",
                           ac::RecordBatchReaderSourceNodeOptions(std::move(numbered)));
  }

  // The input gathered, then each row repeated by its count (exec/replicate_rows.h).
  Result<ac::Declaration> LowerReplicateRows(const PlanNode& node) {
    ARROW_ASSIGN_OR_RAISE(auto table, Gather(node.children[0]));
    std::vector<std::string> columns;
    for (const auto& field : node.output) columns.push_back(field.name);
    ARROW_ASSIGN_OR_RAISE(auto output, ReplicateRows(*table, node.replicate_count->field, columns));
    return ac::Declaration("table_source", ac::TableSourceNodeOptions(std::move(output)));
  }

  // The input gathered once, then one projection of it per grouping set, all unioned.
  Result<ac::Declaration> LowerExpand(const PlanNode& node) {
    ARROW_ASSIGN_OR_RAISE(auto table, Gather(node.children[0]));
    std::vector<ac::Declaration::Input> inputs;
    for (const auto& projection : node.expand_projections) {
      std::vector<cp::Expression> exprs;
      std::vector<std::string> names;
      for (size_t i = 0; i < projection.size(); ++i) {
        ARROW_ASSIGN_OR_RAISE(auto expr, LowerExpression(*projection[i]));
        exprs.push_back(std::move(expr));
        names.push_back(node.output[i].name);
      }
      inputs.emplace_back(ac::Declaration::Sequence(
          {{"table_source", ac::TableSourceNodeOptions(table)},
           {"project", ac::ProjectNodeOptions(std::move(exprs), std::move(names))}}));
    }
    if (inputs.size() == 1) return std::get<ac::Declaration>(std::move(inputs[0]));
    return ac::Declaration("union", std::move(inputs), ac::ExecNodeOptions{});
  }

  // The rows of the subplan `key` stands for, computed by the first of its uses lowered, each
  // use reading them under its own column names.
  // With profiling, each use records which node's run computed the rows it reads.
  Result<ac::Declaration> LowerReused(const PlanNodePtr& node, const PlanNode* key) {
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
  Result<std::shared_ptr<arrow::Table>> Gather(const PlanNodePtr& node) {
    ARROW_ASSIGN_OR_RAISE(auto input, Lower(node));
    ARROW_ASSIGN_OR_RAISE(auto table, RunToTable(std::move(input), options_));
    return table;
  }

  // Evaluate each VALUES row over one empty input row and stack the rows into a table.
  Result<ac::Declaration> LowerValues(const PlanNode& node) {
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

  // Project keys and arguments to fields, aggregate with Arrow's (hash_)count/sum/mean/min/max,
  // then give each result Spark's type. An argument or an aggregate that occurs several times
  // is projected or computed once. A decimal AVG is a SUM and a COUNT of its argument, divided
  // in the last projection (Spark's average: the quotient rounded half up to four more digits
  // of scale), so it shares the SUM a query often asks for as well and never widens each value.
  Result<ac::Declaration> LowerAggregate(const PlanNodePtr& node) {
    MarkUnorderedInput(*node);
    ARROW_ASSIGN_OR_RAISE(auto input, Lower(node->children[0]));
    std::vector<cp::Expression> inputs;
    std::vector<std::string> input_names;
    std::vector<arrow::FieldRef> keys;
    for (size_t i = 0; i < node->group_keys.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto key, LowerExpression(*node->group_keys[i]));
      inputs.push_back(NormalizedKey(std::move(key), *node->group_keys[i]->type));
      input_names.push_back(node->output[i].name);
      keys.emplace_back(node->output[i].name);
    }
    bool grouped = !keys.empty();
    std::map<std::string, std::string> projected;  // argument text -> its input field
    std::map<std::string, std::string> computed;   // aggregate text -> its result field
    std::vector<cp::Aggregate> aggregates;
    // The result field of `function` over the argument field `target` ("" for none).
    auto aggregate = [&](std::string function, std::shared_ptr<cp::FunctionOptions> options,
                         const std::string& target, std::string name) -> std::string {
      if (grouped) function = "hash_" + function;
      std::string text = function + "(" + target + ")" + (options ? options->ToString() : "");
      auto [it, inserted] = computed.emplace(text, name);
      if (!inserted) return it->second;
      std::vector<arrow::FieldRef> targets;
      if (!target.empty()) targets.emplace_back(target);
      aggregates.emplace_back(std::move(function), std::move(options), std::move(targets),
                              std::move(name));
      return it->second;
    };
    // Whether an aggregate's argument is an input column that holds no NULL: counting it
    // counts rows (Spark rewrites count of a non-nullable expression the same way).
    auto never_null = [&](const AggregateCall& call) {
      if (call.args.size() != 1 || call.args[0]->kind != BoundExpr::Kind::kColumn) return false;
      for (const auto& field : node->children[0]->output) {
        if (field.name == call.args[0]->field) return !field.nullable;
      }
      return false;
    };
    // The input field of `arg`, projected once.
    auto project = [&](cp::Expression arg, std::string name) -> std::string {
      auto [it, inserted] = projected.emplace(arg.ToString(), std::move(name));
      if (inserted) {
        inputs.push_back(std::move(arg));
        input_names.push_back(it->second);
      }
      return it->second;
    };
    std::vector<cp::Expression> results(node->aggregates.size());
    for (size_t j = 0; j < node->aggregates.size(); ++j) {
      const auto& call = node->aggregates[j];
      std::string name = node->output[keys.size() + j].name;
      std::string target;
      cp::Expression lowered_arg;
      const bool integral_input = !call.args.empty() && arrow::is_integer(call.args[0]->type->id());
      if (!call.args.empty()) {
        ARROW_ASSIGN_OR_RAISE(auto arg, LowerExpression(*call.args[0]));
        // DISTINCT counts -0.0 and 0.0 (and every NaN) as one value, as Spark's grouping.
        if (call.distinct) arg = NormalizedKey(std::move(arg), *call.args[0]->type);
        // Spark averages integers as doubles (Arrow's mean would add them in 64 bits, wrapping).
        if (call.function == "AVG" && integral_input) {
          cp::CastOptions to_double = cp::CastOptions::Safe(arrow::float64());
          to_double.allow_float_truncate = true;  // beyond 2^53 the nearest double
          arg = cp::call("cast", {std::move(arg)}, std::move(to_double));
        }
        lowered_arg = arg;
        target = project(std::move(arg), fmt::format("#arg{}", j));
      }
      auto only_valid = std::make_shared<cp::CountOptions>(cp::CountOptions::ONLY_VALID);
      // Decimal sums add 128-bit integers (kernels/decimal_sum_kernel.cc) and integral sums
      // 64-bit ones (checked_sum_kernel.cc), failing on overflow as Spark's do.
      const bool decimal_input =
          !call.args.empty() && call.args[0]->type->id() == arrow::Type::DECIMAL128;
      const std::string sum_function = decimal_input    ? "parley_decimal_sum"
                                       : integral_input ? "parley_checked_sum"
                                                        : "sum";
      if (call.function == "AVG" && call.type->id() == arrow::Type::DECIMAL128) {
        std::string sum = aggregate(sum_function, nullptr, target, name + "#sum");
        std::string count = never_null(call)
                                ? aggregate("count_all", nullptr, "", name + "#count")
                                : aggregate("count", only_valid, target, name + "#count");
        auto count_type = arrow::decimal128(arrow::Decimal128Type::kMaxPrecision, 0);
        results[j] =
            cp::call("parley_decimal_divide",
                     {cp::field_ref(sum),
                      cp::call("cast", {cp::field_ref(count)}, cp::CastOptions::Safe(count_type)),
                      cp::literal(arrow::MakeNullScalar(call.type))});
        continue;
      }
      std::string function;
      std::shared_ptr<cp::FunctionOptions> options;
      if (call.function == "COUNT_STAR") {
        function = "count_all";
      } else if (call.function == "COUNT" && !call.distinct && never_null(call)) {
        function = "count_all";
        target.clear();
      } else if (call.function == "COUNT") {
        function = call.distinct ? "count_distinct" : "count";
        options = only_valid;
      } else if (call.function == "SUM") {
        function = sum_function;
      } else if (call.function == "AVG") {
        function = "mean";
      } else {
        function = call.function == "MIN" ? "min" : "max";
      }
      results[j] = cp::field_ref(aggregate(function, options, target, name));
      const auto input_type = call.args.empty() ? arrow::Type::NA : call.args[0]->type->id();
      if ((function == "min" || function == "max") &&
          (input_type == arrow::Type::DOUBLE || input_type == arrow::Type::FLOAT)) {
        // Arrow's min and max pass over NaN; Spark orders NaN above every number, so a max
        // with a NaN is NaN, and so is a min with nothing but NaN.
        std::string nans =
            aggregate("any", std::make_shared<cp::ScalarAggregateOptions>(/*skip_nulls=*/true, 0),
                      project(cp::call("is_nan", {lowered_arg}), target + "#nan"), name + "#nan");
        cp::Expression any_nan = cp::call("coalesce", {cp::field_ref(nans), cp::literal(false)});
        if (function == "min") {
          any_nan = cp::call("and_kleene", {cp::call("is_null", {results[j]}), any_nan});
        }
        auto nan = input_type == arrow::Type::DOUBLE
                       ? arrow::MakeScalar(std::numeric_limits<double>::quiet_NaN())
                       : arrow::MakeScalar(std::numeric_limits<float>::quiet_NaN());
        results[j] = cp::call("if_else", {any_nan, cp::literal(nan), results[j]});
      }
    }
    if (inputs.empty()) {
      // count(*) alone reads no column; give the aggregate one to count rows of.
      inputs.push_back(cp::literal(true));
      input_names.push_back("#rows");
    }
    std::vector<cp::Expression> outputs;
    std::vector<std::string> output_names;
    for (size_t i = 0; i < node->output.size(); ++i) {
      const auto& field = node->output[i];
      cp::Expression value = cp::field_ref(field.name);
      if (i >= keys.size()) {
        const auto& call = node->aggregates[i - keys.size()];
        value = cp::call("cast", {results[i - keys.size()]}, cp::CastOptions::Safe(field.type));
        // A decimal sum past the precision of Spark's sum type overflows as the sum does.
        if (call.function == "SUM" && field.type->id() == arrow::Type::DECIMAL128) {
          value = GuardCall(cp::call("cast", {cp::field_ref(ArgumentField(0))},
                                     cp::CastOptions::Safe(field.type)),
                            {results[i - keys.size()]}, call.ToString(), "ARITHMETIC_OVERFLOW");
        }
      }
      outputs.push_back(std::move(value));
      output_names.push_back(field.name);
    }
    // Parts shared by several inputs (a product summed twice) are computed once, first.
    auto split = ShareSubexpressions(inputs, "#shared");
    if (!split.shared.empty()) {
      std::vector<cp::Expression> first(split.shared);
      std::vector<std::string> first_names(split.names);
      for (const auto& field : split.input_fields) {
        first.push_back(cp::field_ref(field));
        first_names.push_back(field);
      }
      input = ac::Declaration::Sequence(
          {std::move(input),
           {"project", ac::ProjectNodeOptions(std::move(first), std::move(first_names))}});
      inputs = std::move(split.rewritten);
    }
    return ac::Declaration::Sequence(
        {std::move(input),
         {"project", ac::ProjectNodeOptions(std::move(inputs), std::move(input_names))},
         {"aggregate", ac::AggregateNodeOptions(std::move(aggregates), std::move(keys))},
         {"project", ac::ProjectNodeOptions(std::move(outputs), std::move(output_names))}});
  }

  // Arrow places NaN beside the NULLs, whatever the direction; Spark orders NaN above every
  // number. A floating-point key is therefore sorted on whether it is NaN first (a column
  // projected for the sort and dropped after it), then on its value.
  Result<ac::Declaration> LowerSort(const PlanNodePtr& node) {
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

  const ScanRunOptions& options_;
  bool profile_;
  std::vector<std::shared_ptr<ScanStream>> streams_;
  std::vector<TaskMetrics> metrics_;
  // Runtime filters of the scans (by node), evaluated by their tasks.
  std::map<const PlanNode*, cp::Expression> row_filters_;
  // Scans whose consumer does not depend on the order of their rows (MarkUnorderedInput).
  std::set<const PlanNode*> unordered_scans_;
  // Scans restricted to one key group's partitions while a storage-partitioned join lowers it.
  std::map<const PlanNode*, std::vector<size_t>> subsets_;
  std::map<const PlanNode*, OperatorProfile> profile_by_node_;
  std::map<const PlanNode*, const PlanNode*> reuse_key_;
  // Per reuse key, the node whose run computed the shared rows.
  std::map<const PlanNode*, const PlanNode*> computed_by_;
  std::map<const PlanNode*, std::shared_ptr<arrow::Table>> reused_rows_;
};

// What a streamed plan's output may hold ahead of its reader: past the high mark the sink asks
// the plan's sources to pause (a scan's tasks then pause too, scan_tasks.h), below the low mark
// they resume. Memory follows these bytes, not the result's size.
constexpr uint64_t kStreamPauseAboveBytes = 32 << 20;
constexpr uint64_t kStreamResumeBelowBytes = 16 << 20;

// A plan lowered and started on Acero, its output taken from a sink with backpressure. Owns the
// options its lowering refers to.
class LoweredPlanStream : public PlanStream {
 public:
  explicit LoweredPlanStream(const ScanRunOptions& options)
      : options_(options), lowering_(options_, /*profile=*/false) {}
  ~LoweredPlanStream() override {
    if (!closed_) ARROW_UNUSED(Close());
  }

  Status Start(const PlanNodePtr& plan) {
    lowering_.CollectReuse(*plan);
    ARROW_ASSIGN_OR_RAISE(auto declaration, lowering_.Lower(plan));
    std::shared_ptr<arrow::Schema> output;
    auto with_sink = ac::Declaration::Sequence(
        {std::move(declaration),
         {"sink", ac::SinkNodeOptions(
                      &output_, &output,
                      ac::BackpressureOptions(kStreamResumeBelowBytes, kStreamPauseAboveBytes))}});
    cp::ExecContext context(options_.control.pool(), arrow::internal::GetCpuThreadPool());
    auto made = ac::ExecPlan::Make(PlanOptions(options_), context);
    if (!made.ok()) return ToSparkError(made.status());
    acero_plan_ = std::move(made).ValueUnsafe();
    Status added = with_sink.AddToPlan(acero_plan_.get()).status();
    if (added.ok()) added = acero_plan_->Validate();
    if (!added.ok()) {
      acero_plan_ = nullptr;
      return ToSparkError(added);
    }
    acero_plan_->StartProducing();
    arrow::FieldVector fields;
    for (size_t i = 0; i < plan->output.size(); ++i) {
      fields.push_back(output->field(static_cast<int>(i))->WithName(plan->output[i].display));
    }
    schema_ = arrow::schema(std::move(fields));
    return Status::OK();
  }

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

  Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    ARROW_RETURN_NOT_OK(options_.control.Check());
    ARROW_ASSIGN_OR_RAISE(auto batch, Take());
    if (!batch.has_value()) return nullptr;
    return batch->ToRecordBatch(schema_, options_.control.pool());
  }

  // A plan still running is not stopped from outside: Acero's ExecPlan::StopProducing aborts
  // its task scheduler, which can lose a task of a task group then in flight (a hash join's
  // flush, which is when a join's rows come out), and the plan then never finishes. Its scans
  // end instead, the plan runs dry, and the stream closes once the plan has finished.
  Status Close() override {
    if (closed_) return close_status_;
    closed_ = true;
    lowering_.StopStreams();
    Status closed;
    if (acero_plan_ != nullptr) {
      while (!ended_) {
        auto batch = Take();
        if (!batch.ok()) closed = batch.status();
      }
      Status finished = acero_plan_->finished().status();
      if (closed.ok()) closed = ToSparkError(finished);
      // The plan's source nodes hold the scans' streams, and a paused scan task its reader:
      // both go now, not when this stream is destroyed.
      output_ = nullptr;
      acero_plan_.reset();
    }
    Status streams = lowering_.FinishStreams();
    close_status_ = closed.ok() ? streams : closed;
    return close_status_;
  }

 private:
  // The next batch of the sink, null at the end; an error (with its Spark condition) ends too.
  Result<std::optional<cp::ExecBatch>> Take() {
    if (ended_ || output_ == nullptr) return std::nullopt;
    auto next = output_().result();
    ended_ = !next.ok() || !next->has_value();
    if (!next.ok()) return ToSparkError(next.status());
    return std::move(next).ValueUnsafe();
  }

  ScanRunOptions options_;
  Lowering lowering_;
  std::shared_ptr<ac::ExecPlan> acero_plan_;
  std::function<arrow::Future<std::optional<cp::ExecBatch>>()> output_;
  std::shared_ptr<arrow::Schema> schema_;
  bool ended_ = false;  // the sink returned its end or an error
  bool closed_ = false;
  Status close_status_;
};

}  // namespace

Status EnsureComputeInitialized() {
  static std::once_flag once;
  static Status status;
  std::call_once(once, [] {
    status = arrow::compute::Initialize();
    if (status.ok()) arrow::dataset::internal::Initialize();
    if (status.ok()) status = RegisterParleyKernels();
    if (status.ok()) status = RegisterScalarSubqueryValueFunction();
  });
  return status;
}

Result<ExecutionResult> ExecutePlan(const PlanNodePtr& plan, const ScanRunOptions& options,
                                    bool profile) {
  ARROW_RETURN_NOT_OK(EnsureComputeInitialized());
  Lowering lowering(options, profile);
  lowering.CollectReuse(*plan);
  auto declaration = lowering.Lower(plan);
  if (!declaration.ok()) {
    ARROW_UNUSED(lowering.FinishStreams());
    return declaration.status();
  }
  auto table = RunToTable(std::move(*declaration), options);
  Status finished = lowering.FinishStreams();
  if (!table.ok()) return table.status();
  ARROW_RETURN_NOT_OK(finished);
  std::vector<std::string> names;
  for (const auto& field : plan->output) names.push_back(field.display);
  ARROW_ASSIGN_OR_RAISE(auto renamed, (*table)->RenameColumns(names));
  return ExecutionResult{std::move(renamed), std::move(lowering.metrics()),
                         std::move(lowering.profile())};
}

Result<std::unique_ptr<PlanStream>> ExecutePlanStream(const PlanNodePtr& plan,
                                                      const ScanRunOptions& options) {
  ARROW_RETURN_NOT_OK(EnsureComputeInitialized());
  auto stream = std::make_unique<LoweredPlanStream>(options);
  Status started = stream->Start(plan);
  if (!started.ok()) {
    ARROW_UNUSED(stream->Close());
    return started;
  }
  return std::unique_ptr<PlanStream>(std::move(stream));
}

}  // namespace parley
