// The merge-on-read write of MemoryTable: DeltaWriters stage the row ids deleted, the row ids
// updated with their new values, and the rows inserted, in the process-wide staging registry
// (memory_write_internal.h); the commit patches each touched stored batch in place (its
// remaining rows keep their order, an updated row its position) and appends the inserted rows,
// in one step.
#include <algorithm>
#include <map>
#include <utility>

#include "arrow/array.h"
#include "arrow/builder.h"
#include "arrow/compute/api.h"
#include "arrow/record_batch.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "memory_scan_internal.h"
#include "memory_table.h"
#include "memory_write_internal.h"

namespace parley::memory {
namespace {

using Batches = std::vector<std::shared_ptr<arrow::RecordBatch>>;

// What one task attempt recorded.
struct DeltaChanges {
  Batches deleted;       // row ids (`_batch`, `_pos`) of deleted rows
  Batches updated_ids;   // row ids of updated rows ...
  Batches updated_rows;  // ... and their new values, batch for batch
  Batches inserted;
};

using Staging = StagingRegistry<DeltaChanges>;

std::shared_ptr<arrow::RecordBatch> Share(const arrow::RecordBatch& batch) {
  return arrow::RecordBatch::Make(batch.schema(), batch.num_rows(), batch.columns());
}

class MemoryDeltaWriter : public DeltaWriter {
 public:
  MemoryDeltaWriter(std::shared_ptr<arrow::Schema> schema, std::string table_name,
                    uint64_t write_id, int partition_id, int64_t task_id)
      : schema_(std::move(schema)),
        table_name_(std::move(table_name)),
        write_id_(write_id),
        partition_id_(partition_id),
        task_id_(task_id) {}

  Status Delete(const arrow::RecordBatch&, const arrow::RecordBatch& row_ids) override {
    ARROW_RETURN_NOT_OK(CheckRowIds(row_ids));
    Staging::Instance().Stage(write_id_, task_id_, [&](DeltaChanges* changes) {
      changes->deleted.push_back(Share(row_ids));
    });
    return Status::OK();
  }

  Status Update(const arrow::RecordBatch&, const arrow::RecordBatch& row_ids,
                const arrow::RecordBatch& rows) override {
    ARROW_RETURN_NOT_OK(CheckRowIds(row_ids));
    ARROW_RETURN_NOT_OK(CheckWriterRows(*schema_, rows));
    if (rows.num_rows() != row_ids.num_rows()) {
      return InvalidError("CONNECTOR_CONTRACT_VIOLATION.UPDATE_ROW_COUNT",
                          "The memory table " + table_name_ + " was given " +
                              std::to_string(rows.num_rows()) + " updated rows for " +
                              std::to_string(row_ids.num_rows()) + " row ids.");
    }
    Staging::Instance().Stage(write_id_, task_id_, [&](DeltaChanges* changes) {
      changes->updated_ids.push_back(Share(row_ids));
      changes->updated_rows.push_back(
          arrow::RecordBatch::Make(schema_, rows.num_rows(), rows.columns()));
    });
    return Status::OK();
  }

  Status Insert(const arrow::RecordBatch& rows) override {
    ARROW_RETURN_NOT_OK(CheckWriterRows(*schema_, rows));
    Staging::Instance().Stage(write_id_, task_id_, [&](DeltaChanges* changes) {
      changes->inserted.push_back(
          arrow::RecordBatch::Make(schema_, rows.num_rows(), rows.columns()));
    });
    return Status::OK();
  }

  // A committed task that staged nothing still gets an entry (see MemoryDataWriter).
  Result<CommitMessagePtr> Commit() override {
    Staging::Instance().Stage(write_id_, task_id_, [](DeltaChanges*) {});
    return std::make_shared<MemoryCommitMessage>(write_id_, partition_id_, task_id_);
  }

  Status Abort() override {
    Staging::Instance().DropTask(write_id_, task_id_);
    return Status::OK();
  }

 private:
  Status CheckRowIds(const arrow::RecordBatch& row_ids) const {
    if (row_ids.num_columns() != 2 || row_ids.column(0)->type_id() != arrow::Type::INT64 ||
        row_ids.column(1)->type_id() != arrow::Type::INT64 || row_ids.column(0)->null_count() ||
        row_ids.column(1)->null_count()) {
      return InvalidError("CONNECTOR_CONTRACT_VIOLATION.INVALID_ROW_ID",
                          "The memory table " + table_name_ +
                              " identifies rows by two non-null BIGINT columns, " + kBatchColumn +
                              " and " + kPositionColumn + ".");
    }
    return Status::OK();
  }

