// Build keys -> IN or range predicates and a set-membership row filter.
#include "exec/runtime_filter.h"

#include "arrow/array/concatenate.h"
#include "arrow/array/util.h"
#include "arrow/compute/api.h"
#include "exec/expression_lowering.h"

namespace parley {

namespace cp = arrow::compute;

Result<RuntimeFilter> MakeRuntimeFilter(const arrow::Table& build, const BoundExpr& key,
                                        const std::string& column, int64_t max_in_list) {
  ARROW_ASSIGN_OR_RAISE(auto lowered, LowerExpression(key));
  ARROW_ASSIGN_OR_RAISE(lowered, lowered.Bind(*build.schema()));
  arrow::ArrayVector chunks;
  arrow::TableBatchReader reader(build);
  std::shared_ptr<arrow::RecordBatch> batch;
  while (true) {
    ARROW_RETURN_NOT_OK(reader.ReadNext(&batch));
    if (batch == nullptr) break;
    ARROW_ASSIGN_OR_RAISE(auto values, cp::ExecuteScalarExpression(lowered, cp::ExecBatch(*batch)));
    if (values.is_scalar()) {
      ARROW_ASSIGN_OR_RAISE(auto array, arrow::MakeArrayFromScalar(*values.scalar(), 1));
      chunks.push_back(std::move(array));
    } else {
      chunks.push_back(values.make_array());
    }
  }
  std::shared_ptr<arrow::Array> keys;
  if (chunks.empty()) {
    ARROW_ASSIGN_OR_RAISE(keys, arrow::MakeEmptyArray(key.type));
  } else {
    ARROW_ASSIGN_OR_RAISE(keys, arrow::Concatenate(chunks));
  }
  ARROW_ASSIGN_OR_RAISE(keys, cp::Unique(keys));
  ARROW_ASSIGN_OR_RAISE(auto non_null, cp::DropNull(keys));
  // Sorted, so that what a source is offered does not depend on the build side's row order.
  ARROW_ASSIGN_OR_RAISE(auto order, cp::SortIndices(*non_null.make_array()));
  ARROW_ASSIGN_OR_RAISE(auto sorted, cp::Take(non_null, order));
  keys = sorted.make_array();

  RuntimeFilter filter;
  filter.row_filter = cp::call("is_in", {cp::field_ref(column)}, cp::SetLookupOptions(keys));
  if (keys->length() == 0) return filter;
  auto reference = FieldReference(column);
  if (keys->length() <= max_in_list) {
    std::vector<ExpressionPtr> children = {reference};
    for (int64_t i = 0; i < keys->length(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto value, keys->GetScalar(i));
      children.push_back(MakeLiteral(std::move(value)));
    }
    filter.predicates.push_back(MakePredicate("IN", std::move(children)));
  } else {
    ARROW_ASSIGN_OR_RAISE(auto bounds, cp::MinMax(keys));
    const auto& pair = bounds.scalar_as<arrow::StructScalar>().value;
    filter.predicates.push_back(MakePredicate(">=", {reference, MakeLiteral(pair[0])}));
    filter.predicates.push_back(MakePredicate("<=", {reference, MakeLiteral(pair[1])}));
  }
  return filter;
}

}  // namespace parley
