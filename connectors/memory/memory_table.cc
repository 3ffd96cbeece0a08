// MemoryTable: table metadata, and the data held as a list of Arrow record batches. Incoming
// data is checked against the declared columns the way Spark checks INSERT data
// (INCOMPATIBLE_DATA_FOR_TABLE.*) and then re-labelled with the table's own schema, so every
// stored batch carries exactly the table's fields; the read path (memory_scan.cc) relies on it.
#include "memory_table.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <utility>

#include "arrow/array.h"
#include "arrow/record_batch.h"
#include "arrow/scalar.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "memory_scan_internal.h"
#include "memory_write_internal.h"
#include "names_internal.h"
#include "parley/connector/status.h"

namespace parley::memory {
namespace {

Status IncompatibleData(const std::string& table_name, const std::string& subclass,
                        const std::string& detail) {
  return InvalidError("INCOMPATIBLE_DATA_FOR_TABLE." + subclass,
                      "Cannot write incompatible data for the table " + table_name + ": " + detail);
}

}  // namespace

MemoryTable::MemoryTable(std::string name, TableInfo info)
    : info_(std::move(info)), schema_(ColumnsToSchema(info_.columns)), name_(std::move(name)) {}

std::string MemoryTable::name() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return name_;
}

void MemoryTable::set_name(std::string name) {
  std::lock_guard<std::mutex> lock(mutex_);
  name_ = std::move(name);
}

std::vector<Column> MemoryTable::columns() const { return info_.columns; }

std::vector<std::shared_ptr<Transform>> MemoryTable::partitioning() const {
  return info_.partitioning;
}

std::map<std::string, std::string> MemoryTable::properties() const { return info_.properties; }

std::set<TableCapability> MemoryTable::capabilities() const {
  return {TableCapability::kBatchRead, TableCapability::kBatchWrite, TableCapability::kTruncate,
          TableCapability::kOverwriteByFilter, TableCapability::kOverwriteDynamic};
}

Result<std::unique_ptr<ScanBuilder>> MemoryTable::NewScanBuilder(const Options&) {
  return MakeMemoryScanBuilder(shared_from_this());
}

std::vector<Column> MemoryTable::metadataColumns() const { return MemoryMetadataColumns(); }

Result<std::unique_ptr<WriteBuilder>> MemoryTable::NewWriteBuilder(const LogicalWriteInfo& info) {
  return MakeMemoryWriteBuilder(shared_from_this(), info);
}

Result<bool> MemoryTable::TruncateTable() {
  std::lock_guard<std::mutex> lock(mutex_);
  data_.clear();
  return true;
}

