#include "functions/collecting_aggregates.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "arrow/array.h"
#include "arrow/array/concatenate.h"
#include "arrow/builder.h"
#include "arrow/compute/api.h"
#include "arrow/io/memory.h"
#include "arrow/ipc/reader.h"
#include "arrow/ipc/writer.h"
#include "arrow/record_batch.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "kernels/kernel_support.h"
#include "kernels/scalar_keys.h"
#include "kernels/spark_hash.h"
#include "parley/connector/status.h"

namespace parley {
namespace {

namespace cp = arrow::compute;
using ArrayPtr = std::shared_ptr<arrow::Array>;
using ScalarPtr = std::shared_ptr<arrow::Scalar>;

// The rows a group has seen: per argument, the chunks in the order they came.
struct CollectedRows : AggregationState {
  std::vector<arrow::ArrayVector> columns;
  int64_t rows = 0;
};

Result<ScalarPtr> NullOf(const std::shared_ptr<arrow::DataType>& type) {
  return arrow::MakeNullScalar(type);
}

// A list scalar of `values` typed as `type` (a list of their type).
ScalarPtr ListOf(ArrayPtr values, const std::shared_ptr<arrow::DataType>& type) {
  return std::make_shared<arrow::ListScalar>(std::move(values), type);
}

bool IsNaNScalar(const arrow::Scalar& scalar) {
  if (!scalar.is_valid) return false;
  if (scalar.type->id() == arrow::Type::DOUBLE) {
    return std::isnan(static_cast<const arrow::DoubleScalar&>(scalar).value);
  }
  if (scalar.type->id() == arrow::Type::FLOAT) {
    return std::isnan(static_cast<const arrow::FloatScalar&>(scalar).value);
  }
  return false;
}

// Rows of `keys` in order (stable), NaN above every number as Spark orders it (Arrow places
// NaN next to the NULLs); NULL rows where `nulls_first` says.
Result<std::vector<int64_t>> SortedRows(const std::vector<ArrayPtr>& keys,
                                        const std::vector<CollectingOrder>& order) {
  int64_t n = keys.empty() ? 0 : keys[0]->length();
  std::vector<int64_t> rows(n);
  for (int64_t i = 0; i < n; ++i) rows[i] = i;
  // Sorting by the last key first, stably, sorts by all of them.
  for (size_t k = keys.size(); k-- > 0;) {
    const auto& key = keys[k];
    std::vector<ScalarPtr> values(n);
    for (int64_t i = 0; i < n; ++i) {
      ARROW_ASSIGN_OR_RAISE(values[i], key->GetScalar(i));
    }
    cp::RankOptions rank_options(cp::SortOrder::Ascending, cp::NullPlacement::AtEnd,
                                 cp::RankOptions::Dense);
    ARROW_ASSIGN_OR_RAISE(auto ranks_datum, cp::CallFunction("rank", {key}, &rank_options));
    auto ranks = std::static_pointer_cast<arrow::UInt64Array>(ranks_datum.make_array());
    // A rank of each row: NaN above the numbers, NULL first or last as asked.
    auto rank_of = [&](int64_t row) -> std::pair<int, uint64_t> {
      if (!values[row]->is_valid) return {order[k].nulls_first ? -2 : 2, 0};
      if (IsNaNScalar(*values[row])) return {order[k].ascending ? 1 : -1, 0};
      uint64_t rank = ranks->Value(row);
      return {0, order[k].ascending ? rank : UINT64_MAX - rank};
    };
    std::stable_sort(rows.begin(), rows.end(),
                     [&](int64_t a, int64_t b) { return rank_of(a) < rank_of(b); });
  }
  return rows;
}

// The first row of each distinct (normalized) value of `values`, NULLs left out.
Result<std::vector<int64_t>> FirstOccurrences(const ArrayPtr& values,
                                              std::vector<int64_t>* counts = nullptr) {
  std::unordered_map<ScalarPtr, size_t, kernels::ScalarKeyHash, kernels::ScalarKeyEqual> seen;
  std::vector<int64_t> rows;
  for (int64_t i = 0; i < values->length(); ++i) {
    if (values->IsNull(i)) continue;
    ARROW_ASSIGN_OR_RAISE(auto scalar, values->GetScalar(i));
    auto [at, inserted] = seen.emplace(kernels::Normalized(scalar), rows.size());
    if (inserted) {
      rows.push_back(i);
      if (counts != nullptr) counts->push_back(1);
    } else if (counts != nullptr) {
      ++(*counts)[at->second];
    }
  }
  return rows;
}

// The hash of each value for `kind`, or nullopt when one of them has none.
Result<std::optional<std::vector<int32_t>>> CollectionHashes(const ArrayPtr& values,
                                                             const std::vector<int64_t>& rows,
                                                             kernels::CollectionHash kind) {
  std::vector<int32_t> hashes;
  for (int64_t row : rows) {
    ARROW_ASSIGN_OR_RAISE(auto scalar, values->GetScalar(row));
    auto hash = kernels::CollectionHashOf(*kernels::Normalized(scalar), kind);
    if (!hash) return std::optional<std::vector<int32_t>>();
    hashes.push_back(*hash);
  }
  return std::optional<std::vector<int32_t>>(std::move(hashes));
}

// The bucket count of collect_set's buffer, Scala's HashSet of 16 buckets doubled when an
// insert (a repeat too) would bring it to three quarters full, after the inserts of `values`
// whose first occurrences are `firsts`.
uint32_t HashSetCapacity(const ArrayPtr& values, const std::vector<int64_t>& firsts) {
  uint32_t capacity = 16;
  size_t distinct = 0;
  for (int64_t i = 0; i < values->length(); ++i) {
    if (values->IsNull(i)) continue;
    if (distinct + 1 >= capacity * 3 / 4) capacity *= 2;
    if (distinct < firsts.size() && firsts[distinct] == i) ++distinct;
  }
  return capacity;
}

// collect_set's order: bucket by bucket, within a bucket by hash.
std::vector<size_t> HashSetOrder(const std::vector<int32_t>& hashes, uint32_t capacity) {
  std::vector<size_t> order(hashes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto bucket = [&](size_t i) { return static_cast<uint32_t>(hashes[i]) & (capacity - 1); };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (bucket(a) != bucket(b)) return bucket(a) < bucket(b);
    return hashes[a] < hashes[b];
  });
  return order;
}

// mode's order: Spark's open-addressing map of 64 slots, probed quadratically, doubled (its keys
// moved in slot order) when more than 70% full; iterated slot by slot.
std::vector<size_t> OpenHashMapOrder(const std::vector<int32_t>& hashes) {
  uint32_t capacity = 64;
  std::vector<int64_t> slots(capacity, -1);
  auto place = [](std::vector<int64_t>* table, uint32_t hash, int64_t key) {
    uint32_t mask = static_cast<uint32_t>(table->size()) - 1;
    uint32_t pos = hash & mask;
    for (uint32_t delta = 1; (*table)[pos] >= 0; ++delta) pos = (pos + delta) & mask;
    (*table)[pos] = key;
  };
  size_t size = 0;
  for (size_t i = 0; i < hashes.size(); ++i) {
    place(&slots, static_cast<uint32_t>(hashes[i]), static_cast<int64_t>(i));
    if (++size > static_cast<size_t>(capacity * 0.7)) {
      capacity *= 2;
      std::vector<int64_t> grown(capacity, -1);
      for (int64_t key : slots) {
        if (key >= 0) place(&grown, static_cast<uint32_t>(hashes[key]), key);
      }
      slots = std::move(grown);
    }
  }
  std::vector<size_t> order;
  for (int64_t key : slots) {
    if (key >= 0) order.push_back(static_cast<size_t>(key));
  }
  return order;
}

// Doubles sorted as Spark orders them (NaN above every number), descending when asked.
void SortDoubles(std::vector<std::pair<double, int64_t>>* values, bool descending) {
  auto less = [](double a, double b) {
    if (std::isnan(a)) return false;
    return std::isnan(b) || a < b;
  };
  std::stable_sort(values->begin(), values->end(), [&](const auto& a, const auto& b) {
    return descending ? less(b.first, a.first) : less(a.first, b.first);
  });
}

Result<std::string> RowsToBytes(const std::vector<ArrayPtr>& columns) {
  arrow::FieldVector fields;
  for (size_t i = 0; i < columns.size(); ++i) {
    fields.push_back(arrow::field(fmt::format("c{}", i), columns[i]->type()));
  }
  int64_t length = columns.empty() ? 0 : columns[0]->length();
  auto batch = arrow::RecordBatch::Make(arrow::schema(fields), length, columns);
  ARROW_ASSIGN_OR_RAISE(auto sink, arrow::io::BufferOutputStream::Create());
  ARROW_ASSIGN_OR_RAISE(auto writer, arrow::ipc::MakeStreamWriter(sink, batch->schema()));
  ARROW_RETURN_NOT_OK(writer->WriteRecordBatch(*batch));
  ARROW_RETURN_NOT_OK(writer->Close());
  ARROW_ASSIGN_OR_RAISE(auto buffer, sink->Finish());
  return buffer->ToString();
}

Result<std::vector<ArrayPtr>> RowsFromBytes(std::string_view bytes) {
  auto buffer = std::make_shared<arrow::Buffer>(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                static_cast<int64_t>(bytes.size()));
  auto input = std::make_shared<arrow::io::BufferReader>(buffer);
  ARROW_ASSIGN_OR_RAISE(auto reader, arrow::ipc::RecordBatchStreamReader::Open(input));
  std::shared_ptr<arrow::RecordBatch> batch;
  ARROW_RETURN_NOT_OK(reader->ReadNext(&batch));
  if (batch == nullptr) return Status::Invalid("damaged aggregation state");
  std::vector<ArrayPtr> columns;
  for (int i = 0; i < batch->num_columns(); ++i) {
    // Copied out of `bytes`, which the caller may free.
    ARROW_ASSIGN_OR_RAISE(auto copy, arrow::Concatenate({batch->column(i)}));
    columns.push_back(std::move(copy));
  }
  return columns;
}

class Collecting : public AggregateFunction {
 public:
  explicit Collecting(CollectingSpec spec) : spec_(std::move(spec)) {
    types_ = spec_.value_types;
    types_.insert(types_.end(), spec_.order_types.begin(), spec_.order_types.end());
    if (spec_.filtered) types_.push_back(arrow::boolean());
  }