  std::shared_ptr<arrow::Schema> schema_;
  std::string table_name_;
  uint64_t write_id_;
  int partition_id_;
  int64_t task_id_;
};

class MemoryDeltaWriterFactory : public DataWriterFactory {
 public:
  MemoryDeltaWriterFactory(std::shared_ptr<arrow::Schema> schema, std::string table_name,
                           uint64_t write_id)
      : schema_(std::move(schema)), table_name_(std::move(table_name)), write_id_(write_id) {}

  Result<std::unique_ptr<DataWriter>> CreateWriter(int partition_id, int64_t task_id) override {
    return std::make_unique<MemoryDeltaWriter>(schema_, table_name_, write_id_, partition_id,
                                               task_id);
  }

  Result<std::string> Serialize() const override { return MemoryFactoryBytes(write_id_); }

 private:
  std::shared_ptr<arrow::Schema> schema_;
  std::string table_name_;
  uint64_t write_id_;
};

// The changes to one stored batch: the rows that go, and the rows that replace others, each
// as (batch of new values, row in it).
struct GroupChanges {
  std::vector<bool> deleted;
  std::map<int64_t, std::pair<size_t, int64_t>> updated;  // position -> (updated batch, row)
};

class MemoryDeltaBatchWrite : public BatchWrite {
 public:
  MemoryDeltaBatchWrite(std::shared_ptr<MemoryTable> table, Batches groups)
      : table_(std::move(table)), groups_(std::move(groups)), write_id_(NewMemoryWriteId()) {}

  ~MemoryDeltaBatchWrite() override { Staging::Instance().DropWrite(write_id_); }

  Result<std::shared_ptr<DataWriterFactory>> CreateBatchWriterFactory(
      const PhysicalWriteInfo&) override {
    return std::make_shared<MemoryDeltaWriterFactory>(table_->schema(), table_->name(), write_id_);
  }

  Result<std::shared_ptr<DataWriterFactory>> DeserializeWriterFactory(
      std::string_view bytes) const override {
    ARROW_RETURN_NOT_OK(CheckMemoryFactoryBytes(bytes, write_id_));
    return std::make_shared<MemoryDeltaWriterFactory>(table_->schema(), table_->name(), write_id_);
  }

  Result<CommitMessagePtr> DeserializeCommitMessage(std::string_view bytes) const override {
    return ParseMemoryCommitMessage(bytes, write_id_);
  }

  Status Commit(const std::vector<CommitMessagePtr>& messages) override {
    ARROW_ASSIGN_OR_RAISE(auto outputs, TakeCommittedOutputs(&Staging::Instance(), committed_,
                                                             messages, write_id_, table_->name()));
    DeltaChanges all;
    for (auto& staged : outputs) {
      for (auto [from, to] : {std::pair{&staged.deleted, &all.deleted},
                              std::pair{&staged.updated_ids, &all.updated_ids},
                              std::pair{&staged.updated_rows, &all.updated_rows},
                              std::pair{&staged.inserted, &all.inserted}}) {
        to->insert(to->end(), from->begin(), from->end());
      }
    }
    MemoryWriteMode mode;
    mode.kind = MemoryWriteMode::Kind::kPatchGroups;
    mode.groups = groups_;
    ARROW_ASSIGN_OR_RAISE(mode.patched, Patch(all));
    ARROW_RETURN_NOT_OK(table_->CommitWrite(mode, std::move(all.inserted)));
    committed_ = true;
    Staging::Instance().DropWrite(write_id_);
    return Status::OK();
  }

  Status Abort(const std::vector<CommitMessagePtr>&) override {
    Staging::Instance().DropWrite(write_id_);
    return Status::OK();
  }

 private:
  // The changes of every group, by row id; an unknown or repeated row id is an error.
  Result<std::vector<GroupChanges>> Collect(const DeltaChanges& changes) const {
    std::vector<GroupChanges> groups(groups_.size());
    for (size_t g = 0; g < groups_.size(); ++g) {
      groups[g].deleted.assign(groups_[g]->num_rows(), false);
    }
    auto visit = [&](const arrow::RecordBatch& row_ids, auto&& record) -> Status {
      const auto& batch = static_cast<const arrow::Int64Array&>(*row_ids.column(0));
      const auto& position = static_cast<const arrow::Int64Array&>(*row_ids.column(1));
      for (int64_t i = 0; i < row_ids.num_rows(); ++i) {
        const int64_t g = batch.Value(i), p = position.Value(i);
        if (g < 0 || g >= static_cast<int64_t>(groups_.size()) || p < 0 ||
            p >= groups_[g]->num_rows() || groups[g].deleted[p] || groups[g].updated.count(p) > 0) {
          return InvalidError("CONNECTOR_CONTRACT_VIOLATION.INVALID_ROW_ID",
                              "The merge-on-read write into the memory table " + table_->name() +
                                  " names the row (" + std::to_string(g) + ", " +
                                  std::to_string(p) + ") twice or of no batch the operation read.");
        }
        record(&groups[g], p, i);
      }
      return Status::OK();
    };
    for (const auto& row_ids : changes.deleted) {
      ARROW_RETURN_NOT_OK(visit(
          *row_ids, [](GroupChanges* group, int64_t p, int64_t) { group->deleted[p] = true; }));
    }
    for (size_t u = 0; u < changes.updated_ids.size(); ++u) {
      ARROW_RETURN_NOT_OK(
          visit(*changes.updated_ids[u], [u](GroupChanges* group, int64_t p, int64_t row) {
            group->updated[p] = {u, row};
          }));
    }
    return groups;
  }

