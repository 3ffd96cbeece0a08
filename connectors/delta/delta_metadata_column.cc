// The `_metadata` column of a Delta table: file facts and, with row tracking, the stable row id
// and row commit version of every row (§7 of the protocol digest), as delta-spark exposes them.
#include <string>
#include <utility>

#include "arrow/array.h"
#include "arrow/array/builder_primitive.h"
#include "arrow/array/util.h"
#include "arrow/compute/cast.h"
#include "arrow/scalar.h"
#include "arrow/type.h"
#include "delta_internal.h"

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
  arrow::FieldVector fields = {
      arrow::field("file_path", arrow::utf8(), false),
      arrow::field("file_name", arrow::utf8(), false),
      arrow::field("file_size", arrow::int64(), false),
      arrow::field("file_modification_time", arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"),
                   false),
      arrow::field("row_index", arrow::int64(), false)};
  if (row_tracking) {
    fields.push_back(arrow::field("row_id", arrow::int64(), false));
    fields.push_back(arrow::field("row_commit_version", arrow::int64(), false));
    fields.push_back(arrow::field("base_row_id", arrow::int64()));
    fields.push_back(arrow::field("default_row_commit_version", arrow::int64()));
  }
  return arrow::struct_(std::move(fields));
}

Result<std::shared_ptr<arrow::Array>> MetadataColumnValues(
    const ReadTask& task, bool row_tracking, int64_t first_row, int64_t rows,
    const std::shared_ptr<arrow::Array>& materialized_row_id,
    const std::shared_ptr<arrow::Array>& materialized_row_commit_version) {
  auto type = MetadataStructType(row_tracking);
  std::string name = task.path.substr(task.path.rfind('/') + 1);
  arrow::ArrayVector children;
  ARROW_ASSIGN_OR_RAISE(auto path, arrow::MakeArrayFromScalar(arrow::StringScalar(task.path), rows));
  ARROW_ASSIGN_OR_RAISE(auto file_name, arrow::MakeArrayFromScalar(arrow::StringScalar(name), rows));
  ARROW_ASSIGN_OR_RAISE(auto size, arrow::MakeArrayFromScalar(arrow::Int64Scalar(task.size), rows));
  ARROW_ASSIGN_OR_RAISE(
      auto modified,
      arrow::MakeArrayFromScalar(
          arrow::TimestampScalar(task.modification_time * 1000, type->field(3)->type()), rows));
  arrow::Int64Builder index_builder;
  ARROW_RETURN_NOT_OK(index_builder.Reserve(rows));
  for (int64_t i = 0; i < rows; ++i) index_builder.UnsafeAppend(first_row + i);
  ARROW_ASSIGN_OR_RAISE(auto row_index, index_builder.Finish());
  children = {path, file_name, size, modified, row_index};
  if (row_tracking) {
    ARROW_ASSIGN_OR_RAISE(auto stored_ids, AsInt64(materialized_row_id));
    ARROW_ASSIGN_OR_RAISE(auto stored_versions, AsInt64(materialized_row_commit_version));
    ARROW_ASSIGN_OR_RAISE(auto row_id, Coalesce(stored_ids, rows, [&](int64_t i) -> Result<int64_t> {
      if (!task.base_row_id) return MissingRowTracking(task, "baseRowId");
      return *task.base_row_id + first_row + i;
    }));
    ARROW_ASSIGN_OR_RAISE(
        auto version, Coalesce(stored_versions, rows, [&](int64_t) -> Result<int64_t> {
          if (!task.default_row_commit_version) {
            return MissingRowTracking(task, "defaultRowCommitVersion");
          }
          return *task.default_row_commit_version;
        }));
    auto constant = [&](const std::optional<int64_t>& value) {
      return value ? arrow::MakeArrayFromScalar(arrow::Int64Scalar(*value), rows)
                   : arrow::MakeArrayOfNull(arrow::int64(), rows);
    };
    ARROW_ASSIGN_OR_RAISE(auto base, constant(task.base_row_id));
    ARROW_ASSIGN_OR_RAISE(auto default_version, constant(task.default_row_commit_version));
    children.push_back(row_id);
    children.push_back(version);
    children.push_back(base);
    children.push_back(default_version);
  }
  return arrow::StructArray::Make(children, type->fields());
}

}  // namespace parley::delta
