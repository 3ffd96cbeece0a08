// Change reads: options, catalog capability, the changelog's checks, and the pass stages.
#include "analysis/changes_binder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

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

namespace {

// The scan of a changelog's table; its columns qualified by the table's name.
BoundRelation ScanOf(const ResolvedName& resolved, std::shared_ptr<Table> table) {
  auto scan = std::make_shared<PlanNode>();
  scan->kind = PlanNode::Kind::kScan;
  scan->table_name = resolved;
  scan->table = std::move(table);
  std::vector<std::string> qualifier = {resolved.catalog->name()};
  for (const auto& part : resolved.ident.namespace_path) qualifier.push_back(part);
  qualifier.push_back(resolved.ident.name);
  BoundRelation relation{scan, {}};
  for (const auto& column : scan->table->columns()) {
    scan->output.push_back({column.name, column.name, column.type, column.nullable});
    relation.scope.push_back({qualifier, column.name, column.name, column.type});
  }
  return relation;
}

// A changelog's raw rows, with no post-processing (`table_changes`): its row identity is never
// asked for. The three metadata columns must be there.
class RawChangelogTable : public Table, public SupportsRead {
 public:
  static Result<std::shared_ptr<Table>> Make(std::shared_ptr<Changelog> changelog,
                                             ChangeRequest request) {
    auto columns = changelog->columns();
    for (const char* name : {kChangeTypeColumn, kCommitVersionColumn, kCommitTimestampColumn}) {
      bool found = std::any_of(columns.begin(), columns.end(),
                               [&](const Column& column) { return column.name == name; });
      if (!found) {
        return MakeErrorWithParameters(arrow::StatusCode::Invalid,
                                       "INVALID_CHANGELOG_SCHEMA.MISSING_COLUMN",
                                       {{"changelogName", changelog->name()}, {"columnName", name}},
                                       fmt::format("The changelog {} has no column {}.",
                                                   changelog->name(), QuoteIdentifier(name)));
      }
    }
    return std::shared_ptr<Table>(
        new RawChangelogTable(std::move(changelog), std::move(request), std::move(columns)));
  }

  std::string name() const override { return changelog_->name(); }
  std::vector<Column> columns() const override { return columns_; }
  std::set<TableCapability> capabilities() const override { return {TableCapability::kBatchRead}; }
  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options& options) override {
    Options merged = request_.scan_options;
    for (const auto& [key, value] : options) merged[key] = value;
    return changelog_->NewScanBuilder(merged);
  }

 private:
  RawChangelogTable(std::shared_ptr<Changelog> changelog, ChangeRequest request,
                    std::vector<Column> columns)
      : changelog_(std::move(changelog)),
        request_(std::move(request)),
        columns_(std::move(columns)) {}

  std::shared_ptr<Changelog> changelog_;
  ChangeRequest request_;
  std::vector<Column> columns_;
};

Result<BoundRelation> Bind(const sql::QualifiedName& name, const Options& options,
                           SourcePosition pos, CatalogManager* catalogs, bool raw) {
  auto request = ParseChangeOptions(options);
  if (!request.ok()) return AtPosition(request.status(), pos);
  if (catalogs->PathProvider(name.parts) != nullptr) return OnRelation(name);
  ARROW_ASSIGN_OR_RAISE(ResolvedName resolved, ResolveNameForRead(name, catalogs));
  ARROW_ASSIGN_OR_RAISE(auto* tables, AsTableCatalog(resolved.catalog.get(), name.pos));
  if (tables->capabilities().count(TableCatalogCapability::kSupportChangelog) == 0) {
    return NoChangeDataCapture(*resolved.catalog, name.pos);
  }
  request->info.table_changes = raw;
  auto changelog = tables->LoadChangelog(resolved.ident, request->info);
  if (!changelog.ok()) {
    std::string condition = ErrorCondition(changelog.status());
    if (condition == "TABLE_OR_VIEW_NOT_FOUND" || condition == "SCHEMA_NOT_FOUND") {
      return TableNotFound(name);
    }
    return AtPosition(changelog.status(), pos);
  }
  if (raw) {
    auto table = RawChangelogTable::Make(std::move(changelog).ValueUnsafe(), std::move(*request));
    if (!table.ok()) return AtPosition(table.status(), pos);
    return ScanOf(resolved, *table);
  }
  auto table = ChangelogTable::Make(std::move(changelog).ValueUnsafe(), std::move(*request));
  if (!table.ok()) return AtPosition(table.status(), pos);
  auto post = std::make_shared<const ChangelogPostProcessing>((*table)->post_processing());
  BoundRelation relation = ScanOf(resolved, *table);
  relation.plan->changelog = post;
  if (post->row_level()) relation.plan = Stage(relation.plan, post, ChangelogStage::kRowLevel);
  if (post->net_changes) relation.plan = Stage(relation.plan, post, ChangelogStage::kNetChanges);
  return relation;
}

}  // namespace

