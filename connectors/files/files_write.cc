// The driver side of a files-table write: the write builder (append, truncate, overwrite by a
// predicate on partition columns, dynamic partition overwrite), the Write and the BatchWrite.
//
// Nothing is deleted before BatchWrite::Commit. There the old files to replace are listed from
// storage (not from the table's snapshot): every data file for a truncate; the files whose Hive
// partition values make the overwrite predicates TRUE; for a dynamic overwrite the files in the
// partition directories the commit messages write to (every file of an unpartitioned table, as
// Spark does). The staged files the messages name, and only those, are published together with
// those deletions by one manifest (files_commit.h). Before its tasks start, a write completes
// any commit left pending and removes the staging of writes that were killed.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <optional>
#include <random>
#include <set>
#include <utility>

#include "arrow/compute/expression.h"
#include "arrow/dataset/partition.h"
#include "connectors/common/predicate_conversion.h"
#include "connectors/files/files_listing.h"
#include "connectors/files/files_table.h"
#include "connectors/files/files_write.h"
#include "connectors/files/files_writer.h"
#include "files_commit.h"
#include "parley/connector/status.h"

namespace parley::files {
namespace {

namespace afs = arrow::fs;
namespace cp = arrow::compute;

enum class WriteMode { kAppend, kOverwriteByFilter, kDynamicOverwrite };

const char* ModeName(WriteMode mode) {
  switch (mode) {
    case WriteMode::kAppend: return "append";
    case WriteMode::kOverwriteByFilter: return "overwrite";
    case WriteMode::kDynamicOverwrite: return "dynamic partition overwrite";
  }
  return "append";
}

std::string JoinPath(const std::string& root, const std::string& relative) {
  if (root.empty() || root.back() == '/') return root + relative;
  return root + "/" + relative;
}

std::string RelativeTo(const std::string& root, const std::string& path) {
  std::string rest = path.substr(std::min(root.size(), path.size()));
  while (!rest.empty() && rest.front() == '/') rest.erase(0, 1);
  return rest;
}

std::string DirectoryOf(const std::string& relative) {
  size_t slash = relative.find_last_of('/');
  return slash == std::string::npos ? std::string() : relative.substr(0, slash);
}

// The conjunction of `predicates` bound to the partition columns, or nullopt when one of them
// is not a predicate over partition columns only that Arrow can evaluate.
std::optional<cp::Expression> PartitionFilter(const std::vector<PredicatePtr>& predicates,
                                              const arrow::Schema& partition_schema) {
  std::vector<cp::Expression> terms;
  for (const auto& predicate : predicates) {
    for (const auto& reference : predicate->References()) {
      if (reference->field_names().size() != 1 ||
          partition_schema.GetFieldIndex(reference->field_names()[0]) < 0) {
        return std::nullopt;
      }
    }
    auto term = ToArrowExpression(*predicate);
    if (!term) return std::nullopt;
    terms.push_back(std::move(*term));
  }
  auto bound = (terms.empty() ? cp::literal(true) : cp::and_(terms)).Bind(partition_schema);
  if (!bound.ok()) return std::nullopt;
  return *std::move(bound);
}

// Every data file of the table (hidden names skipped), relative to the root.
Result<std::vector<std::string>> ListDataFiles(afs::FileSystem& filesystem,
                                               const std::string& root) {
  std::vector<std::string> out;
  ARROW_ASSIGN_OR_RAISE(auto info, filesystem.GetFileInfo(root));
  if (!info.IsDirectory()) return out;
  std::vector<afs::FileInfo> files;
  ARROW_RETURN_NOT_OK(ListDirectory(filesystem, root, /*include_empty=*/true, &files));
  for (const auto& file : files) out.push_back(RelativeTo(root, file.path()));
  return out;
}

// Whether a manifest may publish `file` of a message of `query_id`: staged under the query's
// staging directory, going to a visible path inside the table.
bool IsPublishable(const StagedFile& file, const std::string& query_id) {
  const std::string staging = QueryStagingDir(query_id) + "/";
  const std::string final_path = file.FinalPath();
  if (!file.staged_path.starts_with(staging) ||
      file.staged_path.find("/../") != std::string::npos || file.name.empty() ||
      file.name.find('/') != std::string::npos) {
    return false;
  }
  size_t start = 0;
  while (start <= final_path.size()) {
    size_t end = std::min(final_path.find('/', start), final_path.size());
    std::string segment = final_path.substr(start, end - start);
    if (segment.empty() || segment == ".." || segment.starts_with(".") ||
        (segment.starts_with("_") && segment.find('=') == std::string::npos)) {
      return false;
    }
    start = end + 1;
  }
  return true;
}

struct WritePlan {
  std::shared_ptr<const TableData> table;
  LogicalWriteInfo info;
  WriteMode mode = WriteMode::kAppend;
  /// kOverwriteByFilter: the rows to replace, bound to the partition columns.
  cp::Expression overwrite_filter = cp::literal(true);
  std::string overwrite_description;
  std::chrono::system_clock::time_point start;
};

class FilesBatchWrite : public BatchWrite {
 public:
  explicit FilesBatchWrite(std::shared_ptr<const WritePlan> plan) : plan_(std::move(plan)) {}

