// The fused (row identity, version) stage: one Arrow Grouper assigns group ids, per-group
// counters decide, and Arrow's filter kernel drops carry-over groups.
#include "cdc/row_level_pass.h"

#include <algorithm>
#include <limits>

#include "arrow/array.h"
#include "arrow/builder.h"
#include "arrow/compute/api.h"
#include "arrow/compute/row/grouper.h"
#include "arrow/record_batch.h"
#include "arrow/table.h"
#include "cdc/change_columns.h"
#include "parley/connector/changelog.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

struct GroupCounts {
  int64_t deletes = 0;
  int64_t inserts = 0;
  int64_t versions = 0;                                 // rows with a non-NULL row version
  uint32_t low = std::numeric_limits<uint32_t>::max();  // least row-version id
  uint32_t high = 0;                                    // greatest row-version id
};

// Per batch: each row's group and change code, and (for carry-over removal) the id of its row
// version value, or -1 when NULL.
struct BatchGroups {
  std::shared_ptr<arrow::UInt32Array> group_ids;
  std::shared_ptr<arrow::Int32Array> codes;
  std::vector<int64_t> version_ids;
};

Result<std::shared_ptr<arrow::UInt32Array>> ConsumeKeys(cp::Grouper* grouper,
                                                        const arrow::ArrayVector& keys,
                                                        int64_t length) {
  std::vector<arrow::Datum> values(keys.begin(), keys.end());
  cp::ExecBatch batch(std::move(values), length);
  ARROW_ASSIGN_OR_RAISE(auto ids, grouper->Consume(cp::ExecSpan(batch)));
  return std::static_pointer_cast<arrow::UInt32Array>(ids.make_array());
}

Status MultipleChangesError() {
  return MakeError(arrow::StatusCode::Invalid,
                   "CHANGELOG_CONTRACT_VIOLATION.UNEXPECTED_MULTIPLE_CHANGES_PER_ROW_VERSION",
                   "A row identity has more than one delete or more than one insert within one "
                   "commit version, so its update cannot be paired.");
}

bool IsCarryover(const GroupCounts& g) {
  return g.deletes == 1 && g.inserts == 1 && g.versions == 2 && g.low == g.high;
}

}  // namespace

Result<std::shared_ptr<arrow::Table>> RunRowLevelStage(const std::shared_ptr<arrow::Table>& input,
                                                       const ChangelogPostProcessing& post) {
  ARROW_ASSIGN_OR_RAISE(auto batches, TableBatches(input));
  std::unique_ptr<cp::Grouper> groups;
  std::unique_ptr<cp::Grouper> row_versions;
  std::vector<BatchGroups> per_batch;
  for (const auto& batch : batches) {
    arrow::ArrayVector keys;
    for (const auto& path : post.row_id) {
      ARROW_ASSIGN_OR_RAISE(auto key, ColumnAtPath(*batch, path));
      keys.push_back(std::move(key));
    }
    ARROW_ASSIGN_OR_RAISE(auto version, ColumnAtPath(*batch, {kCommitVersionColumn}));
    keys.push_back(version);
    if (groups == nullptr) {
      std::vector<arrow::TypeHolder> types;
      for (const auto& key : keys) types.emplace_back(key->type());
      ARROW_ASSIGN_OR_RAISE(groups, cp::Grouper::Make(types));
    }
    BatchGroups entry;
    ARROW_ASSIGN_OR_RAISE(entry.group_ids, ConsumeKeys(groups.get(), keys, batch->num_rows()));
    ARROW_ASSIGN_OR_RAISE(auto change_type, ColumnAtPath(*batch, {kChangeTypeColumn}));
    ARROW_ASSIGN_OR_RAISE(entry.codes, ChangeTypeCodes(*change_type));
    if (post.carryover_removal) {
      ARROW_ASSIGN_OR_RAISE(auto row_version, ColumnAtPath(*batch, post.row_version));
      if (row_versions == nullptr) {
        ARROW_ASSIGN_OR_RAISE(row_versions, cp::Grouper::Make({row_version->type()}));
      }
      ARROW_ASSIGN_OR_RAISE(auto ids,
                            ConsumeKeys(row_versions.get(), {row_version}, batch->num_rows()));
      entry.version_ids.resize(batch->num_rows());
      for (int64_t i = 0; i < batch->num_rows(); ++i) {
        entry.version_ids[i] = row_version->IsValid(i) ? static_cast<int64_t>(ids->Value(i)) : -1;
      }
    }
    per_batch.push_back(std::move(entry));
  }
  if (groups == nullptr) return input;

  std::vector<GroupCounts> counts(groups->num_groups());
  for (const auto& entry : per_batch) {
    for (int64_t i = 0; i < entry.group_ids->length(); ++i) {
      GroupCounts& g = counts[entry.group_ids->Value(i)];
      if (entry.codes->IsValid(i)) {
        g.deletes += entry.codes->Value(i) == kCodeDelete;
        g.inserts += entry.codes->Value(i) == kCodeInsert;
      }
      if (!entry.version_ids.empty() && entry.version_ids[i] >= 0) {
        uint32_t id = static_cast<uint32_t>(entry.version_ids[i]);
        ++g.versions;
        g.low = std::min(g.low, id);
        g.high = std::max(g.high, id);
      }
    }
  }

  std::vector<std::shared_ptr<arrow::RecordBatch>> out;
  for (size_t b = 0; b < batches.size(); ++b) {
    const auto& entry = per_batch[b];
    auto batch = batches[b];
    const int64_t rows = batch->num_rows();
    arrow::BooleanBuilder keep;
    ARROW_RETURN_NOT_OK(keep.Reserve(rows));
    bool relabelled = false;
    arrow::StringBuilder labels;
    ARROW_ASSIGN_OR_RAISE(auto change_type, ColumnAtPath(*batch, {kChangeTypeColumn}));
    ARROW_ASSIGN_OR_RAISE(auto original, arrow::compute::Cast(*change_type, arrow::utf8()));
    const auto& strings = static_cast<const arrow::StringArray&>(*original);
    for (int64_t i = 0; i < rows; ++i) {
      const GroupCounts& g = counts[entry.group_ids->Value(i)];
      bool dropped = post.carryover_removal && IsCarryover(g);
      keep.UnsafeAppend(!dropped);
      if (!post.update_detection) continue;
      if (!dropped && (g.deletes > 1 || g.inserts > 1)) return MultipleChangesError();
      if (!dropped && g.deletes == 1 && g.inserts == 1) {
        bool insert = entry.codes->IsValid(i) && entry.codes->Value(i) == kCodeInsert;
        ARROW_RETURN_NOT_OK(labels.Append(insert ? kChangeUpdatePostimage : kChangeUpdatePreimage));
        relabelled = true;
      } else if (strings.IsValid(i)) {
        ARROW_RETURN_NOT_OK(labels.Append(strings.GetView(i)));
      } else {
        ARROW_RETURN_NOT_OK(labels.AppendNull());
      }
    }
    if (relabelled) {
      ARROW_ASSIGN_OR_RAISE(auto new_labels, labels.Finish());
      ARROW_ASSIGN_OR_RAISE(batch, WithChangeTypes(batch, new_labels));
    }
    ARROW_ASSIGN_OR_RAISE(auto mask, keep.Finish());
    ARROW_ASSIGN_OR_RAISE(auto filtered, cp::Filter(batch, mask));
    if (filtered.record_batch()->num_rows() > 0) out.push_back(filtered.record_batch());
  }
  return arrow::Table::FromRecordBatches(input->schema(), out);
}

}  // namespace parley
