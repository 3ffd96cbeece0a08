// MemoryTable: table metadata, and the data held as a list of Arrow record batches. Incoming
// data is checked against the declared columns the way Spark checks INSERT data
// (INCOMPATIBLE_DATA_FOR_TABLE.*) and then re-labelled with the table's own schema, so every
// stored batch carries exactly the table's fields; the read path (memory_scan.cc) relies on it.
#include "memory_table.h"

#include <utility>

#include "arrow/array.h"
#include "arrow/record_batch.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "memory_scan_internal.h"
#include "names_internal.h"
#include "parley/connector/status.h"

namespace parley::memory {
namespace {

Status IncompatibleData(const std::string& table_name, const std::string& subclass,
                        const std::string& detail) {
  return InvalidError("INCOMPATIBLE_DATA_FOR_TABLE." + subclass,
                      "Cannot write incompatible data for the table " + table_name + ": " +
                          detail);
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
  return {TableCapability::kBatchRead};
}

Result<std::unique_ptr<ScanBuilder>> MemoryTable::NewScanBuilder(const Options&) {
  return MakeMemoryScanBuilder(shared_from_this());
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
      return IncompatibleData(name(), "CANNOT_FIND_DATA",
                              "Cannot find data for the output column " +
                                  QuoteIdentifier(column.name) + ".");
    }
    const auto& type = data.schema()->field(i)->type();
    if (!type->Equals(*column.type, /*check_metadata=*/false)) {
      return IncompatibleData(name(), "CANNOT_SAFELY_CAST",
                              "Cannot safely cast " + QuoteIdentifier(column.name) + " \"" +
                                  type->ToString() + "\" to \"" + column.type->ToString() +
                                  "\".");
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
