// MemoryChangelog: range filtering of test-supplied change rows, and a scan builder that applies
// simple predicates and delegates pruning and partitioning to a MemoryTable snapshot.
#include "memory_changelog.h"

#include <charconv>
#include <map>

#include "arrow/compute/api.h"
#include "arrow/compute/expression.h"
#include "arrow/compute/initialize.h"
#include "arrow/scalar.h"
#include "arrow/table.h"
#include "arrow/type.h"
#include "memory_scan_internal.h"
#include "memory_table.h"

namespace parley::memory {
namespace {

namespace cp = arrow::compute;

// The rows of `table` for which `condition` is true, batch by batch (empty batches dropped).
Result<std::shared_ptr<arrow::Table>> FilterRows(const std::shared_ptr<arrow::Table>& table,
                                                 const cp::Expression& condition) {
  ARROW_ASSIGN_OR_RAISE(auto bound, condition.Bind(*table->schema()));
  arrow::TableBatchReader reader(*table);
  std::vector<std::shared_ptr<arrow::RecordBatch>> kept;
  while (true) {
    std::shared_ptr<arrow::RecordBatch> batch;
    ARROW_RETURN_NOT_OK(reader.ReadNext(&batch));
    if (batch == nullptr) break;
    ARROW_ASSIGN_OR_RAISE(auto mask, cp::ExecuteScalarExpression(bound, *table->schema(), batch));
    ARROW_ASSIGN_OR_RAISE(auto filtered, cp::Filter(batch, mask));
    if (filtered.record_batch()->num_rows() > 0) kept.push_back(filtered.record_batch());
  }
  return arrow::Table::FromRecordBatches(table->schema(), std::move(kept));
}

// The Arrow expression of a predicate the scan accepts, or nullopt.
std::optional<cp::Expression> AcceptedExpression(const Predicate& predicate) {
  static const std::map<std::string, std::string> kComparisons = {
      {"=", "equal"},       {"<>", "not_equal"}, {"<", "less"},
      {"<=", "less_equal"}, {">", "greater"},    {">=", "greater_equal"}};
  auto children = predicate.children();
  const std::string* column = children.empty() ? nullptr : AsColumnName(*children[0]);
  if (column == nullptr) return std::nullopt;
  cp::Expression field = cp::field_ref(*column);
  if (children.size() == 1) {
    if (predicate.name() == "IS_NULL") return cp::is_null(field);
    if (predicate.name() == "IS_NOT_NULL") return cp::is_valid(field);
    return std::nullopt;
  }
  auto* literal = children.size() == 2 ? dynamic_cast<const Literal*>(children[1].get()) : nullptr;
  if (literal == nullptr) return std::nullopt;
  cp::Expression value = cp::literal(literal->value());
  if (predicate.name() == "<=>") {
    if (!literal->value()->is_valid) return cp::is_null(field);
    return cp::and_(cp::is_valid(field), cp::equal(field, value));
  }
  auto it = kComparisons.find(predicate.name());
  if (it == kComparisons.end() || !literal->value()->is_valid) return std::nullopt;
  return cp::call(it->second, {field, value});
}

// The bound value of a version range for the `_commit_version` column's type.
Result<std::shared_ptr<arrow::Scalar>> VersionBound(const std::string& bound,
                                                    const arrow::DataType& type) {
  if (type.id() != arrow::Type::INT64) return std::make_shared<arrow::StringScalar>(bound);
  int64_t value = 0;
  auto [end, ec] = std::from_chars(bound.data(), bound.data() + bound.size(), value);
  if (ec != std::errc() || end != bound.data() + bound.size()) {
    return MakeErrorWithParameters(
        arrow::StatusCode::Invalid, "INVALID_OPTION_VALUE", {{"value", bound}},
        "The change read bound '" + bound + "' is not a whole number version.");
  }
  return std::make_shared<arrow::Int64Scalar>(value);
}

// The condition of `range` over the rows, or nullopt for an unbounded range.
Result<std::optional<cp::Expression>> RangeCondition(const ChangelogRange& range,
                                                     const arrow::Schema& schema) {
  std::shared_ptr<arrow::Scalar> start;
  std::shared_ptr<arrow::Scalar> end;
  std::string column;
  switch (range.kind) {
    case ChangelogRange::Kind::kUnbounded: return std::nullopt;
    case ChangelogRange::Kind::kVersion: {
      column = kCommitVersionColumn;
      auto field = schema.GetFieldByName(column);
      if (field == nullptr) return Status::Invalid("the change rows have no _commit_version");
      ARROW_ASSIGN_OR_RAISE(start, VersionBound(range.starting_version, *field->type()));
      if (range.ending_version) {
        ARROW_ASSIGN_OR_RAISE(end, VersionBound(*range.ending_version, *field->type()));
      }
      break;
    }
    case ChangelogRange::Kind::kTimestamp: {
      column = kCommitTimestampColumn;
      auto type = arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
      start = std::make_shared<arrow::TimestampScalar>(range.starting_timestamp, type);
      if (range.ending_timestamp) {
        end = std::make_shared<arrow::TimestampScalar>(*range.ending_timestamp, type);
      }
      break;
    }
  }
  cp::Expression field = cp::field_ref(column);
  cp::Expression condition = cp::call(range.starting_bound_inclusive ? "greater_equal" : "greater",
                                      {field, cp::literal(start)});
  if (end != nullptr) {
    condition = cp::and_(condition, cp::call(range.ending_bound_inclusive ? "less_equal" : "less",
                                             {field, cp::literal(end)}));
  }
  return condition;
}

class MemoryChangelogScanBuilder : public ScanBuilder,
                                   public SupportsPushDownV2Filters,
                                   public SupportsPushDownRequiredColumns {
 public:
  MemoryChangelogScanBuilder(std::string name, std::shared_ptr<arrow::Table> rows,
                             ChangelogRange range)
      : name_(std::move(name)), rows_(std::move(rows)), range_(std::move(range)) {}

  Result<std::vector<PredicatePtr>> PushPredicates(std::vector<PredicatePtr> predicates) override {
    std::vector<PredicatePtr> residual;
    for (auto& predicate : predicates) {
      auto expression = AcceptedExpression(*predicate);
      if (expression && expression->Bind(*rows_->schema()).ok()) {
        accepted_.push_back(predicate);
        filters_.push_back(std::move(*expression));
      } else {
        residual.push_back(predicate);
      }
    }
    return residual;
  }

  std::vector<PredicatePtr> PushedPredicates() const override { return accepted_; }

  Status PruneColumns(const std::shared_ptr<arrow::Schema>& required_schema) override {
    required_ = required_schema;
    return Status::OK();
  }

  // The rows of the range that pass the accepted predicates, frozen into a MemoryTable whose
  // scan does the pruning and partitioning.
  Result<std::shared_ptr<Scan>> Build() override {
    std::vector<cp::Expression> conditions = filters_;
    ARROW_ASSIGN_OR_RAISE(auto range, RangeCondition(range_, *rows_->schema()));
    if (range) conditions.push_back(std::move(*range));
    std::shared_ptr<arrow::Table> rows = rows_;
    if (!conditions.empty()) {
      ARROW_ASSIGN_OR_RAISE(rows, FilterRows(rows, cp::and_(conditions)));
    }
    TableInfo info;
    info.columns = SchemaToColumns(*rows_->schema());
    auto snapshot = std::make_shared<MemoryTable>(name_, std::move(info));
    ARROW_RETURN_NOT_OK(snapshot->AppendData(rows));
    auto builder = MakeMemoryScanBuilder(snapshot);
    if (required_ != nullptr) {
      ARROW_RETURN_NOT_OK(
          dynamic_cast<SupportsPushDownRequiredColumns&>(*builder).PruneColumns(required_));
    }
    return builder->Build();
  }

 private:
  std::string name_;
  std::shared_ptr<arrow::Table> rows_;
  ChangelogRange range_;
  std::vector<PredicatePtr> accepted_;
  std::vector<cp::Expression> filters_;
  std::shared_ptr<arrow::Schema> required_;
};

class MemoryChangelog : public Changelog {
 public:
  MemoryChangelog(std::string name, MemoryChangelogData data, ChangelogRange range)
      : name_(std::move(name)), data_(std::move(data)), range_(std::move(range)) {}