  // Each group read as it is after the changes: itself when untouched, null when empty.
  Result<Batches> Patch(const DeltaChanges& changes) const {
    ARROW_ASSIGN_OR_RAISE(auto collected, Collect(changes));
    Batches patched = groups_;
    for (size_t g = 0; g < groups_.size(); ++g) {
      const GroupChanges& group = collected[g];
      const bool touched =
          !group.updated.empty() ||
          std::find(group.deleted.begin(), group.deleted.end(), true) != group.deleted.end();
      if (!touched) continue;
      // Take from the group followed by the new values of its updated rows.
      Batches sources = {groups_[g]};
      std::map<size_t, int64_t> offsets;  // updated batch -> its first row in `sources`
      int64_t next = groups_[g]->num_rows();
      for (const auto& [position, source] : group.updated) {
        if (offsets.emplace(source.first, next).second) {
          sources.push_back(changes.updated_rows[source.first]);
          next += changes.updated_rows[source.first]->num_rows();
        }
      }
      arrow::Int64Builder indices;
      for (int64_t p = 0; p < groups_[g]->num_rows(); ++p) {
        if (group.deleted[p]) continue;
        auto updated = group.updated.find(p);
        ARROW_RETURN_NOT_OK(
            indices.Append(updated == group.updated.end()
                               ? p
                               : offsets[updated->second.first] + updated->second.second));
      }
      if (indices.length() == 0) {
        patched[g] = nullptr;
        continue;
      }
      ARROW_ASSIGN_OR_RAISE(auto index_array, indices.Finish());
      ARROW_ASSIGN_OR_RAISE(auto table, arrow::Table::FromRecordBatches(table_->schema(), sources));
      ARROW_ASSIGN_OR_RAISE(auto taken,
                            arrow::compute::Take(arrow::Datum(table), arrow::Datum(index_array)));
      ARROW_ASSIGN_OR_RAISE(patched[g], taken.table()->CombineChunksToBatch());
    }
    return patched;
  }

  std::shared_ptr<MemoryTable> table_;
  Batches groups_;
  uint64_t write_id_;
  bool committed_ = false;
};

class MemoryDeltaWrite : public Write {
 public:
  MemoryDeltaWrite(std::shared_ptr<MemoryTable> table, RowLevelCommand command, Batches groups)
      : table_(std::move(table)), command_(command), groups_(std::move(groups)) {}

  std::string description() const override {
    return "MemoryWrite " + table_->name() + " (merge-on-read " + RowLevelCommandName(command_) +
           ")";
  }

  Result<std::shared_ptr<BatchWrite>> ToBatch() override {
    return std::make_shared<MemoryDeltaBatchWrite>(table_, groups_);
  }

 private:
  std::shared_ptr<MemoryTable> table_;
  RowLevelCommand command_;
  Batches groups_;
};

class MemoryDeltaWriteBuilder : public WriteBuilder {
 public:
  MemoryDeltaWriteBuilder(std::shared_ptr<MemoryTable> table, RowLevelCommand command,
                          Batches groups)
      : table_(std::move(table)), command_(command), groups_(std::move(groups)) {}

  Result<std::shared_ptr<Write>> Build() override {
    return std::make_shared<MemoryDeltaWrite>(table_, command_, groups_);
  }

 private:
  std::shared_ptr<MemoryTable> table_;
  RowLevelCommand command_;
  Batches groups_;
};

}  // namespace

std::unique_ptr<WriteBuilder> MakeMemoryDeltaWriteBuilder(std::shared_ptr<MemoryTable> table,
                                                          RowLevelCommand command, Batches groups) {
  return std::make_unique<MemoryDeltaWriteBuilder>(std::move(table), command, std::move(groups));
}

}  // namespace parley::memory
