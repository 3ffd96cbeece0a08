// The `_metadata` column of a Delta table: file facts and, with row tracking, the stable row id
// and row commit version of every row (§7 of the protocol digest), as delta-spark exposes them.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "arrow/array.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/array/util.h"
#include "arrow/compute/cast.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "connectors/delta/read/metadata_column.h"
#include "connectors/delta/read/read_task.h"
#include "connectors/delta/util.h"

namespace parley::delta {
namespace {

Result<std::shared_ptr<arrow::Int64Array>> AsInt64(const std::shared_ptr<arrow::Array>& array) {
  if (array == nullptr) return nullptr;
  if (array->type_id() == arrow::Type::INT64) {
    return std::static_pointer_cast<arrow::Int64Array>(array);
  }
  ARROW_ASSIGN_OR_RAISE(auto cast, arrow::compute::Cast(*array, arrow::int64()));
  return std::static_pointer_cast<arrow::Int64Array>(cast);
}

Status MissingRowTracking(const ReadTask& task, const char* field) {
  return InvalidError("DELTA_ROW_TRACKING_MISSING_BASE_ROW_ID",
                      "Row tracking is enabled but the file " + DisplayPath(task.path) +
                          " has no " + field + " in the log, so its rows have no row ids.");
}

// materialized value when non-null, else `fresh(i)`.
template <typename Fresh>
Result<std::shared_ptr<arrow::Array>> Coalesce(const std::shared_ptr<arrow::Int64Array>& stored,
                                               int64_t rows, Fresh fresh) {
  if (stored != nullptr && stored->null_count() == 0) return stored;
  arrow::Int64Builder builder;
  ARROW_RETURN_NOT_OK(builder.Reserve(rows));
  for (int64_t i = 0; i < rows; ++i) {
    if (stored != nullptr && stored->IsValid(i)) {
      builder.UnsafeAppend(stored->Value(i));
    } else {
      ARROW_ASSIGN_OR_RAISE(int64_t value, fresh(i));
      builder.UnsafeAppend(value);
    }
  }
  return builder.Finish();
}

}  // namespace

std::shared_ptr<arrow::DataType> MetadataStructType(bool row_tracking) {
  arrow::FieldVector fields = {arrow::field("file_path", arrow::utf8(), false),
                               arrow::field("file_name", arrow::utf8(), false),
                               arrow::field("file_size", arrow::int64(), false),
                               arrow::field("file_modification_time",
                                            arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"), false),
                               arrow::field("row_index", arrow::int64(), false)};
  if (row_tracking) {
    fields.push_back(arrow::field("row_id", arrow::int64(), false));
    fields.push_back(arrow::field("row_commit_version", arrow::int64(), false));
    fields.push_back(arrow::field("base_row_id", arrow::int64()));
    fields.push_back(arrow::field("default_row_commit_version", arrow::int64()));
  }
  return arrow::struct_(std::move(fields));
}

Result<std::shared_ptr<arrow::DataType>> MetadataStructType(
    bool row_tracking, const std::vector<std::string>& fields) {
  auto all = MetadataStructType(row_tracking);
  if (fields.empty()) return all;
  arrow::FieldVector kept;
  for (const auto& field : all->fields()) {
    if (std::find(fields.begin(), fields.end(), field->name()) != fields.end()) {
      kept.push_back(field);
    }
  }
  if (kept.size() != fields.size()) {
    return Status::Invalid("a requested field is not a field of _metadata");
  }
  return arrow::struct_(std::move(kept));
}

Result<std::shared_ptr<arrow::Array>> MetadataColumnValues(
    const ReadTask& task, const std::shared_ptr<arrow::DataType>& type, int64_t first_row,
    int64_t rows, const std::shared_ptr<arrow::Array>& materialized_row_id,
    const std::shared_ptr<arrow::Array>& materialized_row_commit_version) {
  auto constant = [&](const std::optional<int64_t>& value) {
    return value ? arrow::MakeArrayFromScalar(arrow::Int64Scalar(*value), rows)
                 : arrow::MakeArrayOfNull(arrow::int64(), rows);
  };
  auto field_values = [&](const arrow::Field& field) -> Result<std::shared_ptr<arrow::Array>> {
    const std::string& name = field.name();
    if (name == "file_path") {
      return arrow::MakeArrayFromScalar(arrow::StringScalar(task.path), rows);
    }
    if (name == "file_name") {
      return arrow::MakeArrayFromScalar(
          arrow::StringScalar(task.path.substr(task.path.rfind('/') + 1)), rows);
    }
    if (name == "file_size") return arrow::MakeArrayFromScalar(arrow::Int64Scalar(task.size), rows);
    if (name == "file_modification_time") {
      return arrow::MakeArrayFromScalar(
          arrow::TimestampScalar(task.modification_time * 1000, field.type()), rows);
    }
    if (name == "row_index") {
      arrow::Int64Builder builder;
      ARROW_RETURN_NOT_OK(builder.Reserve(rows));
      for (int64_t i = 0; i < rows; ++i) builder.UnsafeAppend(first_row + i);
      return builder.Finish();
    }
    if (name == "row_id") {
      ARROW_ASSIGN_OR_RAISE(auto stored, AsInt64(materialized_row_id));
      return Coalesce(stored, rows, [&](int64_t i) -> Result<int64_t> {
        if (!task.base_row_id) return MissingRowTracking(task, "baseRowId");
        return *task.base_row_id + first_row + i;
      });
    }
    if (name == "row_commit_version") {
      ARROW_ASSIGN_OR_RAISE(auto stored, AsInt64(materialized_row_commit_version));
      return Coalesce(stored, rows, [&](int64_t) -> Result<int64_t> {
        if (!task.default_row_commit_version) {
          return MissingRowTracking(task, "defaultRowCommitVersion");
        }
        return *task.default_row_commit_version;
      });
    }
    if (name == "base_row_id") return constant(task.base_row_id);
    return constant(task.default_row_commit_version);
  };
  arrow::ArrayVector children;
  for (const auto& field : type->fields()) {
    ARROW_ASSIGN_OR_RAISE(auto values, field_values(*field));
    children.push_back(std::move(values));
  }
  return arrow::StructArray::Make(children, type->fields());
}

}  // namespace parley::delta
