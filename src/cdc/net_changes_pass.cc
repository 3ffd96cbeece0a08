// Net changes: an Arrow Grouper numbers the identities; per identity the pass keeps the first and
// last row under the D.3 order, copying those rows out of each batch with Arrow's take kernel.
#include "cdc/net_changes_pass.h"

#include <algorithm>
#include <optional>

#include "arrow/array.h"
#include "arrow/builder.h"
#include "arrow/compute/api.h"
#include "arrow/compute/row/grouper.h"
#include "arrow/record_batch.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "cdc/change_columns.h"
#include "parley/connector/changelog.h"

namespace parley {
namespace {

namespace cp = arrow::compute;

// Where a row stands in the D.3 order of its identity (input order breaks ties).
struct OrderKey {
  bool null_version = true;
  int64_t number = 0;
  std::string text;
  int rank = 0;  // 0: delete / update_preimage, 1: insert / update_postimage

  // -1, 0 or 1 as this key sorts before, with or after `other`.
  int Compare(const OrderKey& other) const {
    if (null_version != other.null_version) return null_version ? -1 : 1;
    if (!null_version) {
      if (number != other.number) return number < other.number ? -1 : 1;
      if (int c = text.compare(other.text); c != 0) return c < 0 ? -1 : 1;
    }
    if (rank != other.rank) return rank < other.rank ? -1 : 1;
    return 0;
  }
};

// A row kept for output: its key, change code, and index in the retained rows (or, while its
// batch is being read, in that batch).
struct KeptRow {
  OrderKey key;
  int32_t code = kCodeInsert;
  int64_t index = 0;
  bool in_current_batch = false;
};

struct Identity {
  KeptRow first;
  KeptRow last;
};

Status UnexpectedChangeType(const arrow::StringArray& labels, int64_t row) {
  std::string value = labels.IsValid(row) ? "'" + std::string(labels.GetView(row)) + "'" : "NULL";
  return MakeError(arrow::StatusCode::Invalid,
                   "CHANGELOG_CONTRACT_VIOLATION.UNEXPECTED_CHANGE_TYPE",
                   "The changelog produced the change type " + value +
                       "; net changes accept only insert, delete, update_preimage and "
                       "update_postimage.");
}

class NetChanges {
 public:
  explicit NetChanges(const ChangelogPostProcessing& post) : post_(post) {}

  Status Consume(const std::shared_ptr<arrow::RecordBatch>& batch) {
    if (batch->num_rows() == 0) return Status::OK();
    arrow::ArrayVector keys;
    for (const auto& path : post_.row_id) {
      ARROW_ASSIGN_OR_RAISE(auto key, ColumnAtPath(*batch, path));
      keys.push_back(std::move(key));
    }
    if (grouper_ == nullptr) {
      std::vector<arrow::TypeHolder> types;
      for (const auto& key : keys) types.emplace_back(key->type());
      ARROW_ASSIGN_OR_RAISE(grouper_, cp::Grouper::Make(types));
    }
    std::vector<arrow::Datum> values(keys.begin(), keys.end());
    cp::ExecBatch key_batch(std::move(values), batch->num_rows());
    ARROW_ASSIGN_OR_RAISE(auto ids_datum, grouper_->Consume(cp::ExecSpan(key_batch)));
    auto ids = std::static_pointer_cast<arrow::UInt32Array>(ids_datum.make_array());
    identities_.resize(grouper_->num_groups());

    ARROW_ASSIGN_OR_RAISE(auto change_type, ColumnAtPath(*batch, {kChangeTypeColumn}));
    ARROW_ASSIGN_OR_RAISE(auto codes, ChangeTypeCodes(*change_type));
    ARROW_ASSIGN_OR_RAISE(auto labels, cp::Cast(*change_type, arrow::utf8()));
    ARROW_ASSIGN_OR_RAISE(auto version, ColumnAtPath(*batch, {kCommitVersionColumn}));
    ARROW_ASSIGN_OR_RAISE(auto version_values, VersionValues(version));

    std::vector<uint32_t> touched;
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      if (!codes->IsValid(i)) {
        return UnexpectedChangeType(static_cast<const arrow::StringArray&>(*labels), i);
      }
      KeptRow row;
      row.code = codes->Value(i);
      row.key = KeyOf(*version_values, i, row.code);
      row.index = i;
      row.in_current_batch = true;
      uint32_t id = ids->Value(i);
      auto& identity = identities_[id];
      if (!identity) {
        identity = Identity{row, row};
        touched.push_back(id);
        continue;
      }
      bool changed = false;
      if (row.key.Compare(identity->first.key) < 0) {
        identity->first = row;
        changed = true;
      }
      if (row.key.Compare(identity->last.key) >= 0) {
        identity->last = row;
        changed = true;
      }
      if (changed) touched.push_back(id);
    }
    return Retain(batch, touched);
  }