namespace {

// One conjunct of an overwrite condition the memory table evaluates: column = value,
// column <=> value, column IS NULL, or ALWAYS_TRUE (column_index < 0).
struct RowCondition {
  int column_index = -1;
  std::shared_ptr<arrow::Scalar> value;  // null for IS NULL
  bool null_safe = false;
};

std::optional<RowCondition> ToRowCondition(const Predicate& predicate,
                                           const arrow::Schema& schema) {
  const auto& children = predicate.children();
  if (predicate.name() == "ALWAYS_TRUE" && children.empty()) return RowCondition{};
  auto column_of = [&](const Expression& expression) -> int {
    const std::string* name = AsColumnName(expression);
    if (name == nullptr) return -1;
    for (int i = 0; i < schema.num_fields(); ++i) {
      if (EqualsIgnoreCase(schema.field(i)->name(), *name)) return i;
    }
    return -1;
  };
  if (predicate.name() == "IS_NULL" && children.size() == 1) {
    int index = column_of(*children[0]);
    if (index < 0) return std::nullopt;
    return RowCondition{index, nullptr, true};
  }
  if ((predicate.name() == "=" || predicate.name() == "<=>") && children.size() == 2) {
    for (int side = 0; side < 2; ++side) {
      int index = column_of(*children[side]);
      auto* literal = dynamic_cast<const Literal*>(children[1 - side].get());
      if (index < 0 || literal == nullptr) continue;
      if (!literal->value()->type->Equals(*schema.field(index)->type())) return std::nullopt;
      return RowCondition{index, literal->value(), predicate.name() == "<=>"};
    }
  }
  return std::nullopt;
}

// Whether the row matches the condition; `=` with a NULL on either side does not match.
bool RowMatches(const arrow::RecordBatch& batch, int64_t row, const RowCondition& condition) {
  if (condition.column_index < 0) return true;
  const auto& column = batch.column(condition.column_index);
  bool row_null = column->IsNull(row);
  if (condition.value == nullptr || !condition.value->is_valid) {
    return condition.null_safe && row_null;
  }
  if (row_null) return false;
  auto scalar = column->GetScalar(row);
  return scalar.ok() && (*scalar)->Equals(*condition.value);
}

// Keep the rows of `batch` for which `drop` is false.
Result<std::shared_ptr<arrow::RecordBatch>> KeepRows(
    const std::shared_ptr<arrow::RecordBatch>& batch, const std::function<bool(int64_t)>& drop) {
  std::vector<int64_t> kept;
  for (int64_t row = 0; row < batch->num_rows(); ++row) {
    if (!drop(row)) kept.push_back(row);
  }
  if (static_cast<int64_t>(kept.size()) == batch->num_rows()) return batch;
  if (kept.empty()) return nullptr;
  // Runs of consecutive kept rows become slices, concatenated back into one batch.
  std::vector<std::shared_ptr<arrow::RecordBatch>> slices;
  size_t start = 0;
  for (size_t i = 1; i <= kept.size(); ++i) {
    if (i == kept.size() || kept[i] != kept[i - 1] + 1) {
      slices.push_back(batch->Slice(kept[start], kept[i - 1] - kept[start] + 1));
      start = i;
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto table, arrow::Table::FromRecordBatches(batch->schema(), slices));
  ARROW_ASSIGN_OR_RAISE(auto combined, table->CombineChunksToBatch());
  return combined;
}

// The values of the identity partition columns of one row, as a comparable key.
std::string PartitionKey(const arrow::RecordBatch& batch, int64_t row,
                         const std::vector<int>& columns) {
  std::string key;
  for (int index : columns) {
    const auto& column = batch.column(index);
    if (column->IsNull(row)) {
      key += "N|";
      continue;
    }
    auto scalar = column->GetScalar(row);
    key += "V" + (scalar.ok() ? (*scalar)->ToString() : std::string()) + "|";
  }
  return key;
}

}  // namespace

bool MemoryTable::CanEvaluate(const std::vector<PredicatePtr>& predicates) const {
  for (const auto& predicate : predicates) {
    if (predicate == nullptr || !ToRowCondition(*predicate, *schema_)) return false;
  }
  return true;
}

Status MemoryTable::CommitWrite(const MemoryWriteMode& mode,
                                std::vector<std::shared_ptr<arrow::RecordBatch>> batches,
                                int64_t* removed) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::shared_ptr<arrow::RecordBatch>> kept;
  switch (mode.kind) {
    case MemoryWriteMode::Kind::kAppend: kept = data_; break;
    case MemoryWriteMode::Kind::kTruncate: break;
    case MemoryWriteMode::Kind::kReplaceGroups:
    case MemoryWriteMode::Kind::kPatchGroups:
      for (const auto& group : mode.groups) {
        if (std::find(data_.begin(), data_.end(), group) == data_.end()) {
          return InvalidError("CONCURRENT_MODIFICATION",
                              "The memory table " + name_ +
                                  " changed since the row-level operation read it; nothing "
                                  "was written.");
        }
      }
      for (const auto& batch : data_) {
        auto group = std::find(mode.groups.begin(), mode.groups.end(), batch);
        if (group == mode.groups.end()) {
          kept.push_back(batch);
        } else if (mode.kind == MemoryWriteMode::Kind::kPatchGroups) {
          const auto& patched = mode.patched[group - mode.groups.begin()];
          if (patched != nullptr) kept.push_back(patched);
        }
      }
      break;
    case MemoryWriteMode::Kind::kOverwriteByFilter: {
      std::vector<RowCondition> conditions;
      for (const auto& predicate : mode.predicates) {
        auto condition = ToRowCondition(*predicate, *schema_);
        if (!condition) {
          return InvalidError("UNSUPPORTED_OVERWRITE.TABLE", "The memory table " + name_ +
                                                                 " cannot overwrite rows where " +
                                                                 predicate->ToString() + ".");
        }
        conditions.push_back(*condition);
      }
      for (const auto& batch : data_) {
        ARROW_ASSIGN_OR_RAISE(
            auto rest, KeepRows(batch, [&](int64_t row) {
              return std::all_of(conditions.begin(), conditions.end(),
                                 [&](const RowCondition& c) { return RowMatches(*batch, row, c); });
            }));
        if (rest != nullptr) kept.push_back(std::move(rest));
      }
      break;
    }
    case MemoryWriteMode::Kind::kOverwriteDynamic: {
      std::vector<int> partition_columns;
      for (const auto& transform : info_.partitioning) {
        const std::string* column =
            transform->name() == "identity" && transform->arguments().size() == 1
                ? AsColumnName(*transform->arguments()[0])
                : nullptr;
        if (column == nullptr) {
          return InvalidError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                              "The memory table " + name_ +
                                  " supports dynamic partition overwrite only for identity "
                                  "partitions, not " +
                                  transform->ToString() + ".");
        }
        partition_columns.push_back(schema_->GetFieldIndex(*column));
      }
      if (partition_columns.empty()) {  // an unpartitioned table is one partition
        kept.clear();
        break;
      }
      std::set<std::string> written;
      for (const auto& batch : batches) {
        for (int64_t row = 0; row < batch->num_rows(); ++row) {
          written.insert(PartitionKey(*batch, row, partition_columns));
        }
      }
      for (const auto& batch : data_) {
        ARROW_ASSIGN_OR_RAISE(auto rest, KeepRows(batch, [&](int64_t row) {
                                return written.count(PartitionKey(*batch, row, partition_columns)) >
                                       0;
                              }));
        if (rest != nullptr) kept.push_back(std::move(rest));
      }
      break;
    }
  }
  if (removed != nullptr) {
    *removed = 0;
    for (const auto& batch : data_) *removed += batch->num_rows();
    for (const auto& batch : kept) *removed -= batch->num_rows();
  }
  kept.insert(kept.end(), batches.begin(), batches.end());
  data_ = std::move(kept);
  return Status::OK();
}

