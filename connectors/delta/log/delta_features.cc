// The reader protocol check (§3 step 5, §9): refuse by reader version and reader feature list.
#include <set>
#include <string>
#include "connectors/delta/log/protocol.h"
#include "connectors/delta/util.h"

namespace parley::delta {
namespace {

// The reader features this connector implements. Writer-only features never stop a read.
const std::set<std::string>& SupportedReaderFeatures() {
  static const std::set<std::string> kFeatures = {
      "columnMapping",       "deletionVectors", "timestampNtz",         "v2Checkpoint",
      "vacuumProtocolCheck", "typeWidening",    "typeWidening-preview",
  };
  return kFeatures;
}

constexpr int32_t kMaxReaderVersion = 3;

}  // namespace

Status CheckReadSupported(const Protocol& protocol, const std::string& table) {
  if (protocol.min_reader_version < 1 || protocol.min_reader_version > kMaxReaderVersion) {
    return InvalidError("DELTA_INVALID_PROTOCOL_VERSION",
                        "Delta protocol version is not supported by this version of Parley: "
                        "table " +
                            DisplayPath(table) + " requires reader version " +
                            std::to_string(protocol.min_reader_version) +
                            ", client supports reader versions 1 to " +
                            std::to_string(kMaxReaderVersion) + ".");
  }
  if (protocol.min_reader_version < 3 || !protocol.reader_features) return Status::OK();
  std::string unsupported;
  for (const auto& feature : *protocol.reader_features) {
    if (SupportedReaderFeatures().contains(feature)) continue;
    unsupported += (unsupported.empty() ? "" : ", ") + feature;
  }
  if (unsupported.empty()) return Status::OK();
  return InvalidError("DELTA_UNSUPPORTED_FEATURES_FOR_READ",
                      "Unable to read the table " + DisplayPath(table) +
                          " because it requires reader table feature(s) that are unsupported "
                          "by Parley: " +
                          unsupported + ".");
}

}  // namespace parley::delta
