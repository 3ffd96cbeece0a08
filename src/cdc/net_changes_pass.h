// The net-changes pass of change post-processing (batch): each row identity's changes over the
// whole range collapse to what differs between the range's start and its end.
//
// The rows of one identity (NULL equal to NULL) are ordered by `_commit_version` (its natural
// order, NULL first), then delete/update_preimage before insert/update_postimage; rows equal
// in both keep their input order. With `first` and `last` the ends of that order:
//   existed before = first is delete or update_preimage; exists after = last is insert or
//   update_postimage;
//   neither -> nothing; after only -> last as insert; before only -> first as delete;
//   both -> first as update_preimage and last as update_postimage with computeUpdates, else
//   first as delete and last as insert.
// Emitted rows keep all their own values except `_change_type`. Any change type outside the four
// (NULL included) fails with CHANGELOG_CONTRACT_VIOLATION.UNEXPECTED_CHANGE_TYPE.
//
// Memory: per identity, the order keys and two row references; the rows referenced are copied
// out of each input batch and compacted as the pass goes, so memory follows the number of
// distinct identities, not the number of input rows.
#pragma once

#include <memory>

#include "arrow/type_fwd.h"
#include "cdc/changelog_table.h"

namespace parley {

/// \brief Reduce the rows `input` yields (the output of the row-level stage, or the raw rows) to
/// net changes, reading one batch at a time.
Result<std::shared_ptr<arrow::Table>> RunNetChanges(arrow::RecordBatchReader* input,
                                                    const ChangelogPostProcessing& post);

}  // namespace parley
