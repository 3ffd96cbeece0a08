// The configurable test connector: tables over Arrow data with optional filter pushdown and
// column pruning, partitions over row ranges, and a log of the negotiation.
#include "testing/test_connector.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>

#include "arrow/acero/exec_plan.h"
#include "arrow/acero/options.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/array/util.h"
#include "arrow/compute/api.h"
#include "arrow/record_batch.h"
#include "arrow/scalar.h"
#include "arrow/table.h"

namespace parley::testing {
namespace {

namespace cp = arrow::compute;

// What a reader factory needs, kept in a process-wide registry so the factory serializes to an
// id, as an executor-side cache would be addressed.
struct ScanState {
  std::shared_ptr<arrow::Table> data;  // already filtered, limited and projected
  // Key-grouped partitioning: the column the rows are sorted and partitioned by, and how many
  // partitions each value's rows are split into at most.
  std::string key_column;
  int partitions_per_key = 1;
  // Readers return batches of at most this many rows (0: one batch), counting each in
  // `batches_read` when set (TestTableOptions).
  int64_t batch_rows = 0;
  std::shared_ptr<std::atomic<int64_t>> batches_read;
  // Readers wait for it, when valid, before returning each batch.
  std::shared_future<void> read_gate;
  // Readers start over at the end of their rows instead of ending (TestTableOptions).
  bool endless = false;
  std::shared_ptr<std::atomic<int64_t>> open_readers;
};

std::mutex registry_mutex;
std::map<int64_t, std::shared_ptr<ScanState>> registry;
std::atomic<int64_t> next_id{1};

class TestPartition : public InputPartition {
 public:
  TestPartition(int64_t offset, int64_t length, bool serializable)
      : offset_(offset), length_(length), serializable_(serializable) {}
  Result<std::string> Serialize() const override {
    if (!serializable_) return std::string("live-handle");
    return fmt::format("{}:{}", offset_, length_);
  }
  int64_t offset() const { return offset_; }
  int64_t length() const { return length_; }

 private:
  int64_t offset_, length_;
  bool serializable_;
};

// A partition of a key-grouped scan: its rows all have `key` in the partition column.
class KeyedTestPartition : public TestPartition, public HasPartitionKey {
 public:
  KeyedTestPartition(int64_t offset, int64_t length, std::shared_ptr<arrow::Scalar> key)
      : TestPartition(offset, length, true), key_(std::move(key)) {}
  std::vector<std::shared_ptr<arrow::Scalar>> PartitionKey() const override { return {key_}; }

 private:
  std::shared_ptr<arrow::Scalar> key_;
};

// The partitions of a key-grouped scan: each run of one value in the (sorted) key column, split
// into at most `per_key` pieces.
Result<std::vector<std::shared_ptr<InputPartition>>> KeyedPartitions(const ScanState& state) {
  std::vector<std::shared_ptr<InputPartition>> out;
  const auto& column = state.data->GetColumnByName(state.key_column);
  const int64_t rows = state.data->num_rows();
  int64_t start = 0;
  while (start < rows) {
    ARROW_ASSIGN_OR_RAISE(auto key, column->GetScalar(start));
    int64_t end = start + 1;
    while (end < rows) {
      ARROW_ASSIGN_OR_RAISE(auto next, column->GetScalar(end));
      if (!next->Equals(*key)) break;
      ++end;
    }
    int64_t per = (end - start + state.partitions_per_key - 1) / state.partitions_per_key;
    for (int64_t offset = start; offset < end; offset += per) {
      out.push_back(
          std::make_shared<KeyedTestPartition>(offset, std::min<int64_t>(per, end - offset), key));
    }
    start = end;
  }
  return out;
}

class TestReader : public PartitionReader {
 public:
  TestReader(std::shared_ptr<arrow::RecordBatch> rows, const ScanState& state)
      : all_rows_(state.endless ? rows : nullptr),
        rows_(std::move(rows)),
        batch_rows_(state.batch_rows),
        counter_(state.batches_read),
        open_readers_(state.open_readers),
        gate_(state.read_gate) {
    if (open_readers_ != nullptr) ++*open_readers_;
  }
  ~TestReader() override {
    if (open_readers_ != nullptr) --*open_readers_;
  }
  Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    if (rows_ == nullptr) rows_ = all_rows_;
    if (rows_ == nullptr) return nullptr;
    if (gate_.valid()) gate_.wait();
    std::shared_ptr<arrow::RecordBatch> batch = std::move(rows_);
    if (batch_rows_ > 0 && batch->num_rows() > batch_rows_) {
      rows_ = batch->Slice(batch_rows_);
      batch = batch->Slice(0, batch_rows_);
    }
    if (counter_ != nullptr) ++*counter_;
    return batch;
  }

 private:
  std::shared_ptr<arrow::RecordBatch> all_rows_;  // endless: what to start over with
  std::shared_ptr<arrow::RecordBatch> rows_;      // not yet returned
  const int64_t batch_rows_;
  std::shared_ptr<std::atomic<int64_t>> counter_;
  std::shared_ptr<std::atomic<int64_t>> open_readers_;
  std::shared_future<void> gate_;
};

class TestReaderFactory : public PartitionReaderFactory {
 public:
  TestReaderFactory(int64_t id, std::shared_ptr<ScanState> state)
      : id_(id), state_(std::move(state)) {}