Result<BoundRelation> BindChanges(const sql::QualifiedName& name, const Options& options,
                                  SourcePosition pos, CatalogManager* catalogs) {
  return Bind(name, options, pos, catalogs, /*raw=*/false);
}

Result<BoundRelation> BindTableChanges(const std::vector<std::unique_ptr<sql::Expr>>& arguments,
                                       SourcePosition pos, CatalogManager* catalogs) {
  auto invalid = [&](const std::string& detail) {
    return AtPosition(
        InvalidError("INVALID_SQL_ARGUMENT", "table_changes(table, start[, end]): " + detail + "."),
        pos);
  };
  if (arguments.size() < 2 || arguments.size() > 3) {
    return invalid("expects 2 or 3 arguments, got " + std::to_string(arguments.size()));
  }
  const sql::Expr& table = *arguments[0];
  if (table.kind != sql::ExprKind::kLiteral || table.literal_kind != sql::LiteralKind::kString) {
    return invalid("the table must be a string literal");
  }
  sql::QualifiedName name;
  name.pos = table.pos;
  // Dot-separated parts; a part in backquotes (delta.`/path`) may hold dots.
  std::string part;
  bool quoted = false;
  for (size_t i = 0; i <= table.text.size(); ++i) {
    char c = i < table.text.size() ? table.text[i] : '.';
    if (c == '`') {
      quoted = !quoted;
    } else if (c == '.' && !quoted) {
      if (part.empty()) return invalid("the table name '" + table.text + "' is not a name");
      name.parts.push_back(std::move(part));
      part.clear();
    } else {
      part.push_back(c);
    }
  }
  if (quoted) return invalid("the table name '" + table.text + "' is not a name");
  Options options = {{"deduplicationMode", "none"}};
  const char* bounds[][2] = {{"startingVersion", "startingTimestamp"},
                             {"endingVersion", "endingTimestamp"}};
  for (size_t i = 1; i < arguments.size(); ++i) {
    const sql::Expr& bound = *arguments[i];
    bool version =
        bound.kind == sql::ExprKind::kLiteral && bound.literal_kind == sql::LiteralKind::kInteger;
    bool timestamp = bound.kind == sql::ExprKind::kLiteral &&
                     (bound.literal_kind == sql::LiteralKind::kString ||
                      bound.literal_kind == sql::LiteralKind::kTimestamp);
    if (!version && !timestamp) {
      return invalid(std::string(i == 1 ? "the start" : "the end") +
                     " must be a version (an integer) or a timestamp (a string)");
    }
    std::string text = bound.text;
    if (version && !text.empty() && std::isalpha(static_cast<unsigned char>(text.back()))) {
      text.pop_back();  // 1L
    }
    options[bounds[i - 1][version ? 0 : 1]] = text;
  }
  return Bind(name, options, pos, catalogs, /*raw=*/true);
}

}  // namespace parley
