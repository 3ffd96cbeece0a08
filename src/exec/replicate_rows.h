// ReplicateRows: the executor's side of the ReplicateRows plan node (INTERSECT ALL, EXCEPT ALL),
// which repeats each input row as many times as its count column says.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "arrow/type_fwd.h"
#include "parley/connector/status.h"

namespace parley {

/// \brief The columns `columns` of `input` with each row repeated `count` times, where `count`
/// is the row's value in the int64 column `count_column` (NULL or below 1: dropped). Rows keep
/// their order.
Result<std::shared_ptr<arrow::Table>> ReplicateRows(const arrow::Table& input,
                                                    const std::string& count_column,
                                                    const std::vector<std::string>& columns);

}  // namespace parley