  Result<std::shared_ptr<DataWriterFactory>> CreateBatchWriterFactory(
      const PhysicalWriteInfo& info) override {
    const TableData& table = *plan_->table;
    ARROW_RETURN_NOT_OK(RecoverPendingCommits(*table.filesystem, table.root_dir));
    ARROW_RETURN_NOT_OK(RemoveAbandonedStaging(*table.filesystem, table.root_dir,
                                               plan_->info.query_id, plan_->start));
    WriteSpec spec;
    spec.format = table.options.format;
    spec.options = table.options.raw;
    spec.table_name = table.name;
    spec.filesystem_uri = table.filesystem_uri;
    spec.root_dir = table.root_dir;
    spec.query_id = plan_->info.query_id;
    spec.schema = plan_->info.schema;
    spec.partition_columns = table.partition_schema->field_names();
    return MakeWriterFactory(std::move(spec));
  }

  Result<std::shared_ptr<DataWriterFactory>> DeserializeWriterFactory(
      std::string_view bytes) const override {
    return files::DeserializeWriterFactory(bytes);
  }

  Result<CommitMessagePtr> DeserializeCommitMessage(std::string_view bytes) const override {
    return files::DeserializeCommitMessage(bytes);
  }

  Status Commit(const std::vector<CommitMessagePtr>& messages) override {
    const TableData& table = *plan_->table;
    CommitManifest manifest;
    manifest.query_id = plan_->info.query_id;
    std::set<std::string> written_dirs;
    for (const auto& message : messages) {
      if (message == nullptr) continue;
      ARROW_ASSIGN_OR_RAISE(const auto* files, OwnMessage(*message));
      for (const auto& file : files->files) {
        manifest.renames.emplace_back(file.staged_path, file.FinalPath());
        written_dirs.insert(file.partition_dir);
      }
    }
    ARROW_ASSIGN_OR_RAISE(manifest.deletes, FilesToReplace(written_dirs));
    return PublishCommit(*table.filesystem, table.root_dir, manifest);
  }

  Status Abort(const std::vector<CommitMessagePtr>& messages) override {
    const TableData& table = *plan_->table;
    auto& filesystem = *table.filesystem;
    // A manifest on storage means the write committed (Commit failed after its commit point):
    // it rolls forward instead.
    ARROW_ASSIGN_OR_RAISE(
        bool committed, CompleteCommitIfPending(filesystem, table.root_dir, plan_->info.query_id));
    if (committed) return Status::OK();
    for (const auto& message : messages) {
      if (message == nullptr) continue;
      ARROW_ASSIGN_OR_RAISE(const auto* files, OwnMessage(*message));
      for (const auto& file : files->files) {
        ARROW_RETURN_NOT_OK(DeleteIfPresent(JoinPath(table.root_dir, file.staged_path), false));
      }
    }
    return DeleteIfPresent(JoinPath(table.root_dir, QueryStagingDir(plan_->info.query_id)), true);
  }

