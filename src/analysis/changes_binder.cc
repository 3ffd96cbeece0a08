// Change reads: options, catalog capability, the changelog's checks, and the pass stages.
#include "analysis/changes_binder.h"

#include <fmt/format.h>

#include "analysis/analysis_error.h"
#include "analysis/query_binder.h"
#include "cdc/change_options.h"
#include "cdc/changelog_table.h"

namespace parley {
namespace {

// `status` with the statement position added to its message; condition and parameters kept.
Status AtPosition(const Status& status, SourcePosition pos) {
  if (status.ok()) return status;
  return Status(status.code(),
                fmt::format("{} (line {}, column {})", status.message(), pos.line, pos.column),
                status.detail());
}

std::string QuotedName(const sql::QualifiedName& name) {
  std::vector<std::string> parts;
  for (const auto& part : name.parts) parts.push_back(QuoteIdentifier(part));
  return fmt::format("{}", fmt::join(parts, "."));
}

Status OnRelation(const sql::QualifiedName& name) {
  return AtPosition(
      MakeErrorWithParameters(
          arrow::StatusCode::Invalid, "UNSUPPORTED_FEATURE.CHANGE_DATA_CAPTURE_ON_RELATION",
          {{"relationId", QuotedName(name)}},
          fmt::format("The feature is not supported: change data capture on the relation {}, "
                      "which is not a catalog table.",
                      QuotedName(name))),
      name.pos);
}

Status NoChangeDataCapture(const CatalogPlugin& catalog, SourcePosition pos) {
  return AtPosition(
      MakeErrorWithParameters(
          arrow::StatusCode::Invalid, "UNSUPPORTED_FEATURE.CHANGE_DATA_CAPTURE",
          {{"catalogName", catalog.name()}},
          fmt::format("The feature is not supported: change data capture in catalog {}, which "
                      "does not declare SUPPORT_CHANGELOG.",
                      QuoteIdentifier(catalog.name()))),
      pos);
}

PlanNodePtr Stage(PlanNodePtr input, std::shared_ptr<const ChangelogPostProcessing> post,
                  ChangelogStage stage) {
  auto node = std::make_shared<PlanNode>();
  node->kind = PlanNode::Kind::kChangelogPass;
  node->output = input->output;
  node->children = {std::move(input)};
  node->changelog = std::move(post);
  node->changelog_stage = stage;
  return node;
}

}  // namespace

Options ChangesClauseOptions(const sql::ChangesClause& clause) {
  Options options;
  for (const auto& [key, value] : clause.options) options[key] = value;
  const bool timestamp = clause.from.timestamp;
  options[timestamp ? "startingTimestamp" : "startingVersion"] = clause.from.value;
  if (clause.from.inclusive) {
    options["startingBoundInclusive"] = *clause.from.inclusive ? "true" : "false";
  }
  if (clause.to) {
    options[clause.to->timestamp ? "endingTimestamp" : "endingVersion"] = clause.to->value;
    if (clause.to->inclusive) {
      options["endingBoundInclusive"] = *clause.to->inclusive ? "true" : "false";
    }
  }
  return options;
}

Result<BoundRelation> BindChanges(const sql::QualifiedName& name, const Options& options,
                                  SourcePosition pos, CatalogManager* catalogs) {
  auto request = ParseChangeOptions(options);
  if (!request.ok()) return AtPosition(request.status(), pos);
  if (catalogs->PathProvider(name.parts) != nullptr) return OnRelation(name);
  ARROW_ASSIGN_OR_RAISE(ResolvedName resolved, ResolveNameForRead(name, catalogs));
  ARROW_ASSIGN_OR_RAISE(auto* tables, AsTableCatalog(resolved.catalog.get(), name.pos));
  if (tables->capabilities().count(TableCatalogCapability::kSupportChangelog) == 0) {
    return NoChangeDataCapture(*resolved.catalog, name.pos);
  }
  auto changelog = tables->LoadChangelog(resolved.ident, request->info);
  if (!changelog.ok()) {
    std::string condition = ErrorCondition(changelog.status());
    if (condition == "TABLE_OR_VIEW_NOT_FOUND" || condition == "SCHEMA_NOT_FOUND") {
      return TableNotFound(name);
    }
    return AtPosition(changelog.status(), pos);
  }
  auto table = ChangelogTable::Make(std::move(changelog).ValueUnsafe(), std::move(*request));
  if (!table.ok()) return AtPosition(table.status(), pos);
  auto post = std::make_shared<const ChangelogPostProcessing>((*table)->post_processing());

  auto scan = std::make_shared<PlanNode>();
  scan->kind = PlanNode::Kind::kScan;
  scan->table_name = resolved;
  scan->table = *table;
  std::vector<std::string> qualifier = {resolved.catalog->name()};
  for (const auto& part : resolved.ident.namespace_path) qualifier.push_back(part);
  qualifier.push_back(resolved.ident.name);
  BoundRelation relation{scan, {}};
  for (const auto& column : scan->table->columns()) {
    scan->output.push_back({column.name, column.name, column.type, column.nullable});
    relation.scope.push_back({qualifier, column.name, column.name, column.type});
  }
  if (post->row_level()) relation.plan = Stage(relation.plan, post, ChangelogStage::kRowLevel);
  if (post->net_changes) relation.plan = Stage(relation.plan, post, ChangelogStage::kNetChanges);
  return relation;
}

}  // namespace parley