  std::string name() const override { return spec_.name; }
  std::vector<std::shared_ptr<arrow::DataType>> input_types() const override { return types_; }
  std::shared_ptr<arrow::DataType> result_type() const override { return spec_.result_type; }
  bool deterministic() const override {
    return spec_.kind != CollectingKind::kFirst && spec_.kind != CollectingKind::kLast;
  }
  std::string canonical_name() const override {
    std::string text = fmt::format("{}:{}:{}:{}:{}:{}:{}:{}:{}:{}", spec_.name, spec_.distinct,
                                   spec_.ignore_nulls, spec_.top_k.value_or(0), spec_.delimiter,
                                   spec_.deterministic, spec_.relative_error, spec_.filtered,
                                   spec_.percentages_array, spec_.result_type->ToString());
    for (double p : spec_.percentages) text += fmt::format(":{}", p);
    for (const auto& o : spec_.order) text += fmt::format(":{}{}", o.ascending, o.nulls_first);
    return text;
  }

  std::unique_ptr<AggregationState> NewState() const override {
    auto state = std::make_unique<CollectedRows>();
    state->columns.resize(types_.size());
    return state;
  }

  Status Update(AggregationState* state, const arrow::ArrayVector& given,
                int64_t length) const override {
    auto* rows = static_cast<CollectedRows*>(state);
    arrow::ArrayVector args = given;
    if (spec_.filtered) {
      auto mask = args.back();
      for (auto& arg : args) {
        ARROW_ASSIGN_OR_RAISE(auto kept, cp::Filter(arg, mask));
        arg = kept.make_array();
      }
      length = args[0]->length();
    }
    if (length == 0) return Status::OK();
    if (spec_.kind == CollectingKind::kFirst || spec_.kind == CollectingKind::kLast) {
      return KeepOne(rows, args, length, spec_.kind == CollectingKind::kFirst);
    }
    for (size_t i = 0; i < args.size(); ++i) rows->columns[i].push_back(args[i]);
    rows->rows += length;
    return Status::OK();
  }