 private:
  // The message as this connector's, naming only files this write may publish.
  Result<const FilesCommitMessage*> OwnMessage(const WriterCommitMessage& message) const {
    const auto* files = dynamic_cast<const FilesCommitMessage*>(&message);
    bool valid = files != nullptr && files->query_id == plan_->info.query_id;
    for (size_t i = 0; valid && i < files->files.size(); ++i) {
      valid = IsPublishable(files->files[i], plan_->info.query_id);
    }
    if (!valid) {
      return InvalidError("INTERNAL_ERROR", "The write " + plan_->info.query_id + " to " +
                                                plan_->table->name +
                                                " received a commit message it did not create.");
    }
    return files;
  }

  Status DeleteIfPresent(const std::string& path, bool directory) const {
    auto& filesystem = *plan_->table->filesystem;
    Status deleted = directory ? filesystem.DeleteDir(path) : filesystem.DeleteFile(path);
    if (deleted.ok()) return deleted;
    ARROW_ASSIGN_OR_RAISE(auto info, filesystem.GetFileInfo(path));
    return info.type() == afs::FileType::NotFound ? Status::OK() : deleted;
  }

  // The existing files the write replaces, relative to the root.
  Result<std::vector<std::string>> FilesToReplace(const std::set<std::string>& written_dirs) const {
    const TableData& table = *plan_->table;
    if (plan_->mode == WriteMode::kAppend) return std::vector<std::string>{};
    ARROW_ASSIGN_OR_RAISE(auto existing, ListDataFiles(*table.filesystem, table.root_dir));
    const bool unpartitioned = table.partition_schema->num_fields() == 0;
    if (plan_->mode == WriteMode::kDynamicOverwrite && unpartitioned) return existing;
    auto partitioning = MakeHivePartitioning(table.partition_schema);
    std::vector<std::string> replaced;
    for (const auto& file : existing) {
      const std::string directory = DirectoryOf(file);
      // Arrow parses the directories of a path: the last segment is a file name.
      ARROW_ASSIGN_OR_RAISE(auto values, partitioning->Parse(directory + "/"));
      ARROW_ASSIGN_OR_RAISE(values, values.Bind(*table.partition_schema));
      bool replace = false;
      if (plan_->mode == WriteMode::kOverwriteByFilter) {
        ARROW_ASSIGN_OR_RAISE(auto simplified,
                              cp::SimplifyWithGuarantee(plan_->overwrite_filter, values));
        replace = simplified.Equals(cp::literal(true));
      } else {
        auto canonical = partitioning->Format(values);
        std::string key = directory;
        if (canonical.ok()) {
          key = canonical->directory;
          while (!key.empty() && key.back() == '/') key.pop_back();
        }
        replace = written_dirs.count(key) > 0;
      }
      if (replace) replaced.push_back(file);
    }
    return replaced;
  }

  std::shared_ptr<const WritePlan> plan_;
};

class FilesWrite : public Write {
 public:
  explicit FilesWrite(std::shared_ptr<const WritePlan> plan) : plan_(std::move(plan)) {}

  std::string description() const override {
    std::string mode = ModeName(plan_->mode);
    if (plan_->mode == WriteMode::kOverwriteByFilter) {
      mode += " where " + plan_->overwrite_description;
    }
    return "FilesWrite " + plan_->table->name + " (" + mode + ")";
  }

  Result<std::shared_ptr<BatchWrite>> ToBatch() override {
    return std::make_shared<FilesBatchWrite>(plan_);
  }