  Result<std::shared_ptr<arrow::Table>> Finish(const std::shared_ptr<arrow::Schema>& schema) {
    ARROW_ASSIGN_OR_RAISE(auto kept, RetainedRows(schema));
    arrow::Int64Builder indices;
    arrow::StringBuilder labels;
    auto emit = [&](const KeptRow& row, const char* label) -> Status {
      ARROW_RETURN_NOT_OK(indices.Append(row.index));
      return labels.Append(label);
    };
    for (const auto& identity : identities_) {
      if (!identity) continue;
      const KeptRow& first = identity->first;
      const KeptRow& last = identity->last;
      bool existed_before = first.code == kCodeDelete || first.code == kCodeUpdatePreimage;
      bool exists_after = last.code == kCodeInsert || last.code == kCodeUpdatePostimage;
      if (existed_before && exists_after) {
        bool updates = post_.info.compute_updates;
        ARROW_RETURN_NOT_OK(emit(first, updates ? kChangeUpdatePreimage : kChangeDelete));
        ARROW_RETURN_NOT_OK(emit(last, updates ? kChangeUpdatePostimage : kChangeInsert));
      } else if (existed_before) {
        ARROW_RETURN_NOT_OK(emit(first, kChangeDelete));
      } else if (exists_after) {
        ARROW_RETURN_NOT_OK(emit(last, kChangeInsert));
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto index_array, indices.Finish());
    ARROW_ASSIGN_OR_RAISE(auto label_array, labels.Finish());
    ARROW_ASSIGN_OR_RAISE(auto taken, cp::Take(kept, index_array));
    ARROW_ASSIGN_OR_RAISE(auto relabelled, WithChangeTypes(taken.record_batch(), label_array));
    return arrow::Table::FromRecordBatches(schema, {relabelled});
  }

 private:
  // The commit versions as int64 or as utf8 text, whichever the column is.
  static Result<std::shared_ptr<arrow::Array>> VersionValues(
      const std::shared_ptr<arrow::Array>& version) {
    if (version->type_id() == arrow::Type::INT64) return version;
    return cp::Cast(*version, arrow::utf8());
  }

  static OrderKey KeyOf(const arrow::Array& versions, int64_t row, int32_t code) {
    OrderKey key;
    key.rank = code == kCodeInsert || code == kCodeUpdatePostimage ? 1 : 0;
    key.null_version = versions.IsNull(row);
    if (key.null_version) return key;
    if (versions.type_id() == arrow::Type::INT64) {
      key.number = static_cast<const arrow::Int64Array&>(versions).Value(row);
    } else {
      key.text = std::string(static_cast<const arrow::StringArray&>(versions).GetView(row));
    }
    return key;
  }

  // Copy the rows of `batch` that identities now reference into the retained rows, and compact
  // the retained rows when dead ones outnumber live ones.
  Status Retain(const std::shared_ptr<arrow::RecordBatch>& batch,
                const std::vector<uint32_t>& touched) {
    std::vector<int64_t> rows;
    for (uint32_t id : touched) {
      for (KeptRow* row : {&identities_[id]->first, &identities_[id]->last}) {
        if (row->in_current_batch) rows.push_back(row->index);
      }
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    arrow::Int64Builder builder;
    ARROW_RETURN_NOT_OK(builder.AppendValues(rows));
    ARROW_ASSIGN_OR_RAISE(auto indices, builder.Finish());
    ARROW_ASSIGN_OR_RAISE(auto taken, cp::Take(batch, indices));
    for (uint32_t id : touched) {
      for (KeptRow* row : {&identities_[id]->first, &identities_[id]->last}) {
        if (!row->in_current_batch) continue;
        auto at = std::lower_bound(rows.begin(), rows.end(), row->index) - rows.begin();
        row->index = retained_rows_ + at;
        row->in_current_batch = false;
      }
    }
    retained_.push_back(taken.record_batch());
    retained_rows_ += static_cast<int64_t>(rows.size());
    if (retained_rows_ > 4 * static_cast<int64_t>(identities_.size()) + 4096) {
      return Compact(batch->schema());
    }
    return Status::OK();
  }

  Result<std::shared_ptr<arrow::RecordBatch>> RetainedRows(
      const std::shared_ptr<arrow::Schema>& schema) {
    ARROW_ASSIGN_OR_RAISE(auto table, arrow::Table::FromRecordBatches(schema, retained_));
    ARROW_ASSIGN_OR_RAISE(auto combined, table->CombineChunksToBatch());
    return combined;
  }

  // Keep only the retained rows some identity still references.
  Status Compact(const std::shared_ptr<arrow::Schema>& schema) {
    ARROW_ASSIGN_OR_RAISE(auto all, RetainedRows(schema));
    std::vector<int64_t> live;
    for (const auto& identity : identities_) {
      if (!identity) continue;
      live.push_back(identity->first.index);
      live.push_back(identity->last.index);
    }
    std::sort(live.begin(), live.end());
    live.erase(std::unique(live.begin(), live.end()), live.end());
    arrow::Int64Builder builder;
    ARROW_RETURN_NOT_OK(builder.AppendValues(live));
    ARROW_ASSIGN_OR_RAISE(auto indices, builder.Finish());
    ARROW_ASSIGN_OR_RAISE(auto taken, cp::Take(all, indices));
    for (auto& identity : identities_) {
      if (!identity) continue;
      for (KeptRow* row : {&identity->first, &identity->last}) {
        row->index = std::lower_bound(live.begin(), live.end(), row->index) - live.begin();
      }
    }
    retained_ = {taken.record_batch()};
    retained_rows_ = static_cast<int64_t>(live.size());
    return Status::OK();
  }

  const ChangelogPostProcessing& post_;
  std::unique_ptr<cp::Grouper> grouper_;
  std::vector<std::optional<Identity>> identities_;
  std::vector<std::shared_ptr<arrow::RecordBatch>> retained_;
  int64_t retained_rows_ = 0;
};

}  // namespace

Result<std::shared_ptr<arrow::Table>> RunNetChanges(arrow::RecordBatchReader* input,
                                                    const ChangelogPostProcessing& post) {
  NetChanges pass(post);
  while (true) {
    ARROW_ASSIGN_OR_RAISE(auto batch, input->Next());
    if (batch == nullptr) break;
    ARROW_RETURN_NOT_OK(pass.Consume(batch));
  }
  return pass.Finish(input->schema());
}

}  // namespace parley