  Status Merge(AggregationState* state, const AggregationState& other_state) const override {
    auto* rows = static_cast<CollectedRows*>(state);
    const auto& other = static_cast<const CollectedRows&>(other_state);
    if (other.rows == 0) return Status::OK();
    const bool first = spec_.kind == CollectingKind::kFirst;
    if (first || spec_.kind == CollectingKind::kLast) {
      if (first && rows->rows > 0) return Status::OK();
      *rows = other;
      return Status::OK();
    }
    for (size_t i = 0; i < rows->columns.size(); ++i) {
      rows->columns[i].insert(rows->columns[i].end(), other.columns[i].begin(),
                              other.columns[i].end());
    }
    rows->rows += other.rows;
    return Status::OK();
  }

  Result<std::string> Serialize(const AggregationState& state) const override {
    ARROW_ASSIGN_OR_RAISE(auto columns, Columns(static_cast<const CollectedRows&>(state)));
    return RowsToBytes(columns);
  }

  Result<std::unique_ptr<AggregationState>> Deserialize(std::string_view bytes) const override {
    ARROW_ASSIGN_OR_RAISE(auto columns, RowsFromBytes(bytes));
    if (columns.size() != types_.size()) return Status::Invalid("damaged aggregation state");
    auto state = std::make_unique<CollectedRows>();
    state->columns.resize(types_.size());
    state->rows = columns.empty() ? 0 : columns[0]->length();
    if (state->rows > 0) {
      for (size_t i = 0; i < columns.size(); ++i) state->columns[i].push_back(columns[i]);
    }
    return std::unique_ptr<AggregationState>(std::move(state));
  }

