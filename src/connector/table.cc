// Table helpers: capability names and the schema view of a table's columns.
#include "parley/connector/table.h"

#include "arrow/type.h"

namespace parley {

const char* TableCapabilityName(TableCapability capability) {
  switch (capability) {
    case TableCapability::kBatchRead: return "BATCH_READ";
    case TableCapability::kMicroBatchRead: return "MICRO_BATCH_READ";
    case TableCapability::kContinuousRead: return "CONTINUOUS_READ";
    case TableCapability::kBatchWrite: return "BATCH_WRITE";
    case TableCapability::kStreamingWrite: return "STREAMING_WRITE";
    case TableCapability::kTruncate: return "TRUNCATE";
    case TableCapability::kOverwriteByFilter: return "OVERWRITE_BY_FILTER";
    case TableCapability::kOverwriteDynamic: return "OVERWRITE_DYNAMIC";
    case TableCapability::kAcceptAnySchema: return "ACCEPT_ANY_SCHEMA";
    case TableCapability::kV1BatchWrite: return "V1_BATCH_WRITE";
    case TableCapability::kAutomaticSchemaEvolution: return "AUTOMATIC_SCHEMA_EVOLUTION";
  }
  return "UNKNOWN";
}

std::shared_ptr<arrow::Schema> Table::schema() const { return ColumnsToSchema(columns()); }

}  // namespace parley
