// The shared read path of the example tables: partition planning from the pushed threshold,
// the range partition and reader factory with their text encodings, and the reader that builds
// one Arrow record batch per partition. Every serialized form is parsed back strictly; see
// range_scan.h for the formats.
#include "range_scan.h"

#include <charconv>
#include <utility>

#include "arrow/builder.h"
#include "arrow/record_batch.h"
#include "arrow/type.h"
#include "parley/connector/status.h"

namespace parley::example {
namespace {

constexpr std::string_view kPartitionTag = "range-partition:";
constexpr std::string_view kFactoryTag = "range-factory:";

const char* ColumnName(RangeColumn column) { return column == RangeColumn::kI ? "i" : "j"; }

Status NotSerializable(std::string_view what, std::string_view bytes, std::string_view expected) {
  // Keep the message printable and short whatever the bytes hold.
  std::string shown;
  for (char c : bytes.substr(0, 64)) shown += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (bytes.size() > 64) shown += "...";
  return InvalidError("CONNECTOR_CONTRACT_VIOLATION.TASK_NOT_SERIALIZABLE",
                      "The range connector cannot rebuild a " + std::string(what) +
                          " from the bytes '" + shown + "': expected " + std::string(expected) +
                          ".");
}

bool ParseInt32(std::string_view text, int32_t* out) {
  if (text.empty()) return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return error == std::errc() && end == text.data() + text.size();
}

// One split of the data: the rows with i in [start, end). Plain values only, no handles.
class RangeInputPartition : public InputPartition {
 public:
  RangeInputPartition(int32_t start, int32_t end) : start_(start), end_(end) {}

  Result<std::string> Serialize() const override {
    return std::string(kPartitionTag) + std::to_string(start_) + ":" + std::to_string(end_);
  }

  int32_t start() const { return start_; }
  int32_t end() const { return end_; }

 private:
  int32_t start_;
  int32_t end_;
};

// Counts through one partition, as JavaSimpleReaderFactory's reader does, but a batch at a
// time: the whole (small) range in one record batch, then the end.
class RangeReader : public PartitionReader {
 public:
  RangeReader(int32_t start, int32_t end, std::vector<RangeColumn> columns)
      : start_(start), end_(end), columns_(std::move(columns)) {}

  Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    if (done_ || start_ == end_) return nullptr;
    done_ = true;
    arrow::ArrayVector arrays;
    for (RangeColumn column : columns_) {
      arrow::Int32Builder builder;
      ARROW_RETURN_NOT_OK(builder.Reserve(end_ - start_));
      for (int32_t i = start_; i < end_; ++i) {
        builder.UnsafeAppend(column == RangeColumn::kI ? i : -i);
      }
      ARROW_ASSIGN_OR_RAISE(auto array, builder.Finish());
      arrays.push_back(std::move(array));
    }
    // With no column (e.g. COUNT(*)) the batch still carries the row count.
    return arrow::RecordBatch::Make(RangeSchema(columns_), end_ - start_, std::move(arrays));
  }

 private:
  int32_t start_;
  int32_t end_;
  std::vector<RangeColumn> columns_;
  bool done_ = false;
};

class RangeReaderFactory : public PartitionReaderFactory {
 public:
  explicit RangeReaderFactory(std::vector<RangeColumn> columns) : columns_(std::move(columns)) {}

  Result<std::unique_ptr<PartitionReader>> CreateReader(
      const InputPartition& partition) const override {
    auto* range = dynamic_cast<const RangeInputPartition*>(&partition);
    if (range == nullptr) {
      return InvalidError("INTERNAL_ERROR",
                          "The range connector was given a partition of another connector.");
    }
    return std::make_unique<RangeReader>(range->start(), range->end(), columns_);
  }

  Result<std::string> Serialize() const override {
    std::string out(kFactoryTag);
    for (size_t k = 0; k < columns_.size(); ++k) {
      if (k > 0) out += ',';
      out += ColumnName(columns_[k]);
    }
    return out;
  }