  Result<ScalarPtr> Produce(const AggregationState& state) const override {
    ARROW_ASSIGN_OR_RAISE(auto columns, Columns(static_cast<const CollectedRows&>(state)));
    if (spec_.filtered) columns.pop_back();
    std::vector<int64_t> rows(columns.empty() ? 0 : columns[0]->length());
    for (size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<int64_t>(i);
    if (spec_.distinct) {
      ARROW_ASSIGN_OR_RAISE(rows, FirstOccurrences(columns[0]));
    }
    if (!spec_.order_types.empty()) {
      std::vector<ArrayPtr> keys(columns.begin() + spec_.value_types.size(), columns.end());
      for (auto& key : keys) {
        ARROW_ASSIGN_OR_RAISE(key, kernels::TakeRows(key, rows));
      }
      ARROW_ASSIGN_OR_RAISE(auto sorted, SortedRows(keys, spec_.order));
      std::vector<int64_t> reordered;
      for (int64_t at : sorted) reordered.push_back(rows[at]);
      rows = std::move(reordered);
    }
    std::vector<ArrayPtr> values;
    for (size_t i = 0; i < spec_.value_types.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto taken, kernels::TakeRows(columns[i], rows));
      values.push_back(std::move(taken));
    }
    switch (spec_.kind) {
      case CollectingKind::kFirst:
      case CollectingKind::kLast:
        if (values[0]->length() == 0) return NullOf(spec_.result_type);
        return values[0]->GetScalar(0);
      case CollectingKind::kMaxBy:
      case CollectingKind::kMinBy: return BestBy(values);
      case CollectingKind::kCollectList:
      case CollectingKind::kCollectSet: return Collect(values[0]);
      case CollectingKind::kStringAgg: return Join(values[0]);
      case CollectingKind::kPercentile:
      case CollectingKind::kPercentileDisc: return Percentiles(values);
      case CollectingKind::kPercentileApprox: return ApproxPercentiles(values[0]);
      case CollectingKind::kMode: return Mode(values[0]);
      case CollectingKind::kCountDistinct: {
        ARROW_ASSIGN_OR_RAISE(auto distinct, FirstOccurrences(values[0]));
        return std::make_shared<arrow::Int64Scalar>(static_cast<int64_t>(distinct.size()));
      }
    }
    return Status::Invalid("unknown collecting aggregate");
  }