  Result<std::unique_ptr<PartitionReader>> CreateReader(
      const InputPartition& partition) const override {
    const auto& p = dynamic_cast<const TestPartition&>(partition);
    auto slice = state_->data->Slice(p.offset(), p.length());
    ARROW_ASSIGN_OR_RAISE(auto batch, slice->CombineChunksToBatch());
    return std::make_unique<TestReader>(std::move(batch), *state_);
  }
  Result<std::string> Serialize() const override { return std::to_string(id_); }
  Result<std::shared_ptr<InputPartition>> DeserializePartition(
      std::string_view bytes) const override {
    int64_t offset = 0, length = 0;
    if (std::sscanf(std::string(bytes).c_str(), "%ld:%ld", &offset, &length) != 2) {
      return Status::Invalid("not a test partition: ", bytes);
    }
    if (!state_->key_column.empty()) {
      ARROW_ASSIGN_OR_RAISE(auto key,
                            state_->data->GetColumnByName(state_->key_column)->GetScalar(offset));
      return std::make_shared<KeyedTestPartition>(offset, length, std::move(key));
    }
    return std::make_shared<TestPartition>(offset, length, true);
  }

 private:
  int64_t id_;
  std::shared_ptr<ScanState> state_;
};

class TestBatch : public Batch {
 public:
  TestBatch(std::shared_ptr<ScanState> state, int partitions, bool serializable)
      : state_(std::move(state)), partitions_(partitions), serializable_(serializable) {}

  Result<std::vector<std::shared_ptr<InputPartition>>> PlanInputPartitions() override {
    if (!state_->key_column.empty()) return KeyedPartitions(*state_);
    std::vector<std::shared_ptr<InputPartition>> out;
    int64_t rows = state_->data->num_rows();
    int64_t per = (rows + partitions_ - 1) / partitions_;
    for (int i = 0; i < partitions_; ++i) {
      int64_t offset = std::min<int64_t>(rows, i * per);
      out.push_back(std::make_shared<TestPartition>(offset, std::min<int64_t>(per, rows - offset),
                                                    serializable_));
    }
    return out;
  }
  Result<std::shared_ptr<PartitionReaderFactory>> CreateReaderFactory() override {
    int64_t id = next_id++;
    std::lock_guard<std::mutex> lock(registry_mutex);
    registry[id] = state_;
    return std::make_shared<TestReaderFactory>(id, state_);
  }
  Result<std::shared_ptr<PartitionReaderFactory>> DeserializeReaderFactory(
      std::string_view bytes) const override {
    int64_t id = std::stoll(std::string(bytes));
    std::lock_guard<std::mutex> lock(registry_mutex);
    auto it = registry.find(id);
    if (it == registry.end()) return Status::Invalid("unknown test scan ", id);
    return std::make_shared<TestReaderFactory>(id, it->second);
  }

 private:
  std::shared_ptr<ScanState> state_;
  int partitions_;
  bool serializable_;
};

class TestScan : public Scan {
 public:
  TestScan(std::shared_ptr<ScanState> state, const TestTableOptions& options,
           std::string description)
      : state_(std::move(state)), options_(options), description_(std::move(description)) {}
  std::shared_ptr<arrow::Schema> ReadSchema() const override { return state_->data->schema(); }
  std::string Description() const override { return description_; }
  Result<std::shared_ptr<Batch>> ToBatch() override {
    return std::make_shared<TestBatch>(state_, options_.partitions,
                                       options_.serializable_partitions);
  }

 protected:
  const std::shared_ptr<ScanState>& state() const { return state_; }
  void set_state(std::shared_ptr<ScanState> state) { state_ = std::move(state); }

 private:
  std::shared_ptr<ScanState> state_;
  TestTableOptions options_;
  std::string description_;
};

// A scan grouped by the values of one column: identity(column) partitioning.
class PartitionedTestScan : public TestScan, public SupportsReportPartitioning {
 public:
  using TestScan::TestScan;
  Partitioning OutputPartitioning() const override {
    Partitioning partitioning;
    partitioning.keys = {std::make_shared<Transform>(
        "identity", std::vector<ExpressionPtr>{FieldReference(state()->key_column)})};
    auto partitions = KeyedPartitions(*state());
    partitioning.num_partitions = partitions.ok() ? static_cast<int>(partitions->size()) : 0;
    return partitioning;
  }
};

// A scan that filters its rows at run time; its partitions cover the rows kept.
class RuntimeFilteringTestScan : public TestScan, public SupportsRuntimeV2Filtering {
 public:
  RuntimeFilteringTestScan(std::shared_ptr<ScanState> state, const TestTableOptions& options,
                           std::string description, std::shared_ptr<TestTableLog> log)
      : TestScan(std::move(state), options, std::move(description)), log_(std::move(log)) {}

  std::vector<std::shared_ptr<NamedReference>> FilterAttributes() const override {
    std::vector<std::shared_ptr<NamedReference>> out;
    for (const auto& name : ReadSchema()->field_names()) out.push_back(FieldReference(name));
    return out;
  }

