// ALTER TABLE on a Delta table: the changes applied to a copy of the metadata (and, when a
// property needs it, the protocol), committed as one metadata-only commit; turning row tracking
// on also re-adds the files that have no row ids yet with fresh ones (a backfill).
#include <string>
#include <utility>

#include "arrow/type.h"
#include "arrow/util/key_value_metadata.h"

#include "connectors/delta/log/protocol.h"
#include "connectors/delta/log/row_tracking.h"
#include "connectors/delta/log/transaction.h"
#include "connectors/delta/table_state.h"
#include "connectors/delta/util.h"
#include "connectors/delta/write/alter.h"
#include "connectors/delta/write/create.h"
#include "parley/connector/catalog.h"

namespace parley::delta {
namespace {

Status Unsupported(const TableChange& change, const std::string& table, const std::string& why) {
  return InvalidError("UNSUPPORTED_FEATURE.TABLE_OPERATION",
                      "The feature is not supported: " + change.ToString() +
                          " on the Delta "
                          "table " +
                          table + " (" + why + ").");
}

Result<int> FindColumn(const arrow::Schema& schema, const TableChange& change,
                       const std::string& table) {
  if (change.field_names.size() != 1) {
    return Unsupported(change, table, "only top-level columns can be changed");
  }
  for (int i = 0; i < schema.num_fields(); ++i) {
    const std::string& name = schema.field(i)->name();
    if (name.size() == change.field_names[0].size() &&
        std::equal(name.begin(), name.end(), change.field_names[0].begin(),
                   [](char a, char b) { return std::tolower(a) == std::tolower(b); })) {
      return i;
    }
  }
  return InvalidError("UNRESOLVED_COLUMN.WITH_SUGGESTION",
                      "A column with name " + QuoteIdentifier(change.field_names[0]) +
                          " cannot be resolved in the table " + table + ".");
}

std::shared_ptr<arrow::Field> WithAnnotation(const std::shared_ptr<arrow::Field>& field,
                                             const std::string& key, const std::string& value) {
  auto metadata =
      field->metadata() ? field->metadata()->Copy() : std::make_shared<arrow::KeyValueMetadata>();
  ARROW_UNUSED(metadata->Set(key, value));
  return field->WithMetadata(metadata);
}

}  // namespace

Status AlterDeltaTable(const TableState& state, const std::vector<TableChange>& changes) {
  const Snapshot& snapshot = *state.snapshot;
  ARROW_RETURN_NOT_OK(CheckWriteSupported(snapshot.protocol, snapshot.metadata, state.name));
  Metadata metadata = snapshot.metadata;
  arrow::FieldVector fields = state.annotated_schema->fields();
  ARROW_ASSIGN_OR_RAISE(auto mode, ColumnMappingModeOf(metadata.configuration));
  for (const auto& change : changes) {
    arrow::Schema schema(fields);
    switch (change.kind) {
      case TableChange::Kind::kSetProperty:
        if (change.property_key == kPropComment) {
          metadata.description = change.property_value;
        } else if (change.property_key == "delta.columnMapping.mode") {
          return Unsupported(change, state.name,
                             "column mapping can only be chosen when the table is created");
        } else {
          metadata.configuration[change.property_key] = change.property_value;
        }
        break;
      case TableChange::Kind::kRemoveProperty:
        if (change.property_key == kPropComment) {
          metadata.description.reset();
        } else {
          metadata.configuration.erase(change.property_key);
        }
        break;
      case TableChange::Kind::kAddColumn: {
        if (change.field_names.size() != 1) {
          return Unsupported(change, state.name, "only top-level columns can be added");
        }
        if (!change.nullable) {
          return InvalidError("DELTA_NOT_NULL_COLUMN_NOT_FOUND_IN_STRUCT",
                              "A NOT NULL column " + QuoteIdentifier(change.field_names[0]) +
                                  " cannot be added to the existing table " + state.name + ".");
        }
        if (change.default_value) {
          return Unsupported(change, state.name, "column defaults are not supported yet");
        }
        Column column{change.field_names[0],       change.type,  true,
                      change.comment.value_or(""), std::nullopt, change.char_varchar};
        auto field = column.ToField();
        ARROW_RETURN_NOT_OK(CheckColumnNames({field}, mode));
        if (mode != ColumnMappingMode::kNone) {
          int64_t id =
              IntProperty(metadata.configuration, "delta.columnMapping.maxColumnId", 0) + 1;
          metadata.configuration["delta.columnMapping.maxColumnId"] = std::to_string(id);
          field = WithAnnotation(WithAnnotation(field, kColumnIdKey, std::to_string(id)),
                                 kPhysicalNameKey, "col-" + RandomUuid());
        }
        size_t at = fields.size();
        if (change.position) {
          if (change.position->first) {
            at = 0;
          } else {
            TableChange after = change;
            after.field_names = {change.position->after};
            ARROW_ASSIGN_OR_RAISE(int index, FindColumn(schema, after, state.name));
            at = static_cast<size_t>(index) + 1;
          }
        }
        fields.insert(fields.begin() + static_cast<std::ptrdiff_t>(at), field);
        break;
      }
      case TableChange::Kind::kRenameColumn: {
        if (mode == ColumnMappingMode::kNone) {
          return InvalidError("DELTA_UNSUPPORTED_RENAME_COLUMN",
                              "Column rename is not supported for the Delta table " + state.name +
                                  ": enable column mapping ('delta.columnMapping.mode' = 'name') "
                                  "when creating it.");
        }
        ARROW_ASSIGN_OR_RAISE(int index, FindColumn(schema, change, state.name));
        std::string old_name = fields[index]->name();
        fields[index] = fields[index]->WithName(change.new_name);
        for (auto& column : metadata.partition_columns) {
          if (column == old_name) column = change.new_name;
        }
        break;
      }
      case TableChange::Kind::kDeleteColumn: {
        auto index = FindColumn(schema, change, state.name);
        if (!index.ok() && change.if_exists) break;
        ARROW_RETURN_NOT_OK(index.status());
        if (mode == ColumnMappingMode::kNone) {
          return InvalidError("DELTA_UNSUPPORTED_DROP_COLUMN",
                              "DROP COLUMN is not supported for the Delta table " + state.name +
                                  ": enable column mapping ('delta.columnMapping.mode' = 'name') "
                                  "when creating it.");
        }
        for (const auto& column : metadata.partition_columns) {
          if (column == fields[*index]->name()) {
            return InvalidError(
                "DELTA_UNSUPPORTED_DROP_PARTITION_COLUMN",
                "Dropping partition column " + QuoteIdentifier(column) + " is not supported.");
          }
        }
        fields.erase(fields.begin() + *index);
        break;
      }
      case TableChange::Kind::kUpdateColumnComment: {
        ARROW_ASSIGN_OR_RAISE(int index, FindColumn(schema, change, state.name));
        fields[index] = WithAnnotation(fields[index], "comment", change.comment.value_or(""));
        break;
      }
      case TableChange::Kind::kUpdateColumnNullability: {
        ARROW_ASSIGN_OR_RAISE(int index, FindColumn(schema, change, state.name));
        if (!change.nullable && fields[index]->nullable()) {
          return InvalidError("DELTA_CANNOT_CHANGE_NULLABILITY",
                              "Cannot change the column " + QuoteIdentifier(fields[index]->name()) +
                                  " of " + state.name +
                                  " to NOT NULL: existing rows are not "
                                  "checked.");
        }
        fields[index] = fields[index]->WithNullable(change.nullable);
        break;
      }
      default: return Unsupported(change, state.name, "not a metadata-only change");
    }
  }
  ARROW_RETURN_NOT_OK(ValidateConfiguration(metadata.configuration));
  NameMaterializedColumns(&metadata);
  arrow::Schema schema(fields);
  ARROW_ASSIGN_OR_RAISE(metadata.schema_string, SchemaToDeltaJson(schema));
  Transaction transaction;
  Protocol protocol = RequiredProtocol(metadata.configuration, schema, snapshot.protocol);
  if (protocol.min_reader_version != snapshot.protocol.min_reader_version ||
      protocol.min_writer_version != snapshot.protocol.min_writer_version ||
      protocol.reader_features != snapshot.protocol.reader_features ||
      protocol.writer_features != snapshot.protocol.writer_features) {
    transaction.protocol = protocol;
  }
  ARROW_ASSIGN_OR_RAISE(transaction.row_id_high_water_mark,
                        ReadHighWaterMarkFor(protocol, metadata, &snapshot));
  if (transaction.row_id_high_water_mark) {
    // Backfill: files written before rows were tracked are re-added (dataChange=false) with
    // fresh row ids, so that every live file has them from this version on.
    for (const auto& file : snapshot.files) {
      if (file.base_row_id) continue;
      FileAction add = file;
      add.data_change = false;
      transaction.adds.push_back(std::move(add));
    }
  }
  transaction.metadata = std::move(metadata);
  transaction.operation = "ALTER TABLE";
  std::string description;
  for (const auto& change : changes) {
    description += (description.empty() ? "" : ", ") + change.ToString();
  }
  transaction.operation_parameters = {{"changes", description}};
  transaction.checkpoint_interval = CheckpointInterval(protocol, *transaction.metadata);
  return CommitTransaction(state.filesystem, state.root, state.name, snapshot.version,
                           std::move(transaction))
      .status();
}

}  // namespace parley::delta