 private:
  // first / last: keep the batch's first (last) row, or its first (last) non-NULL one.
  Status KeepOne(CollectedRows* rows, const arrow::ArrayVector& args, int64_t length,
                 bool first) const {
    if (first && rows->rows > 0) return Status::OK();
    int64_t pick = -1;
    for (int64_t step = 0; step < length; ++step) {
      int64_t i = first ? step : length - 1 - step;
      if (!spec_.ignore_nulls || args[0]->IsValid(i)) {
        pick = i;
        break;
      }
    }
    if (pick < 0) return Status::OK();
    for (size_t i = 0; i < args.size(); ++i) rows->columns[i] = {args[i]->Slice(pick, 1)};
    rows->rows = 1;
    return Status::OK();
  }

  Result<std::vector<ArrayPtr>> Columns(const CollectedRows& rows) const {
    std::vector<ArrayPtr> columns;
    for (size_t i = 0; i < types_.size(); ++i) {
      if (rows.columns[i].empty()) {
        ARROW_ASSIGN_OR_RAISE(auto empty, arrow::MakeEmptyArray(types_[i]));
        columns.push_back(std::move(empty));
      } else if (rows.columns[i].size() == 1) {
        columns.push_back(rows.columns[i][0]);
      } else {
        ARROW_ASSIGN_OR_RAISE(auto joined, arrow::Concatenate(rows.columns[i]));
        columns.push_back(std::move(joined));
      }
    }
    return columns;
  }

  // max_by / min_by: the value at the largest (smallest) key, a later row winning a tie; with
  // k, the k best values, best first.
  Result<ScalarPtr> BestBy(const std::vector<ArrayPtr>& values) const {
    const auto& value = values[0];
    const auto& key = values[1];
    std::vector<int64_t> candidates;
    for (int64_t i = key->length() - 1; i >= 0; --i) {
      if (key->IsValid(i)) candidates.push_back(i);
    }
    ARROW_ASSIGN_OR_RAISE(auto keys, kernels::TakeRows(key, candidates));
    bool ascending = spec_.kind == CollectingKind::kMinBy;
    ARROW_ASSIGN_OR_RAISE(auto sorted, SortedRows({keys}, {{ascending, true}}));
    if (!spec_.top_k) {
      if (sorted.empty()) return NullOf(spec_.result_type);
      return value->GetScalar(candidates[sorted[0]]);
    }
    if (sorted.empty()) return NullOf(spec_.result_type);
    std::vector<int64_t> best;
    for (size_t i = 0; i < sorted.size() && static_cast<int64_t>(i) < *spec_.top_k; ++i) {
      best.push_back(candidates[sorted[i]]);
    }
    ARROW_ASSIGN_OR_RAISE(auto picked, kernels::TakeRows(value, best));
    return ListOf(std::move(picked), spec_.result_type);
  }