  std::string name() const override { return name_; }
  std::vector<Column> columns() const override { return SchemaToColumns(*data_.rows->schema()); }
  bool ContainsCarryoverRows() const override { return data_.contains_carryover_rows; }
  bool ContainsIntermediateChanges() const override { return data_.contains_intermediate_changes; }
  bool RepresentsUpdateAsDeleteAndInsert() const override {
    return data_.represents_update_as_delete_and_insert;
  }
  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options&) override {
    return std::make_unique<MemoryChangelogScanBuilder>(name_, data_.rows, range_);
  }
  Result<std::vector<std::shared_ptr<NamedReference>>> RowId() const override {
    std::vector<std::shared_ptr<NamedReference>> references;
    for (const auto& path : data_.row_id) {
      references.push_back(std::make_shared<NamedReference>(path));
    }
    return references;
  }
  Result<std::shared_ptr<NamedReference>> RowVersion() const override {
    if (!data_.row_version) return Changelog::RowVersion();
    return std::make_shared<NamedReference>(*data_.row_version);
  }

 private:
  std::string name_;
  MemoryChangelogData data_;
  ChangelogRange range_;
};

std::vector<std::string> SplitPath(const std::string& dotted) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t dot = dotted.find('.', start);
    parts.push_back(dotted.substr(start, dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

std::string Trim(const std::string& text) {
  size_t begin = text.find_first_not_of(' ');
  if (begin == std::string::npos) return {};
  return text.substr(begin, text.find_last_not_of(' ') - begin + 1);
}

}  // namespace

std::optional<MemoryChangelogData> ChangelogFromProperties(
    const std::map<std::string, std::string>& properties, std::shared_ptr<arrow::Table> rows) {
  auto property = [&](const std::string& key) -> std::optional<std::string> {
    auto it = properties.find("parley.changelog" + key);
    if (it == properties.end()) return std::nullopt;
    return it->second;
  };
  auto flag = [&](const char* key) { return property(key).value_or("false") == "true"; };
  if (!flag("")) return std::nullopt;
  MemoryChangelogData data;
  data.rows = std::move(rows);
  data.contains_carryover_rows = flag(".containsCarryoverRows");
  data.contains_intermediate_changes = flag(".containsIntermediateChanges");
  data.represents_update_as_delete_and_insert = flag(".representsUpdateAsDeleteAndInsert");
  if (auto row_id = property(".rowId")) {
    size_t start = 0;
    while (start <= row_id->size()) {
      size_t comma = row_id->find(',', start);
      std::string column = Trim(row_id->substr(start, comma - start));
      if (!column.empty()) data.row_id.push_back(SplitPath(column));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  if (auto row_version = property(".rowVersion")) data.row_version = SplitPath(Trim(*row_version));
  return data;
}

Result<std::shared_ptr<Changelog>> MakeMemoryChangelog(std::string name,
                                                       const MemoryChangelogData& data,
                                                       const ChangelogInfo& info) {
  // Scans filter while the engine plans, before it has needed Arrow's compute kernels.
  static const Status kernels = cp::Initialize();
  ARROW_RETURN_NOT_OK(kernels);
  return std::make_shared<MemoryChangelog>(std::move(name), data, info.range);
}

}  // namespace parley::memory
