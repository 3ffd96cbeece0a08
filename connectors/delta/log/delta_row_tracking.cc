// Row tracking on write (§7 of the protocol digest): which tables assign row ids, the
// `delta.rowTracking` high-water mark domain, fresh baseRowId / defaultRowCommitVersion for new
// files, the names of the materialized row id and row commit version columns, and the writers
// that materialize them when a copy-on-write rewrite preserves rows.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <string>

#include "arrow/array.h"
#include "arrow/builder.h"
#include "arrow/record_batch.h"
#include "connectors/delta/log/row_tracking.h"
#include "connectors/delta/log/values.h"
#include "connectors/delta/util.h"
#include "parley/connector/row_level.h"

namespace parley::delta {
namespace {

// Rows of a rewrite (table columns, _metadata, action) as the inner writer takes them (table
// columns, materialized row id, materialized row commit version).
Result<std::shared_ptr<arrow::RecordBatch>> MaterializeRowTracking(const arrow::RecordBatch& batch,
                                                                   int columns) {
  if (batch.num_columns() != columns + 2) {
    return InvalidError("DELTA_ROW_TRACKING_INVALID_REWRITE_ROWS",
                        "A row-tracking rewrite got rows of " +
                            std::to_string(batch.num_columns()) + " columns, not the table's " +
                            std::to_string(columns) + " with _metadata and " +
                            kRowLevelWriteActionColumn + ".");
  }
  const auto& metadata = static_cast<const arrow::StructArray&>(*batch.column(columns));
  const auto& actions = static_cast<const arrow::Int32Array&>(*batch.column(columns + 1));
  ARROW_ASSIGN_OR_RAISE(
      auto ids, metadata.GetFlattenedField(metadata.struct_type()->GetFieldIndex("row_id")));
  ARROW_ASSIGN_OR_RAISE(
      auto versions,
      metadata.GetFlattenedField(metadata.struct_type()->GetFieldIndex("row_commit_version")));
  const auto& version_values = static_cast<const arrow::Int64Array&>(*versions);
  arrow::Int64Builder kept;
  ARROW_RETURN_NOT_OK(kept.Reserve(batch.num_rows()));
  for (int64_t i = 0; i < batch.num_rows(); ++i) {
    if (actions.Value(i) == static_cast<int32_t>(RowLevelWriteAction::kCopy) &&
        version_values.IsValid(i)) {
      kept.UnsafeAppend(version_values.Value(i));
    } else {
      kept.UnsafeAppendNull();
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto kept_versions, kept.Finish());
  arrow::ArrayVector arrays(batch.columns().begin(), batch.columns().begin() + columns);
  arrow::FieldVector fields(batch.schema()->fields().begin(),
                            batch.schema()->fields().begin() + columns);
  arrays.push_back(ids);
  fields.push_back(arrow::field("row_id", arrow::int64()));
  arrays.push_back(kept_versions);
  fields.push_back(arrow::field("row_commit_version", arrow::int64()));
  return arrow::RecordBatch::Make(arrow::schema(std::move(fields)), batch.num_rows(),
                                  std::move(arrays));
}

class RowPreservingWriter : public DataWriter {
 public:
  RowPreservingWriter(std::unique_ptr<DataWriter> inner, int columns)
      : inner_(std::move(inner)), columns_(columns) {}
  Status Write(const arrow::RecordBatch& batch) override {
    ARROW_ASSIGN_OR_RAISE(auto rows, MaterializeRowTracking(batch, columns_));
    return inner_->Write(*rows);
  }
  Result<CommitMessagePtr> Commit() override { return inner_->Commit(); }
  Status Abort() override { return inner_->Abort(); }
  Status Close() override { return inner_->Close(); }
  std::vector<CustomTaskMetric> CurrentMetricsValues() const override {
    return inner_->CurrentMetricsValues();
  }

 private:
  std::unique_ptr<DataWriter> inner_;
  int columns_;
};

class RowPreservingWriterFactory : public DataWriterFactory {
 public:
  RowPreservingWriterFactory(std::shared_ptr<DataWriterFactory> inner, int columns)
      : inner_(std::move(inner)), columns_(columns) {}
  Result<std::unique_ptr<DataWriter>> CreateWriter(int partition_id, int64_t task_id) override {
    ARROW_ASSIGN_OR_RAISE(auto writer, inner_->CreateWriter(partition_id, task_id));
    return std::make_unique<RowPreservingWriter>(std::move(writer), columns_);
  }
  Result<std::string> Serialize() const override { return inner_->Serialize(); }

 private:
  std::shared_ptr<DataWriterFactory> inner_;
  int columns_;
};

}  // namespace

std::shared_ptr<DataWriterFactory> MakeRowPreservingWriterFactory(
    std::shared_ptr<DataWriterFactory> inner, int columns) {
  return std::make_shared<RowPreservingWriterFactory>(std::move(inner), columns);
}

bool RowTrackingSupported(const Protocol& protocol, const Metadata& metadata) {
  if (!protocol.writer_features) return false;
  const auto& features = *protocol.writer_features;
  return std::find(features.begin(), features.end(), kRowTrackingFeature) != features.end() &&
         !ConfigurationIsTrue(metadata.configuration, "delta.rowTrackingSuspended");
}

bool RowTrackingEnabled(const Metadata& metadata) {
  return ConfigurationIsTrue(metadata.configuration, kEnableRowTracking);
}

Result<int64_t> RowIdHighWaterMark(const std::map<std::string, DomainMetadata>& domains) {
  auto it = domains.find(kRowTrackingDomain);
  if (it == domains.end()) return -1;
  return ParseHighWaterMark(it->second);
}

Result<int64_t> ParseHighWaterMark(const DomainMetadata& domain) {
  auto parsed = nlohmann::json::parse(domain.configuration, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object() || !parsed.contains("rowIdHighWaterMark") ||
      !parsed["rowIdHighWaterMark"].is_number_integer()) {
    return InvalidError("DELTA_ROW_ID_HIGH_WATER_MARK_INVALID",
                        "The domain " + std::string(kRowTrackingDomain) +
                            " has no integer rowIdHighWaterMark: '" + domain.configuration + "'.");
  }
  return parsed["rowIdHighWaterMark"].get<int64_t>();
}

DomainMetadata HighWaterMarkDomain(int64_t high_water_mark) {
  return {kRowTrackingDomain, nlohmann::json{{"rowIdHighWaterMark", high_water_mark}}.dump(),
          false};
}

Result<std::optional<int64_t>> ReadHighWaterMarkFor(const Protocol& protocol,
                                                    const Metadata& metadata,
                                                    const Snapshot* snapshot) {
  if (!RowTrackingSupported(protocol, metadata)) return std::nullopt;
  if (snapshot == nullptr) return -1;
  ARROW_ASSIGN_OR_RAISE(int64_t mark, RowIdHighWaterMark(snapshot->domains));
  return mark;
}

void NameMaterializedColumns(Metadata* metadata) {
  if (!RowTrackingEnabled(*metadata)) return;
  auto& configuration = metadata->configuration;
  if (!configuration.contains(kMaterializedRowIdColumn)) {
    configuration[kMaterializedRowIdColumn] = "_row-id-col-" + RandomUuid();
  }
  if (!configuration.contains(kMaterializedRowCommitVersionColumn)) {
    configuration[kMaterializedRowCommitVersionColumn] = "_row-commit-version-col-" + RandomUuid();
  }
}

Status AssignFreshRowIds(std::vector<FileAction>* adds, const std::vector<size_t>& fresh,
                         int64_t* high_water_mark, int64_t version) {
  for (size_t index : fresh) {
    FileAction& add = (*adds)[index];
    auto records = ParseStatistics(add.stats, {}).num_records;
    if (!records) {
      return InvalidError("DELTA_ROW_TRACKING_MISSING_NUM_RECORDS",
                          "Cannot assign row ids to " + PercentDecode(add.path) +
                              ": its statistics have no numRecords.");
    }
    add.base_row_id = *high_water_mark + 1;
    add.default_row_commit_version = version;
    *high_water_mark += std::max<int64_t>(*records, 0);
  }
  return Status::OK();
}

}  // namespace parley::delta