  Result<std::shared_ptr<InputPartition>> DeserializePartition(
      std::string_view bytes) const override {
    constexpr std::string_view kExpected =
        "range-partition:<start>:<end> with 0 <= start <= end <= 10";
    if (!bytes.starts_with(kPartitionTag)) {
      return NotSerializable("partition", bytes, kExpected);
    }
    std::string_view rest = bytes.substr(kPartitionTag.size());
    size_t colon = rest.find(':');
    int32_t start = 0, end = 0;
    if (colon == std::string_view::npos || !ParseInt32(rest.substr(0, colon), &start) ||
        !ParseInt32(rest.substr(colon + 1), &end) || start < kRangeBegin || start > end ||
        end > kRangeEnd) {
      return NotSerializable("partition", bytes, kExpected);
    }
    return std::make_shared<RangeInputPartition>(start, end);
  }

 private:
  std::vector<RangeColumn> columns_;
};

}  // namespace

std::shared_ptr<arrow::Schema> RangeSchema(const std::vector<RangeColumn>& columns) {
  arrow::FieldVector fields;
  for (RangeColumn column : columns) {
    fields.push_back(arrow::field(ColumnName(column), arrow::int32()));
  }
  return arrow::schema(std::move(fields));
}

RangeScan::RangeScan(std::optional<int32_t> lower_bound, std::vector<PredicatePtr> pushed,
                     std::vector<RangeColumn> columns)
    : lower_bound_(lower_bound), pushed_(std::move(pushed)), columns_(std::move(columns)) {}

std::shared_ptr<arrow::Schema> RangeScan::ReadSchema() const { return RangeSchema(columns_); }

std::string RangeScan::Description() const {
  std::string out = "pushedPredicates=[";
  for (size_t k = 0; k < pushed_.size(); ++k) {
    if (k > 0) out += ", ";
    out += pushed_[k]->ToString();
  }
  out += "], readSchema=[";
  for (size_t k = 0; k < columns_.size(); ++k) {
    if (k > 0) out += ", ";
    out += ColumnName(columns_[k]);
  }
  return out + "]";
}

Result<std::shared_ptr<Batch>> RangeScan::ToBatch() { return shared_from_this(); }

Result<std::vector<std::shared_ptr<InputPartition>>> RangeScan::PlanInputPartitions() {
  std::vector<std::shared_ptr<InputPartition>> partitions;
  if (!lower_bound_) {
    partitions.push_back(std::make_shared<RangeInputPartition>(0, 5));
    partitions.push_back(std::make_shared<RangeInputPartition>(5, 10));
  } else if (*lower_bound_ < 4) {
    partitions.push_back(std::make_shared<RangeInputPartition>(*lower_bound_ + 1, 5));
    partitions.push_back(std::make_shared<RangeInputPartition>(5, 10));
  } else if (*lower_bound_ < 9) {
    partitions.push_back(std::make_shared<RangeInputPartition>(*lower_bound_ + 1, 10));
  }
  return partitions;
}

Result<std::shared_ptr<PartitionReaderFactory>> RangeScan::CreateReaderFactory() {
  return std::make_shared<RangeReaderFactory>(columns_);
}

Result<std::shared_ptr<PartitionReaderFactory>> RangeScan::DeserializeReaderFactory(
    std::string_view bytes) const {
  constexpr std::string_view kExpected = "range-factory: followed by i, j or i,j (or nothing)";
  if (!bytes.starts_with(kFactoryTag)) return NotSerializable("reader factory", bytes, kExpected);
  std::string_view rest = bytes.substr(kFactoryTag.size());
  std::vector<RangeColumn> columns;
  if (rest == "i,j") {
    columns = {RangeColumn::kI, RangeColumn::kJ};
  } else if (rest == "i") {
    columns = {RangeColumn::kI};
  } else if (rest == "j") {
    columns = {RangeColumn::kJ};
  } else if (!rest.empty()) {
    return NotSerializable("reader factory", bytes, kExpected);
  }
  return std::make_shared<RangeReaderFactory>(std::move(columns));
}

}  // namespace parley::example
