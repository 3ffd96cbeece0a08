// The files connector's TableProvider and Table. Both calls of the provider list the files
// under the path (files_listing.cc); InferSchema infers the data columns (files_format.cc) and
// GetTable builds the table. Hive partition discovery is Arrow Dataset's: a
// FileSystemDatasetFactory with a HivePartitioning factory infers the partition columns from the
// directory names below the partition base directory (values that all parse as integers are
// INT, others STRING, __HIVE_DEFAULT_PARTITION__ is NULL), and finishing it with the table's
// schema gives one fragment per file carrying the file's typed partition expression. The table
// keeps those fragments: they are what scans prune and what caches Parquet footers once read.
#include "files_provider.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "arrow/compute/initialize.h"
#include "arrow/dataset/dataset.h"
#include "arrow/dataset/discovery.h"
#include "arrow/dataset/file_base.h"
#include "arrow/dataset/partition.h"
#include "arrow/type.h"
#include "connectors/files/files_format.h"
#include "connectors/files/files_listing.h"
#include "connectors/files/files_options.h"
#include "connectors/files/files_scan.h"
#include "connectors/files/files_table.h"
#include "connectors/files/files_write.h"
#include "parley/connector/read.h"
#include "parley/connector/status.h"
#include "parley/connector/table.h"
#include "parley/connector/write.h"

namespace parley::files {
namespace {

namespace ds = arrow::dataset;

// DataFrameWriter.partitionBy's option: the partition columns of a new table, as a JSON array.
constexpr char kPartitionColumnsOption[] = "__partition_columns";

// A dataset factory over the listed files that discovers Hive partitions.
Result<std::shared_ptr<ds::DatasetFactory>> MakeDatasetFactory(
    const Listing& listing, std::shared_ptr<ds::FileFormat> format) {
  ds::HivePartitioningFactoryOptions hive;
  hive.null_fallback = kHiveNullFallback;
  ds::FileSystemFactoryOptions factory_options;
  factory_options.partitioning = ds::HivePartitioning::MakeFactory(hive);
  factory_options.partition_base_dir = listing.partition_base_dir;
  return ds::FileSystemDatasetFactory::Make(listing.filesystem, listing.files, std::move(format),
                                            std::move(factory_options));
}

// The partition columns the directory names imply (inspecting no file).
Result<std::shared_ptr<arrow::Schema>> DiscoverPartitionSchema(ds::DatasetFactory& factory) {
  ds::InspectOptions inspect;
  inspect.fragments = 0;
  ARROW_ASSIGN_OR_RAISE(auto schemas, factory.InspectSchemas(inspect));
  if (schemas.empty()) return arrow::schema({});
  return schemas.back();
}

std::string DisplayFormat(FileFormatKind format) {
  switch (format) {
    case FileFormatKind::kParquet: return "Parquet";
    case FileFormatKind::kCsv: return "CSV";
    case FileFormatKind::kJson: return "JSON";
    case FileFormatKind::kOrc: return "ORC";
  }
  return "Parquet";
}

// The partition columns named by kPartitionColumnsOption, none when it is absent.
Result<std::vector<std::string>> RequestedPartitionColumns(const Options& options) {
  auto it = options.find(kPartitionColumnsOption);
  if (it == options.end()) return std::vector<std::string>{};
  auto names = nlohmann::json::parse(it->second, nullptr, /*allow_exceptions=*/false);
  std::vector<std::string> out;
  bool valid = names.is_array();
  for (const auto& name : valid ? names : nlohmann::json::array()) {
    valid = valid && name.is_string();
    if (valid) out.push_back(name.get<std::string>());
  }
  if (!valid) {
    return InvalidError("INVALID_OPTION_VALUE",
                        "The option " + QuoteIdentifier(kPartitionColumnsOption) + " cannot be '" +
                            it->second + "': expected a JSON array of column names.");
  }
  return out;
}

class FilesTable : public Table,
                   public SupportsRead,
                   public SupportsWrite,
                   public TruncatableTable {
 public:
  explicit FilesTable(std::shared_ptr<const TableData> data) : data_(std::move(data)) {}

  std::string name() const override { return data_->name; }

  std::vector<Column> columns() const override { return SchemaToColumns(*data_->schema); }

  std::vector<std::shared_ptr<Transform>> partitioning() const override {
    std::vector<std::shared_ptr<Transform>> transforms;
    for (const auto& field : data_->partition_schema->fields()) {
      transforms.push_back(std::make_shared<Transform>(
          "identity", std::vector<ExpressionPtr>{FieldReference(field->name())}));
    }
    return transforms;
  }

  std::map<std::string, std::string> properties() const override {
    return {{"provider", FormatName(data_->options.format)}, {"location", data_->options.path}};
  }

  std::set<TableCapability> capabilities() const override {
    if (data_->root_dir.empty()) return {TableCapability::kBatchRead};
    return {TableCapability::kBatchRead, TableCapability::kBatchWrite, TableCapability::kTruncate,
            TableCapability::kOverwriteByFilter, TableCapability::kOverwriteDynamic};
  }

  Result<std::unique_ptr<ScanBuilder>> NewScanBuilder(const Options& options) override {
    return MakeFilesScanBuilder(data_, options);
  }

  Result<std::unique_ptr<WriteBuilder>> NewWriteBuilder(const LogicalWriteInfo& info) override {
    return MakeFilesWriteBuilder(data_, info);
  }

  Result<bool> TruncateTable() override { return TruncateFilesTable(*data_); }

 private:
  std::shared_ptr<const TableData> data_;
};

class FilesTableProvider : public TableProvider {
 public:
  explicit FilesTableProvider(FileFormatKind format) : format_(format) {}

