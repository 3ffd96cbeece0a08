// The fused row-level stage of change post-processing (batch): carry-over removal and update
// detection over one grouping of the rows by (row identity, `_commit_version`).
//
// Per group: D = rows whose change type is exactly `delete`, I = exactly `insert`, N = rows with
// a non-NULL row version, lo/hi = the least and greatest non-NULL row version. Groups form with
// NULL equal to NULL.
//   carry-over removal: a group with D = 1, I = 1, N = 2 and lo = hi is dropped whole (data
//     columns are never compared);
//   update detection, on the surviving groups: D > 1 or I > 1 fails with
//     CHANGELOG_CONTRACT_VIOLATION.UNEXPECTED_MULTIPLE_CHANGES_PER_ROW_VERSION; D = 1 and I = 1
//     relabels the insert as update_postimage and every other row as update_preimage.
// Every other value is kept; rows keep their input order.
#pragma once

#include <memory>

#include "arrow/type_fwd.h"
#include "cdc/changelog_table.h"

namespace parley {

/// \brief Apply the row-level passes `post` asks for to the raw change rows `input`, which hold
/// (at least) the columns post.ColumnsRead().
Result<std::shared_ptr<arrow::Table>> RunRowLevelStage(const std::shared_ptr<arrow::Table>& input,
                                                       const ChangelogPostProcessing& post);

}  // namespace parley
