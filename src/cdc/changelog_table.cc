// ChangelogTable: the analysis-time checks of a changelog and the choice of its passes.
#include "cdc/changelog_table.h"

#include <fmt/format.h>

#include "arrow/type.h"
#include "plan/bound_expression.h"

namespace parley {
namespace {

Status SchemaError(std::string_view subclass, std::map<std::string, std::string> parameters,
                   std::string_view message) {
  return MakeErrorWithParameters(arrow::StatusCode::Invalid,
                                 fmt::format("INVALID_CHANGELOG_SCHEMA.{}", subclass),
                                 std::move(parameters), message);
}

// A metadata column must exist and have one of the `allowed` SQL types.
Status CheckMetadataColumn(const std::string& changelog, const std::vector<Column>& columns,
                           const char* column, const std::vector<std::string>& allowed) {
  const Column* found = nullptr;
  for (const auto& c : columns) {
    if (c.name == column) found = &c;
  }
  if (found == nullptr) {
    return SchemaError(
        "MISSING_COLUMN", {{"changelogName", changelog}, {"columnName", column}},
        fmt::format("The changelog {} has no column {}.", changelog, QuoteIdentifier(column)));
  }
  std::string actual = SqlTypeName(*found->type);
  for (const auto& type : allowed) {
    if (actual == type) return Status::OK();
  }
  std::string expected = fmt::format("{}", fmt::join(allowed, " or "));
  return SchemaError("INVALID_COLUMN_TYPE",
                     {{"changelogName", changelog},
                      {"columnName", column},
                      {"expectedType", expected},
                      {"actualType", actual}},
                     fmt::format("The column {} of changelog {} has type {}; expected {}.",
                                 QuoteIdentifier(column), changelog, actual, expected));
}

}  // namespace

Result<std::shared_ptr<ChangelogTable>> ChangelogTable::Make(std::shared_ptr<Changelog> changelog,
                                                             ChangeRequest request) {
  const std::string name = changelog->name();
  std::vector<Column> columns = changelog->columns();
  ARROW_RETURN_NOT_OK(CheckMetadataColumn(name, columns, kChangeTypeColumn, {"STRING"}));
  ARROW_RETURN_NOT_OK(
      CheckMetadataColumn(name, columns, kCommitVersionColumn, {"BIGINT", "STRING"}));
  ARROW_RETURN_NOT_OK(CheckMetadataColumn(name, columns, kCommitTimestampColumn, {"TIMESTAMP"}));

  ChangelogPostProcessing post;
  post.changelog_name = name;
  post.info = request.info;
  post.contains_carryover_rows = changelog->ContainsCarryoverRows();
  post.contains_intermediate_changes = changelog->ContainsIntermediateChanges();
  post.represents_update_as_delete_and_insert = changelog->RepresentsUpdateAsDeleteAndInsert();
  const bool co = post.contains_carryover_rows;
  const bool ud = post.represents_update_as_delete_and_insert;
  if (co || post.contains_intermediate_changes || ud) {
    ARROW_ASSIGN_OR_RAISE(auto row_id, changelog->RowId());
    for (const auto& reference : row_id) {
      if (reference != nullptr && !reference->field_names().empty()) {
        post.row_id.push_back(reference->field_names());
      }
    }
    if (post.row_id.empty()) {
      return SchemaError("MISSING_ROW_ID", {{"changelogName", name}},
                         fmt::format("The changelog {} declares carry-overs, intermediate "
                                     "changes or updates as delete and insert, but its rowId() "
                                     "names no column.",
                                     name));
    }
  }
  if (co || ud) {
    ARROW_ASSIGN_OR_RAISE(auto row_version, changelog->RowVersion());
    if (row_version != nullptr) post.row_version = row_version->field_names();
  }
  const DeduplicationMode mode = request.info.deduplication_mode;
  const bool cu = request.info.compute_updates;
  if (cu && ud && co && mode == DeduplicationMode::kNone) {
    return MakeErrorWithParameters(
        arrow::StatusCode::Invalid,
        "INVALID_CDC_OPTION.UPDATE_DETECTION_REQUIRES_CARRY_OVER_REMOVAL",
        {{"changelogName", name}},
        fmt::format("computeUpdates needs carry-over removal on changelog {}, whose rows may hold "
                    "copy-on-write carry-overs: use deduplicationMode dropCarryovers or "
                    "netChanges.",
                    name));
  }
  post.carryover_removal = mode != DeduplicationMode::kNone && co;
  post.update_detection = cu && ud;
  post.net_changes = mode == DeduplicationMode::kNetChanges && post.contains_intermediate_changes;
  if (post.carryover_removal && post.row_version.empty()) {
    return MakeError(arrow::StatusCode::Invalid, "CONNECTOR_CONTRACT_VIOLATION.MISSING_ROW_VERSION",
                     fmt::format("The changelog {} may hold carry-overs but its rowVersion() "
                                 "names no column.",
                                 name));
  }
  return std::shared_ptr<ChangelogTable>(new ChangelogTable(
      std::move(changelog), std::move(request), std::move(columns), std::move(post)));
}

ChangelogTable::ChangelogTable(std::shared_ptr<Changelog> changelog, ChangeRequest request,
                               std::vector<Column> columns, ChangelogPostProcessing post_processing)
    : changelog_(std::move(changelog)),
      request_(std::move(request)),
      columns_(std::move(columns)),
      post_processing_(std::move(post_processing)) {}

std::set<TableCapability> ChangelogTable::capabilities() const {
  return {TableCapability::kBatchRead, TableCapability::kMicroBatchRead};
}

Result<std::unique_ptr<ScanBuilder>> ChangelogTable::NewScanBuilder(const Options& options) {
  Options merged = request_.scan_options;
  for (const auto& [key, value] : options) merged[key] = value;
  return changelog_->NewScanBuilder(merged);
}

}  // namespace parley