  Result<std::shared_ptr<arrow::Schema>> InferSchema(const Options& options) override {
    ARROW_RETURN_NOT_OK(EnsureArrowComputeInitialized());
    ARROW_ASSIGN_OR_RAISE(auto read, ParseReadOptions(format_, options));
    ARROW_ASSIGN_OR_RAISE(auto listing, ListFiles(read));
    if (listing.files.empty()) {
      return InvalidError("UNABLE_TO_INFER_SCHEMA",
                          "Unable to infer schema for " + DisplayFormat(format_) + " at " +
                              read.path + ". It must be specified manually.");
    }
    ARROW_ASSIGN_OR_RAISE(auto data_schema, InferDataSchema(read, listing));
    ARROW_ASSIGN_OR_RAISE(auto arrow_format, MakeArrowFormat(read));
    ARROW_ASSIGN_OR_RAISE(auto factory, MakeDatasetFactory(listing, std::move(arrow_format)));
    ARROW_ASSIGN_OR_RAISE(auto partition_schema, DiscoverPartitionSchema(*factory));
    // As in Spark, a partition column replaces a data column of the same name, and comes last.
    arrow::FieldVector fields;
    for (const auto& field : data_schema->fields()) {
      if (partition_schema->GetFieldIndex(field->name()) < 0) fields.push_back(field);
    }
    for (const auto& field : partition_schema->fields()) fields.push_back(field);
    return arrow::schema(std::move(fields));
  }

  bool SupportsExternalMetadata() const override { return true; }

  Result<std::shared_ptr<Table>> GetTable(const std::shared_ptr<arrow::Schema>& schema,
                                          const Options& options) override {
    ARROW_RETURN_NOT_OK(EnsureArrowComputeInitialized());
    auto data = std::make_shared<TableData>();
    ARROW_ASSIGN_OR_RAISE(data->options, ParseReadOptions(format_, options));
    ARROW_ASSIGN_OR_RAISE(auto listing, ListFiles(data->options, /*allow_missing=*/true));
    data->name = std::string(FormatName(format_)) + "." + QuoteIdentifier(data->options.path);
    data->filesystem = listing.filesystem;
    data->filesystem_uri = listing.filesystem_uri;
    data->root_dir = listing.root_dir;
    ARROW_ASSIGN_OR_RAISE(data->format, MakeArrowFormat(data->options));
    ARROW_ASSIGN_OR_RAISE(auto factory, MakeDatasetFactory(listing, data->format));
    ARROW_ASSIGN_OR_RAISE(auto discovered, DiscoverPartitionSchema(*factory));

    // The given columns, then each discovered partition column the schema lacks.
    arrow::FieldVector fields = schema->fields();
    for (const auto& field : discovered->fields()) {
      if (schema->GetFieldIndex(field->name()) < 0) fields.push_back(field);
    }
    data->schema = arrow::schema(std::move(fields));
    // A table without partition directories yet takes the requested partition columns.
    ARROW_ASSIGN_OR_RAISE(auto requested, RequestedPartitionColumns(options));
    arrow::FieldVector partition_fields;
    if (discovered->num_fields() == 0) {
      for (const auto& name : requested) {
        auto field = data->schema->GetFieldByName(name);
        if (field == nullptr) {
          return InvalidError("PARTITION_COLUMN_NOT_FOUND_IN_SCHEMA",
                              "Partition column " + QuoteIdentifier(name) +
                                  " not found in schema " + data->schema->ToString() + ".");
        }
        partition_fields.push_back(std::move(field));
      }
    }
    for (const auto& field : data->schema->fields()) {
      if (discovered->GetFieldIndex(field->name()) >= 0) partition_fields.push_back(field);
    }
    data->partition_schema = arrow::schema(std::move(partition_fields));

    // Finishing with the table's schema types every partition value as the table declares it.
    ARROW_ASSIGN_OR_RAISE(auto dataset, factory->Finish(data->schema));
    ARROW_ASSIGN_OR_RAISE(auto fragments, dataset->GetFragments());
    for (auto maybe_fragment : fragments) {
      ARROW_ASSIGN_OR_RAISE(auto fragment, std::move(maybe_fragment));
      auto file = std::dynamic_pointer_cast<ds::FileFragment>(std::move(fragment));
      if (file == nullptr) {
        return InvalidError("INTERNAL_ERROR", "A file dataset of " + data->name +
                                                  " produced a fragment that is not a file.");
      }
      const auto& source = file->source();
      data->files.push_back(DataFile{file, source.path(), source.Size()});
    }
    return std::make_shared<FilesTable>(std::move(data));
  }

 private:
  FileFormatKind format_;
};

}  // namespace

Status EnsureArrowComputeInitialized() {
  static std::once_flag once;
  static Status status;
  std::call_once(once, [] { status = arrow::compute::Initialize(); });
  return status;
}

std::shared_ptr<TableProvider> MakeFilesTableProvider(const std::string& format) {
  std::string name = format;
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (auto kind : {FileFormatKind::kParquet, FileFormatKind::kCsv, FileFormatKind::kJson,
                    FileFormatKind::kOrc}) {
    if (name == FormatName(kind)) return std::make_shared<FilesTableProvider>(kind);
  }
  return nullptr;
}

}  // namespace parley::files
