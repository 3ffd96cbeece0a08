// Committing to the Delta log: one commit file per version, published with put-if-absent, and
// optimistic concurrency (see CommitTransaction in delta_write_internal.h).
//
// A commit is written to a hidden temporary file in `_delta_log`, flushed, then hard-linked to
// its final name: link() fails when the name exists, so two writers can never both own a
// version and a reader never sees a partial commit. A rename would silently replace a winner's
// commit. The temporary file is removed either way.
#include <fcntl.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <set>
#include <string>

#include "arrow/filesystem/filesystem.h"

#include "connectors/delta/log/actions.h"
#include "connectors/delta/log/checkpoint.h"
#include "connectors/delta/log/row_tracking.h"
#include "connectors/delta/log/transaction.h"
#include "connectors/delta/util.h"
#include "parley/connector/fault_injection.h"
#include "parley/connector/filesystem.h"

namespace parley::delta {
namespace {

using nlohmann::json;

// Attempts before giving up on a table that other writers keep committing to.
constexpr int kMaxCommitAttempts = 10000;

std::string RenderCommit(const Transaction& transaction, int64_t read_version, int64_t timestamp,
                         const std::string& txn_id) {
  json info = {{"timestamp", timestamp},
               {"operation", transaction.operation},
               {"operationParameters", json(transaction.operation_parameters)},
               {"isolationLevel", "Serializable"},
               {"isBlindAppend", transaction.blind_append},
               {"operationMetrics", json(transaction.operation_metrics)},
               {"engineInfo", "Parley"},
               {"txnId", txn_id}};
  if (read_version >= 0) info["readVersion"] = read_version;
  if (!transaction.tags.empty()) info["tags"] = json(transaction.tags);
  std::string body = json{{"commitInfo", std::move(info)}}.dump() + "\n";
  if (transaction.protocol) body += ProtocolToJson(*transaction.protocol).dump() + "\n";
  if (transaction.metadata) body += MetadataToJson(*transaction.metadata).dump() + "\n";
  if (transaction.txn) body += TransactionToJson(*transaction.txn).dump() + "\n";
  for (const auto& domain : transaction.domains) body += DomainToJson(domain).dump() + "\n";
  for (const auto& remove : transaction.removes) {
    body += FileActionToJson(remove, /*is_add=*/false).dump() + "\n";
  }
  for (const auto& add : transaction.adds) {
    body += FileActionToJson(add, /*is_add=*/true).dump() + "\n";
  }
  for (const auto& change : transaction.change_files) {
    body += ChangeFileToJson(change).dump() + "\n";
  }
  return body;
}

Status IoError(const std::string& what, const std::string& path) {
  return Status::IOError(what, " ", DisplayPath(path), ": ", std::strerror(errno));
}

// Write `body` to `directory/name` unless that file exists; returns whether it was written.
Result<bool> PutIfAbsent(const std::string& directory, const std::string& name,
                         const std::string& body) {
  std::string temporary = directory + "/." + name + "." + RandomUuid() + ".tmp";
  std::string target = directory + "/" + name;
  // Each step is a counted filesystem operation (parley/connector/filesystem.h); a failed one
  // leaves at most the hidden temporary behind, which readers ignore.
  auto remove_temporary = [&] {
    if (CountFileSystemOperation("delete", temporary).ok()) ::unlink(temporary.c_str());
  };
  ARROW_RETURN_NOT_OK(CountFileSystemOperation("create", temporary));
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return IoError("Cannot create", temporary);
  int64_t allowed = static_cast<int64_t>(body.size());
  Status write_fault = CountFileSystemOperation("write", temporary, &allowed);
  const size_t length = write_fault.ok() ? body.size() : static_cast<size_t>(allowed);
  size_t written = 0;
  while (written < length) {
    ssize_t n = ::write(fd, body.data() + written, length - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      Status error = IoError("Cannot write", temporary);
      ::close(fd);
      remove_temporary();
      return error;
    }
    written += static_cast<size_t>(n);
  }
  if (!write_fault.ok()) {
    ::close(fd);
    remove_temporary();
    return write_fault;
  }
  Status flushed = CountFileSystemOperation("flush", temporary);
  if (flushed.ok() && ::fsync(fd) != 0) flushed = IoError("Cannot flush", temporary);
  if (::close(fd) != 0 && flushed.ok()) flushed = IoError("Cannot close", temporary);
  if (!flushed.ok()) {
    remove_temporary();
    return flushed;
  }
  Status fault = InjectFault(kFaultDriverInsideCommit);
  if (fault.ok()) fault = CountFileSystemOperation("link", temporary + " -> " + target);
  if (!fault.ok()) {
    remove_temporary();
    return fault;
  }
  bool won = ::link(temporary.c_str(), target.c_str()) == 0;
  int link_errno = errno;
  remove_temporary();
  if (!won && link_errno != EEXIST) {
    errno = link_errno;
    return IoError("Cannot publish", target);
  }
  return won;
}

Status Conflict(const char* condition, const std::string& table, int64_t version,
                const std::string& detail) {
  return InvalidError(condition, "Transaction conflict on " + table +
                                     ": a concurrent transaction committed version " +
                                     std::to_string(version) + " first and " + detail +
                                     ". Please try the operation again.");
}

// Whether the winning commit `winner` makes `transaction` invalid.
Status CheckConflicts(const Transaction& transaction, const CommitActions& winner,
                      const std::string& table) {
  if (winner.protocol) {
    return Conflict("DELTA_PROTOCOL_CHANGED", table, winner.version,
                    "changed the protocol version");
  }
  if (winner.metadata) {
    return Conflict("DELTA_METADATA_CHANGED", table, winner.version, "changed the metadata");
  }
  // Added files first, then removed ones, as delta-spark checks them.
  for (const auto& change : winner.file_changes) {
    if (!change.is_add || !change.file.data_change || transaction.blind_append) continue;
    if (!transaction.read_predicate || transaction.read_predicate(change.file)) {
      return Conflict(
          "DELTA_CONCURRENT_APPEND", table, winner.version,
          "added files (" + PercentDecode(change.file.path) + ") to data this one read");
    }
  }
  std::set<std::string> removed_here;
  for (const auto& remove : transaction.removes) removed_here.insert(remove.Key());
  for (const auto& change : winner.file_changes) {
    if (change.is_add || !change.file.data_change) continue;
    if (removed_here.contains(change.file.Key())) {
      return Conflict(
          "DELTA_CONCURRENT_DELETE_DELETE", table, winner.version,
          "removed a file this one also removes (" + PercentDecode(change.file.path) + ")");
    }
    if (!transaction.blind_append &&
        (!transaction.read_predicate || transaction.read_predicate(change.file))) {
      return Conflict("DELTA_CONCURRENT_DELETE_READ", table, winner.version,
                      "removed a file this one read (" + PercentDecode(change.file.path) + ")");
    }
  }
  if (transaction.txn) {
    for (const auto& txn : winner.transactions) {
      if (txn.app_id == transaction.txn->app_id) {
        return Conflict("DELTA_CONCURRENT_TRANSACTION", table, winner.version,
                        "wrote for the same application id '" + txn.app_id + "'");
      }
    }
  }
  return Status::OK();
}

}  // namespace

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Result<int64_t> CommitTransaction(const std::shared_ptr<arrow::fs::FileSystem>& filesystem,
                                  const std::string& root, const std::string& table,
                                  int64_t read_version, Transaction transaction) {
  if (filesystem->type_name() != "local") {
    return InvalidError("DELTA_UNSUPPORTED_WRITE_STORAGE",
                        "Writing the Delta table " + table + " needs a local filesystem ('" +
                            filesystem->type_name() + "' has no put-if-absent).");
  }
  const std::string log_dir = LogDirectory(root);
  ARROW_RETURN_NOT_OK(filesystem->CreateDir(log_dir, /*recursive=*/true));
  const int64_t now = NowMillis();
  for (auto& remove : transaction.removes) {
    remove.deletion_timestamp = now;
    remove.data_change = true;
  }
  if (transaction.txn) transaction.txn->last_updated = now;
  const std::string txn_id = RandomUuid();
  // Row tracking: the adds that get fresh ids, and the domains without the mark's.
  std::vector<size_t> fresh;
  const std::vector<DomainMetadata> domains = transaction.domains;
  if (transaction.row_id_high_water_mark) {
    for (size_t i = 0; i < transaction.adds.size(); ++i) {
      if (!transaction.adds[i].base_row_id) fresh.push_back(i);
    }
  }
  int64_t version = read_version + 1;
  for (int attempt = 0;; ++attempt) {
    if (attempt == kMaxCommitAttempts) {
      return InvalidError("DELTA_MAX_COMMIT_RETRIES_EXCEEDED",
                          "This commit to " + table + " failed as it was tried " +
                              std::to_string(attempt) + " times without succeeding.");
    }
    if (transaction.row_id_high_water_mark && !fresh.empty()) {
      int64_t mark = *transaction.row_id_high_water_mark;
      ARROW_RETURN_NOT_OK(AssignFreshRowIds(&transaction.adds, fresh, &mark, version));
      transaction.domains = domains;
      transaction.domains.push_back(HighWaterMarkDomain(mark));
    }
    ARROW_ASSIGN_OR_RAISE(bool won,
                          PutIfAbsent(log_dir, CommitFileName(version),
                                      RenderCommit(transaction, read_version, now, txn_id)));
    if (won) break;
    if (read_version < 0) {
      return InvalidError("DELTA_TABLE_ALREADY_EXISTS",
                          "Table " + table + " already exists: another writer created it first.");
    }
    ARROW_ASSIGN_OR_RAISE(CommitActions winner, ReadCommit(*filesystem, root, version));
    ARROW_RETURN_NOT_OK(CheckConflicts(transaction, winner, table));
    for (const auto& domain : winner.domains) {
      if (domain.domain != kRowTrackingDomain || !transaction.row_id_high_water_mark) continue;
      ARROW_ASSIGN_OR_RAISE(int64_t mark, ParseHighWaterMark(domain));
      transaction.row_id_high_water_mark = std::max(*transaction.row_id_high_water_mark, mark);
    }
    ++version;
  }
  const int64_t interval = transaction.checkpoint_interval;
  if (interval > 0 && version > 0 && version % interval == 0) {
    auto snapshot = LoadSnapshot(filesystem, root, version);
    // A checkpoint only speeds up reading: the commit stands whatever happens here.
    if (snapshot.ok()) (void)WriteCheckpoint(*filesystem, **snapshot);
  }
  return version;
}

}  // namespace parley::delta
