// Path tables of the files connector pass the write conformance kit, in each format it writes.
#include <atomic>
#include <filesystem>

#include "conformance/write_conformance.h"
#include "connectors/files/files_provider.h"

namespace parley::conformance {
namespace {

class FilesConnector : public WritableConnector {
 public:
  explicit FilesConnector(std::string format) : provider_(files::MakeFilesTableProvider(format)) {
    static std::atomic<int> counter{0};
    directory_ = std::filesystem::temp_directory_path() /
                 ("parley-files-conformance-" + std::to_string(::getpid()) + "-" +
                  std::to_string(counter++));
    std::filesystem::remove_all(directory_);
  }
  ~FilesConnector() override { std::filesystem::remove_all(directory_); }

  Result<std::shared_ptr<Table>> CreateTable(const std::vector<Column>& columns) override {
    schema_ = ColumnsToSchema(columns);
    return Reload();
  }
  // An overwrite deletes the old files at its commit; a reader still reading them fails.
  bool ReadersMayFailDuringOverwrite() const override { return true; }
  Result<std::shared_ptr<Table>> Reload() override {
    return provider_->GetTable(schema_, {{"path", directory_.string()}, {"header", "true"}});
  }

 private:
  std::shared_ptr<TableProvider> provider_;
  std::filesystem::path directory_;
  std::shared_ptr<arrow::Schema> schema_;
};

PARLEY_INSTANTIATE_WRITE_CONFORMANCE(FilesParquet,
                                     [] { return std::make_unique<FilesConnector>("parquet"); });
PARLEY_INSTANTIATE_WRITE_CONFORMANCE(FilesCsv,
                                     [] { return std::make_unique<FilesConnector>("csv"); });
PARLEY_INSTANTIATE_WRITE_CONFORMANCE(FilesJson,
                                     [] { return std::make_unique<FilesConnector>("json"); });

}  // namespace
}  // namespace parley::conformance
