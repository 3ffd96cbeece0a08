// Change Data Feed files (§6 of the protocol digest): the change rows of a commit written under
// `_change_data/` for the commit's `cdc` actions.
#include <cctype>
#include <set>
#include <string>

#include "arrow/array.h"
#include "arrow/record_batch.h"
#include "arrow/type.h"

#include "connectors/delta/table_state.h"
#include "connectors/delta/write/change_data.h"
#include "connectors/delta/write/data_writer.h"
#include "connectors/delta/write/write.h"
#include "parley/connector/changelog.h"

namespace parley::delta {
namespace {

Status InvalidRows(const TableState& table, const std::string& detail) {
  return InvalidError("DELTA_CHANGE_DATA_INVALID_ROWS",
                      "The change rows given for " + table.name + " " + detail + ".");
}

// The rows must be the table's columns (names and types) then `_change_type` with known kinds.
Status CheckChanges(const TableState& table, const arrow::RecordBatch& batch) {
  const auto& schema = *table.schema;
  if (batch.num_columns() != schema.num_fields() + 1) {
    return InvalidRows(table, "have " + std::to_string(batch.num_columns()) +
                                  " columns, not the table's " +
                                  std::to_string(schema.num_fields()) + " and _change_type");
  }
  for (int i = 0; i < schema.num_fields(); ++i) {
    if (!batch.schema()->field(i)->type()->Equals(*schema.field(i)->type())) {
      return InvalidRows(table, "type column " + std::to_string(i + 1) + " as " +
                                    batch.schema()->field(i)->type()->ToString() +
                                    ", not as the table's " + schema.field(i)->ToString());
    }
  }
  auto kinds = batch.column(schema.num_fields());
  if (kinds->type_id() != arrow::Type::STRING) {
    return InvalidRows(table, "have a _change_type column that is not a STRING");
  }
  static const std::set<std::string> kKinds = {kChangeInsert, kChangeDelete, kChangeUpdatePreimage,
                                               kChangeUpdatePostimage};
  const auto& strings = static_cast<const arrow::StringArray&>(*kinds);
  for (int64_t row = 0; row < strings.length(); ++row) {
    if (strings.IsNull(row) || !kKinds.contains(std::string(strings.GetView(row)))) {
      return InvalidRows(table,
                         "have a _change_type that is not insert, delete, "
                         "update_preimage or update_postimage");
    }
  }
  return Status::OK();
}

}  // namespace

bool ChangeDataFeedEnabled(const Metadata& metadata) {
  auto it = metadata.configuration.find("delta.enableChangeDataFeed");
  if (it == metadata.configuration.end()) return false;
  std::string value = it->second;
  for (auto& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return value == "true";
}

Result<std::vector<FileAction>> WriteChangeData(
    const TableState& table, const std::vector<std::shared_ptr<arrow::RecordBatch>>& changes) {
  for (const auto& batch : changes) ARROW_RETURN_NOT_OK(CheckChanges(table, *batch));
  WriteSpec spec = WriteSpecFor(table);
  spec.change_data = true;
  ARROW_ASSIGN_OR_RAISE(auto factory, MakeDeltaWriterFactory(std::move(spec)));
  ARROW_ASSIGN_OR_RAISE(auto writer, factory->CreateWriter(0, 0));
  auto written = [&]() -> Result<CommitMessagePtr> {
    for (const auto& batch : changes) ARROW_RETURN_NOT_OK(writer->Write(*batch));
    return writer->Commit();
  }();
  if (!written.ok()) {
    (void)writer->Abort();
    return written.status();
  }
  ARROW_RETURN_NOT_OK(writer->Close());
  return AddsOfMessage(**written);
}

}  // namespace parley::delta