  Result<ScalarPtr> Collect(const ArrayPtr& values) const {
    std::vector<int64_t> rows;
    if (spec_.kind == CollectingKind::kCollectSet) {
      ARROW_ASSIGN_OR_RAISE(rows, FirstOccurrences(values));
      ARROW_ASSIGN_OR_RAISE(auto hashes,
                            CollectionHashes(values, rows, kernels::CollectionHash::kScalaHashSet));
      if (hashes) {
        std::vector<int64_t> ordered;
        for (size_t at : HashSetOrder(*hashes, HashSetCapacity(values, rows))) {
          ordered.push_back(rows[at]);
        }
        rows = std::move(ordered);
      }
    } else {
      for (int64_t i = 0; i < values->length(); ++i) {
        if (values->IsValid(i)) rows.push_back(i);
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto picked, kernels::TakeRows(values, rows));
    if (spec_.kind == CollectingKind::kCollectSet || spec_.distinct) {
      // -0.0 as 0.0 and one NaN, as the set holds them.
      auto builder = arrow::MakeBuilder(picked->type());
      ARROW_RETURN_NOT_OK(builder.status());
      for (int64_t i = 0; i < picked->length(); ++i) {
        ARROW_ASSIGN_OR_RAISE(auto scalar, picked->GetScalar(i));
        ARROW_RETURN_NOT_OK((*builder)->AppendScalar(*kernels::Normalized(scalar)));
      }
      ARROW_ASSIGN_OR_RAISE(picked, (*builder)->Finish());
    }
    return ListOf(std::move(picked), spec_.result_type);
  }

  Result<ScalarPtr> Join(const ArrayPtr& values) const {
    std::string joined;
    bool any = false;
    for (int64_t i = 0; i < values->length(); ++i) {
      if (values->IsNull(i)) continue;
      if (any) joined += spec_.delimiter;
      any = true;
      joined += static_cast<const arrow::BinaryArray&>(*values).GetView(i);
    }
    if (!any) return NullOf(spec_.result_type);
    if (spec_.result_type->id() == arrow::Type::BINARY) {
      return std::make_shared<arrow::BinaryScalar>(std::move(joined));
    }
    return std::make_shared<arrow::StringScalar>(std::move(joined));
  }

  // percentile / percentile_cont (interpolated) and percentile_disc over DOUBLE values with
  // an optional BIGINT frequency.
  Result<ScalarPtr> Percentiles(const std::vector<ArrayPtr>& values) const {
    const auto& value = static_cast<const arrow::DoubleArray&>(*values[0]);
    const arrow::Int64Array* frequency =
        values.size() > 1 ? static_cast<const arrow::Int64Array*>(values[1].get()) : nullptr;
    std::vector<std::pair<double, int64_t>> counted;
    int64_t total = 0;
    for (int64_t i = 0; i < value.length(); ++i) {
      if (value.IsNull(i)) continue;
      int64_t count = 1;
      if (frequency != nullptr) {
        if (frequency->IsNull(i)) continue;
        count = frequency->Value(i);
        if (count < 0) {
          return MakeError(arrow::StatusCode::Invalid, "NEGATIVE_VALUES_IN_FREQUENCY_EXPRESSION",
                           fmt::format("Found the negative value in the frequency of `{}`: {}L, "
                                       "but expected a positive integral value.",
                                       spec_.name, count));
        }
        if (count == 0) continue;
      }
      double x = value.Value(i);
      counted.emplace_back(x == 0.0 ? 0.0 : x, count);
      total += count;
    }
    if (total == 0) return NullOf(spec_.result_type);
    SortDoubles(&counted, spec_.order.size() == 1 && !spec_.order[0].ascending);
    std::vector<int64_t> cumulative;
    for (const auto& [x, count] : counted) {
      cumulative.push_back((cumulative.empty() ? 0 : cumulative.back()) + count);
    }
    auto at_rank = [&](int64_t rank) {  // 0-based
      size_t i = std::upper_bound(cumulative.begin(), cumulative.end(), rank) - cumulative.begin();
      return counted[std::min(i, counted.size() - 1)].first;
    };
    std::vector<double> results;
    for (double p : spec_.percentages) {
      if (spec_.kind == CollectingKind::kPercentileDisc) {
        auto rank = static_cast<int64_t>(std::ceil(p * static_cast<double>(total))) - 1;
        results.push_back(at_rank(std::max<int64_t>(rank, 0)));
        continue;
      }
      double position = p * static_cast<double>(total - 1);
      auto lower = static_cast<int64_t>(std::floor(position));
      auto higher = static_cast<int64_t>(std::ceil(position));
      double low = at_rank(lower);
      double high = at_rank(higher);
      if (lower == higher || low == high) {
        results.push_back(low);
      } else {
        results.push_back((static_cast<double>(higher) - position) * low +
                          (position - static_cast<double>(lower)) * high);
      }
    }
    if (!spec_.percentages_array) return std::make_shared<arrow::DoubleScalar>(results[0]);
    arrow::DoubleBuilder builder;
    ARROW_RETURN_NOT_OK(builder.AppendValues(results));
    ARROW_ASSIGN_OR_RAISE(auto array, builder.Finish());
    return ListOf(std::move(array), spec_.result_type);
  }

  // percentile_approx: the element at rank ceil(p * n), the smallest and largest within the
  // relative error of the ends, as Spark's quantile summary answers when it holds every value.
  Result<ScalarPtr> ApproxPercentiles(const ArrayPtr& values) const {
    std::vector<int64_t> valid;
    for (int64_t i = 0; i < values->length(); ++i) {
      if (values->IsValid(i)) valid.push_back(i);
    }
    if (valid.empty()) return NullOf(spec_.result_type);
    ARROW_ASSIGN_OR_RAISE(auto present, kernels::TakeRows(values, valid));
    ARROW_ASSIGN_OR_RAISE(auto sorted_rows, SortedRows({present}, {{true, true}}));
    ARROW_ASSIGN_OR_RAISE(auto sorted, kernels::TakeRows(present, sorted_rows));
    auto n = static_cast<int64_t>(valid.size());
    std::vector<int64_t> picks;
    for (double p : spec_.percentages) {
      int64_t index;
      if (p <= spec_.relative_error) {
        index = 0;
      } else if (p >= 1 - spec_.relative_error) {
        index = n - 1;
      } else {
        index = static_cast<int64_t>(std::ceil(p * static_cast<double>(n))) - 1;
      }
      picks.push_back(std::clamp<int64_t>(index, 0, n - 1));
    }
    if (!spec_.percentages_array) return sorted->GetScalar(picks[0]);
    ARROW_ASSIGN_OR_RAISE(auto picked, kernels::TakeRows(sorted, picks));
    return ListOf(std::move(picked), spec_.result_type);
  }

  // mode: the most frequent value; among equally frequent ones the first in Spark's map order,
  // or with `deterministic` (or WITHIN GROUP) the first in the value order.
  Result<ScalarPtr> Mode(const ArrayPtr& values) const {
    std::vector<int64_t> counts;
    ARROW_ASSIGN_OR_RAISE(auto rows, FirstOccurrences(values, &counts));
    if (rows.empty()) return NullOf(spec_.result_type);
    std::vector<size_t> order(rows.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    if (spec_.deterministic) {
      ARROW_ASSIGN_OR_RAISE(auto distinct, kernels::TakeRows(values, rows));
      bool ascending = spec_.order.empty() || spec_.order[0].ascending;
      ARROW_ASSIGN_OR_RAISE(auto sorted, SortedRows({distinct}, {{ascending, true}}));
      order.assign(sorted.begin(), sorted.end());
    } else {
      ARROW_ASSIGN_OR_RAISE(auto hashes,
                            CollectionHashes(values, rows, kernels::CollectionHash::kOpenHashMap));
      if (hashes) order = OpenHashMapOrder(*hashes);
    }
    size_t best = order[0];
    for (size_t at : order) {
      if (counts[at] > counts[best]) best = at;
    }
    return values->GetScalar(rows[best]);
  }

  CollectingSpec spec_;
  std::vector<std::shared_ptr<arrow::DataType>> types_;
};

}  // namespace

std::shared_ptr<const AggregateFunction> CollectingAggregate(CollectingSpec spec) {
  return std::make_shared<Collecting>(std::move(spec));
}

}  // namespace parley
