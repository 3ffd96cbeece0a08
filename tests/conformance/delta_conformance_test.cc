// Delta tables of the warehouse catalog pass the write conformance kit, and its procedures the
// procedure conformance kit.
#include <unistd.h>

#include <atomic>
#include <filesystem>

#include "conformance/procedure_conformance.h"
#include "conformance/write_conformance.h"
#include "connectors/delta/delta_catalog.h"
#include "parley/connector/procedure.h"
#include "testing/gtest_util.h"

namespace parley::conformance {
namespace {

class DeltaConnector : public WritableConnector {
 public:
  DeltaConnector() {
    static std::atomic<int> counter{0};
    warehouse_ = std::filesystem::temp_directory_path() /
                 ("parley-delta-conformance-" + std::to_string(::getpid()) + "-" +
                  std::to_string(counter++));
    std::filesystem::remove_all(warehouse_);
    auto plugin = delta::MakeDeltaCatalog();
    status_ = plugin->Initialize("spark_catalog", {{"warehouse", warehouse_.string()}});
    catalog_ = std::dynamic_pointer_cast<TableCatalog>(plugin);
  }
  ~DeltaConnector() override { std::filesystem::remove_all(warehouse_); }

  Result<std::shared_ptr<Table>> CreateTable(const std::vector<Column>& columns) override {
    ARROW_RETURN_NOT_OK(status_);
    TableInfo info;
    info.columns = columns;
    return catalog_->CreateTable(kIdent, info);
  }
  Result<std::shared_ptr<Table>> Reload() override { return catalog_->LoadTable(kIdent); }

 private:
  inline static const Identifier kIdent{{"default"}, "conformance"};
  std::filesystem::path warehouse_;
  Status status_;
  std::shared_ptr<TableCatalog> catalog_;
};

PARLEY_INSTANTIATE_WRITE_CONFORMANCE(Delta, [] { return std::make_unique<DeltaConnector>(); });

ProcedureSubject DeltaProcedures() {
  auto plugin = delta::MakeDeltaCatalog();
  EXPECT_OK(plugin->Initialize("spark_catalog", {}));
  return {std::dynamic_pointer_cast<ProcedureCatalog>(plugin), {{"system"}}};
}

PARLEY_INSTANTIATE_PROCEDURE_CONFORMANCE(Delta, DeltaProcedures);

}  // namespace
}  // namespace parley::conformance
