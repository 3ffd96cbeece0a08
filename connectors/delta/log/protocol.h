// The protocol and table properties: the reader check (delta_features.cc), and the properties,
// required protocol and writer check of writes (delta_protocol.cc).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "arrow/type_fwd.h"
#include "connectors/delta/log/delta_log.h"
#include "parley/connector/status.h"

namespace parley::delta {

/// \brief Fail with DELTA_INVALID_PROTOCOL_VERSION or DELTA_UNSUPPORTED_FEATURES_FOR_READ when
/// the protocol needs something this reader does not implement. `table` names the table.
Status CheckReadSupported(const Protocol& protocol, const std::string& table);

/// \brief Check table properties given at CREATE or ALTER: `delta.*` keys must be known
/// (DELTA_UNKNOWN_CONFIGURATION otherwise) with valid values (DELTA_INVALID_TABLE_PROPERTY...).
Status ValidateConfiguration(const std::map<std::string, std::string>& configuration);

/// \brief The lowest protocol that supports a table with `configuration` and `schema`
/// (annotated), never below `current` when given: (1,2) by default; column mapping (2,5);
/// change data feed writer 4; deletion vectors, timestampNtz, column defaults or V2
/// checkpoints as table features (3,7); row tracking as the writer features rowTracking and
/// domainMetadata (writer 7).
Protocol RequiredProtocol(const std::map<std::string, std::string>& configuration,
                          const arrow::Schema& schema, const std::optional<Protocol>& current);

/// \brief Fail with DELTA_UNSUPPORTED_FEATURES_FOR_WRITE (naming the features) or
/// DELTA_INVALID_PROTOCOL_VERSION when this writer cannot write the table safely.
Status CheckWriteSupported(const Protocol& protocol, const Metadata& metadata,
                           const std::string& table);

/// \brief How often a table with `metadata` and `protocol` gets a classic checkpoint:
/// `delta.checkpointInterval` (10 by default); 0 (never) for tables whose checkpoints must
/// be V2 ones, which this writer does not produce.
int64_t CheckpointInterval(const Protocol& protocol, const Metadata& metadata);

/// \brief An integer table property, or `fallback` when unset or malformed.
int64_t IntProperty(const std::map<std::string, std::string>& configuration, const std::string& key,
                    int64_t fallback);

}  // namespace parley::delta
