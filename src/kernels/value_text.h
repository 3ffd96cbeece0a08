// Values as text, as Spark's CAST(x AS STRING) writes them: booleans as true/false, floating
// point as Java's Double.toString does (1.0, 0.1, 1.0E10), decimals with all the digits of their
// scale, dates as yyyy-mm-dd, timestamps as `yyyy-mm-dd hh:mm:ss[.ffffff]` (fraction without
// trailing zeros; time-zone aware timestamps in UTC), year-month intervals as
// `INTERVAL '1-2' YEAR TO MONTH`, day-time intervals as `INTERVAL '1 02:03:04.5' DAY TO SECOND`,
// binary as its bytes read as UTF-8 (U+FFFD for an invalid sequence), arrays as `[1, 2]`,
// structs as `{1, a}` and maps as `{k -> v}`, a NULL inside them as `null`. The CLI prints
// results with it and CAST of an array, map or struct to STRING writes with it.
#pragma once

#include <string>

#include "arrow/array.h"
#include "arrow/compute/registry.h"
#include "arrow/util/checked_cast.h"
#include "parley/connector/status.h"

namespace parley::kernels {

/// \brief Append the text of the value at `row` of `array`; NULL appends `NULL`.
Status AppendValueText(const arrow::Array& array, int64_t row, std::string* out);

/// \brief Register parley_value_text(any) -> utf8, the text of each value (NULL stays NULL).
Status RegisterValueTextKernel(arrow::compute::FunctionRegistry* registry);

/// \brief Whether `id` is a floating-point type (half, float or double).
bool IsFloatingPointType(arrow::Type::type id);

/// \brief The floating-point value at `row` as a double, and its text as Java prints it.
/// REQUIRES: IsFloatingPointType(array.type_id()).
double FloatingPointValue(const arrow::Array& array, int64_t row);
std::string FloatingPointText(const arrow::Array& array, int64_t row);

/// \brief `element(values, index, position)` for each element of the `ListArrayType` at `row`.
template <typename ListArrayType, typename Element>
Status ForEachElementOf(const arrow::Array& array, int64_t row, Element&& element) {
  const auto& list = arrow::internal::checked_cast<const ListArrayType&>(array);
  int64_t offset = list.value_offset(row);
  for (int64_t i = 0; i < list.value_length(row); ++i) {
    RETURN_NOT_OK(element(*list.values(), offset + i, i));
  }
  return Status::OK();
}

/// \brief Calls `element(values, index, position)` for each element of the list (list, large
/// list or fixed-size list) at `row`, in order: the element is `values[index]`, the
/// `position`th one.
template <typename Element>
Status ForEachListElement(const arrow::Array& array, int64_t row, Element&& element) {
  switch (array.type_id()) {
    case arrow::Type::LIST: return ForEachElementOf<arrow::ListArray>(array, row, element);
    case arrow::Type::LARGE_LIST:
      return ForEachElementOf<arrow::LargeListArray>(array, row, element);
    default: return ForEachElementOf<arrow::FixedSizeListArray>(array, row, element);
  }
}

}  // namespace parley::kernels