  std::vector<std::shared_ptr<CustomMetric>> SupportedCustomMetrics() const override {
    return WriteMetrics();
  }

 private:
  std::shared_ptr<const WritePlan> plan_;
};

class FilesWriteBuilder : public WriteBuilder,
                          public SupportsOverwriteV2,
                          public SupportsDynamicOverwrite {
 public:
  explicit FilesWriteBuilder(std::shared_ptr<WritePlan> plan) : plan_(std::move(plan)) {}

  bool CanOverwrite(const std::vector<PredicatePtr>& predicates) const override {
    return PartitionFilter(predicates, *plan_->table->partition_schema).has_value();
  }

  Status Overwrite(std::vector<PredicatePtr> predicates) override {
    auto filter = PartitionFilter(predicates, *plan_->table->partition_schema);
    std::string shown;
    for (const auto& predicate : predicates) {
      shown += (shown.empty() ? "" : " AND ") + predicate->ToString();
    }
    if (!filter) {
      return InvalidError("UNSUPPORTED_OVERWRITE.TABLE",
                          "Table " + plan_->table->name + " cannot overwrite the rows where " +
                              shown +
                              ": only predicates on its partition columns can be "
                              "overwritten.");
    }
    plan_->mode = WriteMode::kOverwriteByFilter;
    plan_->overwrite_filter = *std::move(filter);
    plan_->overwrite_description = shown;
    return Status::OK();
  }

  Status OverwriteDynamicPartitions() override {
    plan_->mode = WriteMode::kDynamicOverwrite;
    return Status::OK();
  }

  Result<std::shared_ptr<Write>> Build() override { return std::make_shared<FilesWrite>(plan_); }

 private:
  std::shared_ptr<WritePlan> plan_;
};

// Query ids name directories and files: letters, digits, '-' and '_', not starting with '_'.
bool IsUsableQueryId(const std::string& query_id) {
  if (query_id.empty() || query_id.front() == '_') return false;
  for (char c : query_id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  }
  return true;
}

}  // namespace

Result<std::unique_ptr<WriteBuilder>> MakeFilesWriteBuilder(std::shared_ptr<const TableData> table,
                                                            const LogicalWriteInfo& info) {
  if (table->root_dir.empty()) {
    return InvalidError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                        "Table " + table->name + " does not support writes: its path is a " +
                            "file or a glob, not a directory.");
  }
  if (!IsUsableQueryId(info.query_id)) {
    return InvalidError("INTERNAL_ERROR", "The files connector cannot stage the write '" +
                                              info.query_id + "' to " + table->name +
                                              ": a query id must be letters, digits, '-' and "
                                              "'_', not starting with '_'.");
  }
  ARROW_RETURN_NOT_OK(CheckWriteSchema(table->name, *table->schema, *info.schema));
  auto plan = std::make_shared<WritePlan>();
  plan->table = std::move(table);
  plan->info = info;
  plan->start = std::chrono::system_clock::now();
  return std::make_unique<FilesWriteBuilder>(std::move(plan));
}

Result<bool> TruncateFilesTable(const TableData& table) {
  if (table.root_dir.empty()) {
    return InvalidError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                        "Table " + table.name + " does not support TRUNCATE TABLE: its path is " +
                            "a file or a glob, not a directory.");
  }
  auto& filesystem = *table.filesystem;
  ARROW_RETURN_NOT_OK(RecoverPendingCommits(filesystem, table.root_dir));
  CommitManifest manifest;
  std::random_device random;
  manifest.query_id = "truncate-" + std::to_string(random()) + std::to_string(random());
  ARROW_ASSIGN_OR_RAISE(manifest.deletes, ListDataFiles(filesystem, table.root_dir));
  if (manifest.deletes.empty()) return true;
  ARROW_RETURN_NOT_OK(PublishCommit(filesystem, table.root_dir, manifest));
  return true;
}

}  // namespace parley::files
