// Log actions as JSON: commit lines and checkpoint rows, read and written (delta_actions.cc).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>

#include "arrow/type_fwd.h"
#include "connectors/delta/log/delta_log.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief Add the action `name` with JSON body `body` to `actions` (null bodies are skipped,
/// unknown names ignored). Fails with a plain Invalid status describing the defect.
Status AddAction(const std::string& name, const nlohmann::json& body, CommitActions* actions);

/// \brief A deletion vector descriptor from its JSON object (as in an add action).
Result<DeletionVectorDescriptor> DeletionVectorFromJson(const nlohmann::json& descriptor);

/// \brief Each action as a commit line object: {"protocol": {...}} and so on. Optional fields
/// that are unset are left out; a remove carries `deletionTimestamp` and
/// `extendedFileMetadata: true` (its partition values and size are always known here).
nlohmann::json ProtocolToJson(const Protocol& protocol);
nlohmann::json MetadataToJson(const Metadata& metadata);
nlohmann::json FileActionToJson(const FileAction& file, bool is_add);
nlohmann::json TransactionToJson(const SetTransaction& txn);
/// \brief A `cdc` action: path, partitionValues, size, dataChange false (and tags).
nlohmann::json ChangeFileToJson(const FileAction& file);
nlohmann::json DomainToJson(const DomainMetadata& domain);

}  // namespace parley::delta