std::vector<std::shared_ptr<arrow::RecordBatch>> MemoryTable::batches() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return data_;
}

Result<std::vector<std::shared_ptr<arrow::RecordBatch>>> MemoryTable::ConformData(
    const arrow::Table& data) const {
  const auto& columns = info_.columns;
  const int expected = static_cast<int>(columns.size());
  if (data.num_columns() > expected) {
    std::string extra;
    for (int i = expected; i < data.num_columns(); ++i) {
      if (!extra.empty()) extra += ", ";
      extra += QuoteIdentifier(data.schema()->field(i)->name());
    }
    return IncompatibleData(name(), "EXTRA_COLUMNS", "Cannot write extra columns " + extra + ".");
  }
  for (int i = 0; i < expected; ++i) {
    const Column& column = columns[i];
    if (i >= data.num_columns() ||
        !EqualsIgnoreCase(data.schema()->field(i)->name(), column.name)) {
      return IncompatibleData(
          name(), "CANNOT_FIND_DATA",
          "Cannot find data for the output column " + QuoteIdentifier(column.name) + ".");
    }
    const auto& type = data.schema()->field(i)->type();
    if (!type->Equals(*column.type, /*check_metadata=*/false)) {
      return IncompatibleData(name(), "CANNOT_SAFELY_CAST",
                              "Cannot safely cast " + QuoteIdentifier(column.name) + " \"" +
                                  type->ToString() + "\" to \"" + column.type->ToString() + "\".");
    }
    if (!column.nullable && data.column(i)->null_count() > 0) {
      return IncompatibleData(name(), "NULLABLE_COLUMN",
                              "Cannot write nullable values to non-nullable column " +
                                  QuoteIdentifier(column.name) + ".");
    }
  }

  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  arrow::TableBatchReader reader(data);
  while (true) {
    std::shared_ptr<arrow::RecordBatch> batch;
    ARROW_RETURN_NOT_OK(reader.ReadNext(&batch));
    if (batch == nullptr) break;
    if (batch->num_rows() == 0) continue;
    batches.push_back(arrow::RecordBatch::Make(schema_, batch->num_rows(), batch->columns()));
  }
  return batches;
}

Status MemoryTable::AppendData(const std::shared_ptr<arrow::Table>& data) {
  ARROW_ASSIGN_OR_RAISE(auto batches, ConformData(*data));
  std::lock_guard<std::mutex> lock(mutex_);
  data_.insert(data_.end(), batches.begin(), batches.end());
  return Status::OK();
}

Status MemoryTable::ReplaceData(const std::shared_ptr<arrow::Table>& data) {
  ARROW_ASSIGN_OR_RAISE(auto batches, ConformData(*data));
  std::lock_guard<std::mutex> lock(mutex_);
  data_ = std::move(batches);
  return Status::OK();
}

}  // namespace parley::memory