  Status Filter(const std::vector<PredicatePtr>& predicates) override {
    auto data = state()->data;
    for (const auto& predicate : predicates) {
      log_->runtime_predicates.push_back(predicate->ToString());
      ARROW_ASSIGN_OR_RAISE(auto expr, PredicateToArrow(*predicate));
      ARROW_ASSIGN_OR_RAISE(auto bound, expr.Bind(*data->schema()));
      ARROW_ASSIGN_OR_RAISE(auto combined, data->CombineChunksToBatch());
      ARROW_ASSIGN_OR_RAISE(auto mask,
                            cp::ExecuteScalarExpression(bound, cp::ExecBatch(*combined)));
      ARROW_ASSIGN_OR_RAISE(auto filtered, cp::Filter(combined, mask));
      ARROW_ASSIGN_OR_RAISE(
          data, arrow::Table::FromRecordBatches(data->schema(), {filtered.record_batch()}));
    }
    log_->rows_after_runtime_filter.push_back(data->num_rows());
    auto state = std::make_shared<ScanState>(*this->state());
    state->data = std::move(data);
    set_state(std::move(state));
    return Status::OK();
  }

 private:
  std::shared_ptr<TestTableLog> log_;
};

// The shared state of every builder variant; the variants below add the mix-ins.
class BuilderCore : public ScanBuilder {
 public:
  BuilderCore(std::shared_ptr<arrow::Table> data, TestTableOptions options,
              std::shared_ptr<TestTableLog> log)
      : data_(std::move(data)), options_(std::move(options)), log_(std::move(log)) {}

  // The scan's rows are computed here, from the pushed operators, in the order a source
  // applies them: filter, top-N order, limit, offset (Spark pushes LIMIT n OFFSET m as limit
  // n + m, then offset m), projection.
  Result<std::shared_ptr<Scan>> Build() override {
    ARROW_ASSIGN_OR_RAISE(auto data, SampledAndFiltered());
    if (!top_n_.empty()) {
      std::vector<cp::SortKey> keys;
      for (const auto& order : top_n_) {
        keys.emplace_back(
            *AsColumnName(*order->expression()),
            order->direction() == SortDirection::kAscending ? cp::SortOrder::Ascending
                                                            : cp::SortOrder::Descending,
            order->null_ordering() == NullOrdering::kNullsFirst ? cp::NullPlacement::AtStart
                                                                : cp::NullPlacement::AtEnd);
      }
      ARROW_ASSIGN_OR_RAISE(auto indices,
                            cp::SortIndices(arrow::Datum(data), cp::SortOptions(keys)));
      ARROW_ASSIGN_OR_RAISE(auto sorted, cp::Take(arrow::Datum(data), arrow::Datum(indices)));
      data = sorted.table();
    }
    if (aggregation_) {
      ARROW_ASSIGN_OR_RAISE(data, Aggregate(data, *aggregation_));
    }
    if (limit_ && !options_.ignore_accepted_limit) data = data->Slice(0, *limit_);
    if (offset_) data = data->Slice(std::min(*offset_, data->num_rows()));
    if (required_ && !aggregation_) {
      std::vector<int> indices;
      for (const auto& field : required_->fields()) {
        indices.push_back(data_->schema()->GetFieldIndex(field->name()));
      }
      ARROW_ASSIGN_OR_RAISE(data, data->SelectColumns(indices));
      if (options_.nested_pruning) data = Narrow(*data, *required_);
    }
    auto state = std::make_shared<ScanState>();
    const bool keyed = !options_.partition_column.empty() && !limit_ && top_n_.empty() &&
                       !aggregation_ && !options_.runtime_filtering &&
                       data->schema()->GetFieldIndex(options_.partition_column) >= 0;
    if (keyed) {
      cp::SortOptions order({cp::SortKey(options_.partition_column)});
      ARROW_ASSIGN_OR_RAISE(auto indices, cp::SortIndices(arrow::Datum(data), order));
      ARROW_ASSIGN_OR_RAISE(auto sorted, cp::Take(arrow::Datum(data), arrow::Datum(indices)));
      data = sorted.table();
      state->key_column = options_.partition_column;
      state->partitions_per_key = options_.partitions_per_key;
    }
    state->data = data;
    state->batch_rows = options_.batch_rows;
    state->batches_read = options_.batches_read;
    state->read_gate = options_.read_gate;
    state->endless = options_.endless;
    state->open_readers = options_.open_readers;
    std::vector<std::string> names;
    for (const auto& p : accepted_) names.push_back(p->ToString());
    TestTableOptions options = options_;
    if (limit_ || !top_n_.empty() || aggregation_) options.partitions = 1;
    std::string description = fmt::format("accepted=[{}]", fmt::join(names, ", "));
    if (options_.runtime_filtering) {
      return std::make_shared<RuntimeFilteringTestScan>(state, options, std::move(description),
                                                        log_);
    }
    if (keyed) return std::make_shared<PartitionedTestScan>(state, options, std::move(description));
    return std::make_shared<TestScan>(state, options, std::move(description));
  }

