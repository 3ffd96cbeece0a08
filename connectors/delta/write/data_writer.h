// The writer factory, data writers and commit messages of a write (delta_data_writer.cc).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/type_fwd.h"
#include "connectors/delta/log/delta_log.h"
#include "connectors/delta/log/delta_schema.h"
#include "parley/connector/status.h"
#include "parley/connector/write.h"

namespace parley::delta {

/// \brief What every writer of one write shares: the writer factory's serialized content.
struct WriteSpec {
  std::string location;
  /// The annotated table schema, as Delta schema JSON; the rows written have its columns.
  std::string schema_json;
  ColumnMappingMode mode = ColumnMappingMode::kNone;
  std::vector<std::string> partition_columns;
  /// `delta.dataSkippingNumIndexedCols`.
  int indexed_columns = 32;
  /// Change data (§6): the rows carry one more STRING column, `_change_type`, written as is;
  /// files go under `_change_data/` named `cdc-...`, and their actions (to commit as `cdc`
  /// actions) have dataChange=false and no statistics.
  bool change_data = false;
  /// Row tracking materialization (§7), when both are set: the rows carry two more BIGINT
  /// columns (after `_change_type` if any), the stable row id and row commit version to keep
  /// (null: the file's fresh value), written under these names.
  std::string materialized_row_id;
  std::string materialized_row_commit_version;
};

/// \brief The writer factory of a write; rebuilds the filesystem from spec.location.
Result<std::shared_ptr<DataWriterFactory>> MakeDeltaWriterFactory(WriteSpec spec);

/// \brief Rebuild a writer factory from DataWriterFactory::Serialize() bytes.
Result<std::shared_ptr<DataWriterFactory>> DeserializeDeltaWriterFactory(std::string_view bytes);

/// \brief Rebuild a commit message from WriterCommitMessage::Serialize() bytes.
Result<CommitMessagePtr> DeserializeDeltaCommitMessage(std::string_view bytes);

/// \brief The add actions a Delta writer's commit message carries.
Result<std::vector<FileAction>> AddsOfMessage(const WriterCommitMessage& message);

/// \brief A Delta writer's commit message carrying `adds`.
CommitMessagePtr MakeDeltaCommitMessage(std::vector<FileAction> adds);

}  // namespace parley::delta