 protected:
  // The table's rows after the pushed sample and the accepted predicates.
  Result<std::shared_ptr<arrow::Table>> SampledAndFiltered() const {
    auto data = data_;
    if (sample_) {
      ARROW_ASSIGN_OR_RAISE(data, Sample(data));
    }
    if (accepted_.empty() || options_.ignore_accepted_predicates) return data;
    const auto columns = data->schema()->field_names();
    std::optional<cp::Expression> filter;
    for (const auto& predicate : accepted_) {
      ARROW_ASSIGN_OR_RAISE(auto computed, ComputeFunctionOperand(predicate, &data));
      ARROW_ASSIGN_OR_RAISE(auto expr, PredicateToArrow(*computed));
      filter = filter ? cp::and_(*filter, expr) : expr;
    }
    ARROW_ASSIGN_OR_RAISE(auto filtered, FilterRows(std::move(data), *filter));
    return filtered->SelectColumns([&] {
      std::vector<int> indices(columns.size());
      for (size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<int>(i);
      return indices;
    }());
  }

  // A predicate whose first operand calls one of the table's functions: the call's values
  // appended to `*data` as a column, and the predicate over that column instead.
  Result<PredicatePtr> ComputeFunctionOperand(const PredicatePtr& predicate,
                                              std::shared_ptr<arrow::Table>* data) const {
    const auto children = predicate->children();
    const auto* call = dynamic_cast<const UserDefinedScalarFunc*>(children[0].get());
    if (call == nullptr) return predicate;
    const auto& function = options_.functions.at(call->canonical_name());
    ARROW_ASSIGN_OR_RAISE(auto batch, (*data)->CombineChunksToBatch());
    arrow::ArrayVector args;
    for (const auto& child : call->children()) {
      if (const auto* column = AsColumnName(*child)) {
        args.push_back(batch->GetColumnByName(*column));
      } else {
        ARROW_ASSIGN_OR_RAISE(
            auto repeated, arrow::MakeArrayFromScalar(*static_cast<const Literal&>(*child).value(),
                                                      batch->num_rows()));
        args.push_back(std::move(repeated));
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto values, function->Invoke(args, batch->num_rows()));
    const std::string name = "#call" + std::to_string(batch->num_columns());
    ARROW_ASSIGN_OR_RAISE(auto table, arrow::Table::FromRecordBatches({batch}));
    ARROW_ASSIGN_OR_RAISE(*data,
                          table->AddColumn(batch->num_columns(), arrow::field(name, values->type()),
                                           std::make_shared<arrow::ChunkedArray>(values)));
    std::vector<ExpressionPtr> rewritten = children;
    rewritten[0] = FieldReference(name);
    return MakePredicate(predicate->name(), std::move(rewritten));
  }

  // The rows of `table` for which `predicate` is TRUE.
  static Result<std::shared_ptr<arrow::Table>> FilterRows(std::shared_ptr<arrow::Table> table,
                                                          const cp::Expression& predicate) {
    ARROW_ASSIGN_OR_RAISE(auto bound, predicate.Bind(*table->schema()));
    ARROW_ASSIGN_OR_RAISE(auto combined, table->CombineChunksToBatch());
    ARROW_ASSIGN_OR_RAISE(auto mask, cp::ExecuteScalarExpression(bound, cp::ExecBatch(*combined)));
    ARROW_ASSIGN_OR_RAISE(auto filtered, cp::Filter(combined, mask));
    return arrow::Table::FromRecordBatches(combined->schema(), {filtered.record_batch()});
  }

  // The aggregation computed with Acero; output columns group_col_i then agg_func_j.
  static Result<std::shared_ptr<arrow::Table>> Aggregate(std::shared_ptr<arrow::Table> data,
                                                         const Aggregation& aggregation) {
    namespace ac = arrow::acero;
    std::vector<arrow::FieldRef> keys;
    std::vector<cp::Expression> outputs;
    std::vector<std::string> names;
    for (size_t i = 0; i < aggregation.group_by_expressions.size(); ++i) {
      std::string column = *AsColumnName(*aggregation.group_by_expressions[i]);
      keys.emplace_back(column);
      outputs.push_back(cp::field_ref(column));
      names.push_back(fmt::format("group_col_{}", i));
    }
    std::string prefix = keys.empty() ? "" : "hash_";
    std::vector<cp::Aggregate> aggregates;
    for (size_t j = 0; j < aggregation.aggregate_expressions.size(); ++j) {
      const auto& function = *aggregation.aggregate_expressions[j];
      std::string name = fmt::format("agg_func_{}", j);
      static const std::map<std::string, std::string> kKernels = {
          {"COUNT(*)", "count_all"}, {"COUNT", "count"}, {"SUM", "sum"},
          {"AVG", "mean"},           {"MIN", "min"},     {"MAX", "max"}};
      std::vector<arrow::FieldRef> targets;
      for (const auto& child : function.children()) targets.emplace_back(*AsColumnName(*child));
      aggregates.emplace_back(prefix + kKernels.at(function.name()), nullptr, targets, name);
      outputs.push_back(cp::field_ref(name));
      names.push_back(name);
    }
    return ac::DeclarationToTable(ac::Declaration::Sequence(
        {{"table_source", ac::TableSourceNodeOptions(std::move(data))},
         {"aggregate", ac::AggregateNodeOptions(std::move(aggregates), std::move(keys))},
         {"project", ac::ProjectNodeOptions(std::move(outputs), std::move(names))}}));
  }

  // The rows of the pushed sample: row i is kept when frac(i * golden ratio) is in it.
  Result<std::shared_ptr<arrow::Table>> Sample(std::shared_ptr<arrow::Table> data) const {
    arrow::BooleanBuilder keep;
    ARROW_RETURN_NOT_OK(keep.Reserve(data->num_rows()));
    for (int64_t row = 0; row < data->num_rows(); ++row) {
      double position = std::fmod(static_cast<double>(row) * 0.6180339887498949, 1.0);
      keep.UnsafeAppend(position >= sample_->first && position < sample_->second);
    }
    ARROW_ASSIGN_OR_RAISE(auto mask, keep.Finish());
    ARROW_ASSIGN_OR_RAISE(auto kept, cp::Filter(arrow::Datum(std::move(data)), arrow::Datum(mask)));
    return kept.table();
  }

  // `data` with each struct column narrowed to the type `required` gives it.
  static std::shared_ptr<arrow::Table> Narrow(const arrow::Table& data,
                                              const arrow::Schema& required) {
    arrow::FieldVector fields;
    arrow::ChunkedArrayVector columns;
    for (int i = 0; i < data.num_columns(); ++i) {
      const auto& type = required.field(i)->type();
      arrow::ArrayVector chunks;
      for (const auto& chunk : data.column(i)->chunks()) {
        chunks.push_back(arrow::MakeArray(NarrowData(chunk->data(), type)));
      }
      fields.push_back(data.schema()->field(i)->WithType(type));
      columns.push_back(std::make_shared<arrow::ChunkedArray>(std::move(chunks), type));
    }
    return arrow::Table::Make(arrow::schema(std::move(fields)), std::move(columns),
                              data.num_rows());
  }

  // Struct data keeping only the (narrowed) children `type` names; its validity unchanged.
  static std::shared_ptr<arrow::ArrayData> NarrowData(
      const std::shared_ptr<arrow::ArrayData>& data, const std::shared_ptr<arrow::DataType>& type) {
    if (data->type->Equals(*type)) return data;
    auto out = data->Copy();
    out->type = type;
    out->child_data.clear();
    const auto& from = static_cast<const arrow::StructType&>(*data->type);
    for (const auto& field : type->fields()) {
      out->child_data.push_back(
          NarrowData(data->child_data[from.GetFieldIndex(field->name())], field->type()));
    }
    return out;
  }

  // A call of one of the table's functions over columns and literals.
  bool IsOwnFunctionCall(const Expression& expression) const {
    const auto* call = dynamic_cast<const UserDefinedScalarFunc*>(&expression);
    if (call == nullptr || options_.functions.count(call->canonical_name()) == 0) return false;
    for (const auto& child : call->children()) {
      if (AsColumnName(*child) == nullptr && dynamic_cast<const Literal*>(child.get()) == nullptr) {
        return false;
      }
    }
    return true;
  }

  std::vector<PredicatePtr> DoPush(std::vector<PredicatePtr> predicates) {
    std::vector<PredicatePtr> returned;
    accepted_.clear();
    for (const auto& predicate : predicates) {
      log_->offered_predicates.push_back(predicate->ToString());
      bool simple = predicate->children().size() >= 1 &&
                    (AsColumnName(*predicate->children()[0]) != nullptr ||
                     IsOwnFunctionCall(*predicate->children()[0]));
      for (size_t i = 1; i < predicate->children().size(); ++i) {
        if (!dynamic_cast<const Literal*>(predicate->children()[i].get())) simple = false;
      }
      if (simple && options_.accepted_predicates.count(predicate->name()) > 0) {
        accepted_.push_back(predicate);
        log_->accepted_predicates.push_back(predicate->ToString());
      } else {
        returned.push_back(predicate);
      }
    }
    return returned;
  }
  void DoPrune(const std::shared_ptr<arrow::Schema>& schema) {
    required_ = schema;
    log_->pruned = true;
    for (const auto& field : schema->fields()) {
      log_->pruned_columns.push_back(field->name());
      log_->pruned_types.push_back(field->type()->ToString());
    }
  }

  std::shared_ptr<arrow::Table> data_;
  TestTableOptions options_;
  std::shared_ptr<TestTableLog> log_;
  std::vector<PredicatePtr> accepted_;
  std::shared_ptr<arrow::Schema> required_;
  std::optional<int64_t> limit_;
  std::optional<int64_t> offset_;
  std::vector<std::shared_ptr<SortOrder>> top_n_;
  std::optional<Aggregation> aggregation_;
  std::optional<std::pair<double, double>> sample_;
};

// The V1 form: a filter becomes the equivalent V2 predicate, which the core then applies.
PredicatePtr V1ToPredicate(const Filter& filter) {
  using Kind = Filter::Kind;
  static const std::map<Kind, std::string> kNames = {{Kind::kEqualTo, "="},
                                                     {Kind::kGreaterThan, ">"},
                                                     {Kind::kGreaterThanOrEqual, ">="},
                                                     {Kind::kLessThan, "<"},
                                                     {Kind::kLessThanOrEqual, "<="},
                                                     {Kind::kIsNull, "IS_NULL"},
                                                     {Kind::kIsNotNull, "IS_NOT_NULL"},
                                                     {Kind::kIn, "IN"}};
  auto it = kNames.find(filter.kind);
  if (it == kNames.end()) return nullptr;
  std::vector<ExpressionPtr> children = {FieldReference(filter.attribute)};
  for (const auto& value : filter.values) children.push_back(MakeLiteral(value));
  return MakePredicate(it->second, std::move(children));
}

class V1FilterBuilder : public BuilderCore, public SupportsPushDownFilters {
 public:
  using BuilderCore::BuilderCore;
  Result<std::vector<FilterPtr>> PushFilters(std::vector<FilterPtr> filters) override {
    std::vector<FilterPtr> returned;
    accepted_.clear();
    pushed_.clear();
    for (const auto& filter : filters) {
      log_->offered_predicates.push_back(filter->ToString());
      auto predicate = V1ToPredicate(*filter);
      if (predicate) {
        accepted_.push_back(predicate);
        pushed_.push_back(filter);
        log_->accepted_predicates.push_back(filter->ToString());
      } else {
        returned.push_back(filter);
      }
    }
    return returned;
  }
  std::vector<FilterPtr> PushedFilters() const override { return pushed_; }

 private:
  std::vector<FilterPtr> pushed_;
};

template <typename Base>
class WithSample : public Base, public SupportsPushDownTableSample {
 public:
  using Base::Base;
  bool PushTableSample(double lower, double upper, bool with_replacement, int64_t seed) override {
    if (with_replacement) return false;
    this->sample_ = std::make_pair(lower, upper);
    this->log_->pushed_sample = fmt::format("{} {} {} {}", lower, upper, with_replacement, seed);
    return true;
  }
};

// The optional mix-ins, each added as a layer over the builder core.
template <typename Base>
class WithV2Filters : public Base, public SupportsPushDownV2Filters {
 public:
  using Base::Base;
  Result<std::vector<PredicatePtr>> PushPredicates(std::vector<PredicatePtr> p) override {
    return this->DoPush(std::move(p));
  }
  std::vector<PredicatePtr> PushedPredicates() const override { return this->accepted_; }
};

template <typename Base>
class WithPruning : public Base, public SupportsPushDownRequiredColumns {
 public:
  using Base::Base;
  Status PruneColumns(const std::shared_ptr<arrow::Schema>& schema) override {
    this->DoPrune(schema);
    return Status::OK();
  }
};

using FilterBuilder = WithV2Filters<BuilderCore>;
using PruneBuilder = WithPruning<BuilderCore>;
using FilterPruneBuilder = WithPruning<WithV2Filters<BuilderCore>>;
using SampleBuilder = WithSample<FilterPruneBuilder>;

// Every mix-in at once: filters, pruning, limit, top-N and offset.
class FullBuilder : public FilterPruneBuilder,
                    public SupportsPushDownLimit,
                    public SupportsPushDownTopN,
                    public SupportsPushDownOffset,
                    public SupportsPushDownAggregates {
 public:
  using FilterPruneBuilder::FilterPruneBuilder;
  bool SupportCompletePushDown(const Aggregation&) const override {
    return options_.aggregate_complete;
  }
  Result<bool> PushAggregation(const Aggregation& aggregation) override {
    aggregation_ = aggregation;
    log_->pushed_aggregations.push_back(aggregation.ToString());
    return true;
  }
  bool PushLimit(int64_t limit) override {
    limit_ = limit;
    log_->pushed_limit = limit;
    return true;
  }
  bool PushTopN(const std::vector<std::shared_ptr<SortOrder>>& orders, int64_t limit) override {
    top_n_ = orders;
    limit_ = limit;
    for (const auto& order : orders) log_->pushed_top_n.push_back(order->ToString());
    log_->pushed_limit = limit;
    return true;
  }
  bool PushOffset(int64_t offset) override {
    offset_ = offset;
    log_->pushed_offset = offset;
    return true;
  }
  bool IsPartiallyPushed() const override { return !options_.limit_complete; }
};

// FullBuilder that also takes joins with builders of the same catalog (`owner`). The joined
// relation replaces the builder's rows: the pairs of both sides' sampled and filtered rows,
// with the offered columns under their aliases, for which the condition is TRUE.
class JoinBuilder : public FullBuilder, public SupportsPushDownJoin {
 public:
  JoinBuilder(std::shared_ptr<arrow::Table> data, TestTableOptions options,
              std::shared_ptr<TestTableLog> log, const void* owner)
      : FullBuilder(std::move(data), std::move(options), std::move(log)), owner_(owner) {}

  bool IsOtherSideCompatibleForJoin(const SupportsPushDownJoin& other) const override {
    const auto* right = dynamic_cast<const JoinBuilder*>(&other);
    return right != nullptr && right->owner_ == owner_;
  }

  Result<bool> PushDownJoin(const SupportsPushDownJoin& other, JoinType,
                            const std::vector<ColumnWithAlias>& left_columns,
                            const std::vector<ColumnWithAlias>& right_columns,
                            const PredicatePtr& condition) override {
    std::string offer =
        fmt::format("{} {} {}", condition->ToString(), Names(left_columns), Names(right_columns));
    log_->join_offers.push_back(offer);
    if (!options_.accept_join) return false;
    auto predicate = PredicateToArrow(*condition);
    if (!predicate.ok()) return false;
    const auto& right = dynamic_cast<const JoinBuilder&>(other);
    ARROW_ASSIGN_OR_RAISE(auto left_rows, Columns(left_columns));
    ARROW_ASSIGN_OR_RAISE(auto right_rows, right.Columns(right_columns));
    ARROW_ASSIGN_OR_RAISE(auto pairs, CrossProduct(left_rows, right_rows));
    ARROW_ASSIGN_OR_RAISE(data_, FilterRows(std::move(pairs), *predicate));
    accepted_.clear();
    sample_.reset();
    log_->pushed_joins.push_back(offer);
    return true;
  }

 private:
  static std::string Names(const std::vector<ColumnWithAlias>& columns) {
    std::vector<std::string> names;
    for (const auto& c : columns) names.push_back(c.alias.empty() ? c.column : c.alias);
    return fmt::format("[{}]", fmt::join(names, ", "));
  }

  // This side's rows, with the offered columns renamed to their aliases.
  Result<std::shared_ptr<arrow::Table>> Columns(const std::vector<ColumnWithAlias>& columns) const {
    ARROW_ASSIGN_OR_RAISE(auto rows, SampledAndFiltered());
    arrow::FieldVector fields;
    arrow::ChunkedArrayVector arrays;
    for (const auto& column : columns) {
      auto index = rows->schema()->GetFieldIndex(column.column);
      if (index < 0) return Status::Invalid("no column ", column.column);
      const auto& name = column.alias.empty() ? column.column : column.alias;
      fields.push_back(rows->schema()->field(index)->WithName(name));
      arrays.push_back(rows->column(index));
    }
    return arrow::Table::Make(arrow::schema(fields), arrays, rows->num_rows());
  }

  // Every pair of a left row and a right row, the left's columns first.
  static Result<std::shared_ptr<arrow::Table>> CrossProduct(
      const std::shared_ptr<arrow::Table>& left, const std::shared_ptr<arrow::Table>& right) {
    arrow::Int64Builder left_index, right_index;
    for (int64_t i = 0; i < left->num_rows(); ++i) {
      for (int64_t j = 0; j < right->num_rows(); ++j) {
        ARROW_RETURN_NOT_OK(left_index.Append(i));
        ARROW_RETURN_NOT_OK(right_index.Append(j));
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto left_indices, left_index.Finish());
    ARROW_ASSIGN_OR_RAISE(auto right_indices, right_index.Finish());
    ARROW_ASSIGN_OR_RAISE(auto left_taken, cp::Take(arrow::Datum(left), left_indices));
    ARROW_ASSIGN_OR_RAISE(auto right_taken, cp::Take(arrow::Datum(right), right_indices));
    arrow::FieldVector fields = left->schema()->fields();
    arrow::ChunkedArrayVector columns = left_taken.table()->columns();
    for (const auto& field : right->schema()->fields()) fields.push_back(field);
    for (const auto& column : right_taken.table()->columns()) columns.push_back(column);
    return arrow::Table::Make(arrow::schema(fields), columns, left_indices->length());
  }

  const void* owner_;
};

class TestTable : public Table, public SupportsRead {
 public:
  TestTable(std::string name, std::shared_ptr<arrow::Table> data, TestTableOptions options,
            std::shared_ptr<TestTableLog> log, const void* owner)
      : name_(std::move(name)),
        data_(std::move(data)),
        options_(options),
        log_(std::move(log)),
        owner_(owner) {}
  std::string name() const override { return name_; }
  std::vector<Column> columns() const override { return SchemaToColumns(*data_->schema()); }
  std::set<TableCapability> capabilities() const override {
    if (options_.batch_read) return {TableCapability::kBatchRead};
    return {TableCapability::kBatchWrite};
  }
  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options&) override {
    log_->builders_created++;
    if (options_.limit_pushdown && options_.join_pushdown) {
      return std::make_unique<JoinBuilder>(data_, options_, log_, owner_);
    }
    if (options_.limit_pushdown) return std::make_unique<FullBuilder>(data_, options_, log_);
    if (options_.v1_filters) return std::make_unique<V1FilterBuilder>(data_, options_, log_);
    if (options_.filter_pushdown && options_.column_pruning && options_.sample_pushdown) {
      return std::make_unique<SampleBuilder>(data_, options_, log_);
    }
    if (options_.filter_pushdown && options_.column_pruning) {
      return std::make_unique<FilterPruneBuilder>(data_, options_, log_);
    }
    if (options_.filter_pushdown) return std::make_unique<FilterBuilder>(data_, options_, log_);
    if (options_.column_pruning) return std::make_unique<PruneBuilder>(data_, options_, log_);
    return std::make_unique<BuilderCore>(data_, options_, log_);
  }

 protected:
  const TestTableOptions& options() const { return options_; }
  TestTableLog* log() const { return log_.get(); }

 private:
  std::string name_;
  std::shared_ptr<arrow::Table> data_;
  TestTableOptions options_;
  std::shared_ptr<TestTableLog> log_;
  const void* owner_;  // the catalog: builders of one catalog can join
};

// A test table that can delete by filters (SupportsDeleteV2) and only logs what it is asked.
class DeletableTestTable : public TestTable, public SupportsDeleteV2 {
 public:
  using TestTable::TestTable;
  bool CanDeleteWhere(const std::vector<PredicatePtr>& predicates) const override {
    log()->can_delete_where.push_back(Joined(predicates));
    return !predicates.empty() &&
           std::all_of(predicates.begin(), predicates.end(), [&](const PredicatePtr& p) {
             return options().accepted_predicates.count(p->name()) > 0;
           });
  }
  Result<int64_t> DeleteWhere(const std::vector<PredicatePtr>& predicates) override {
    log()->delete_where.push_back(Joined(predicates));
    return 0;
  }

 private:
  static std::string Joined(const std::vector<PredicatePtr>& predicates) {
    std::vector<std::string> texts;
    for (const auto& predicate : predicates) texts.push_back(predicate->ToString());
    return fmt::format("{}", fmt::join(texts, " AND "));
  }
};

Result<cp::Expression> OperandToArrow(const Expression& expression) {
  if (const auto* name = AsColumnName(expression)) return cp::field_ref(*name);
  if (const auto* literal = dynamic_cast<const Literal*>(&expression)) {
    return cp::literal(arrow::Datum(literal->value()));
  }
  if (const auto* predicate = dynamic_cast<const Predicate*>(&expression)) {
    return PredicateToArrow(*predicate);
  }
  return Status::Invalid("unsupported operand ", expression.ToString());
}

}  // namespace

Result<cp::Expression> PredicateToArrow(const Predicate& predicate) {
  static const std::map<std::string, std::string> kFunctions = {
      {"=", "equal"},         {"<>", "not_equal"},        {"<", "less"},
      {"<=", "less_equal"},   {">", "greater"},           {">=", "greater_equal"},
      {"AND", "and_kleene"},  {"OR", "or_kleene"},        {"NOT", "invert"},
      {"IS_NULL", "is_null"}, {"IS_NOT_NULL", "is_valid"}};
  std::vector<cp::Expression> args;
  for (const auto& child : predicate.children()) {
    ARROW_ASSIGN_OR_RAISE(auto arg, OperandToArrow(*child));
    args.push_back(std::move(arg));
  }
  if (auto it = kFunctions.find(predicate.name()); it != kFunctions.end()) {
    return cp::call(it->second, std::move(args));
  }
  if (predicate.name() == "IN") {
    cp::Expression any = cp::literal(false);
    for (size_t i = 1; i < args.size(); ++i) {
      any = cp::call("or_kleene", {any, cp::call("equal", {args[0], args[i]})});
    }
    return any;
  }
  return Status::Invalid("unsupported predicate ", predicate.ToString());
}

Status TestCatalog::Initialize(const std::string& name, const Options& options) {
  name_ = name;
  options_ = options;
  return Status::OK();
}

Result<std::vector<Identifier>> TestCatalog::ListTables(const std::vector<std::string>& ns) {
  std::vector<Identifier> out;
  for (const auto& [name, entry] : tables_) out.push_back({{"default"}, name});
  return out;
}

Result<std::shared_ptr<Table>> TestCatalog::LoadTable(const Identifier& ident) {
  auto it = tables_.find(ident.name);
  if (ident.namespace_path != std::vector<std::string>{"default"} || it == tables_.end()) {
    return MakeError(arrow::StatusCode::KeyError, "TABLE_OR_VIEW_NOT_FOUND",
                     "The table or view " + ident.ToString() + " cannot be found.");
  }
  if (it->second.options.delete_where) {
    return std::make_shared<DeletableTestTable>(ident.name, it->second.data, it->second.options,
                                                it->second.log, this);
  }
  return std::make_shared<TestTable>(ident.name, it->second.data, it->second.options,
                                     it->second.log, this);
}

Result<std::vector<std::vector<std::string>>> TestCatalog::ListNamespaces(
    const std::vector<std::string>& parent) {
  if (!parent.empty()) return std::vector<std::vector<std::string>>{};
  return std::vector<std::vector<std::string>>{{"default"}};
}

Result<bool> TestCatalog::NamespaceExists(const std::vector<std::string>& ns) {
  return ns == std::vector<std::string>{"default"};
}

void TestCatalog::AddTable(const std::string& name, std::shared_ptr<arrow::Table> data,
                           TestTableOptions options) {
  tables_[name] = Entry{std::move(data), options, std::make_shared<TestTableLog>()};
}

std::shared_ptr<TestTableLog> TestCatalog::log(const std::string& name) const {
  return tables_.at(name).log;
}

std::shared_ptr<arrow::Table> MakeIntTable(const std::vector<std::string>& names,
                                           const std::vector<std::vector<int32_t>>& columns) {
  arrow::FieldVector fields;
  arrow::ArrayVector arrays;
  for (size_t c = 0; c < names.size(); ++c) {
    arrow::Int32Builder builder;
    for (int32_t value : columns[c]) {
      auto st = value == INT32_MIN ? builder.AppendNull() : builder.Append(value);
      (void)st;
    }
    std::shared_ptr<arrow::Array> array;
    (void)builder.Finish(&array);
    fields.push_back(arrow::field(names[c], arrow::int32()));
    arrays.push_back(array);
  }
  return arrow::Table::Make(arrow::schema(fields), arrays);
}

}  // namespace parley::testing
