// Delta tables of the warehouse catalog pass the write conformance kit, its procedures the
// procedure conformance kit, and its views the view conformance kit.
#include <unistd.h>

#include <atomic>
#include <filesystem>

#include "conformance/procedure_conformance.h"
#include "conformance/view_conformance.h"
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

// The warehouses of the view checks, removed when the process ends.
struct ViewWarehouses {
  ~ViewWarehouses() { std::filesystem::remove_all(root); }
  std::filesystem::path root = std::filesystem::temp_directory_path() /
                               ("parley-delta-view-conformance-" + std::to_string(::getpid()));
};

// Views in a warehouse of their own.
ViewSubject DeltaViews() {
  static ViewWarehouses warehouses;
  static std::atomic<int> counter{0};
  const auto dir = warehouses.root / std::to_string(counter++);
  std::filesystem::remove_all(dir);
  auto plugin = delta::MakeDeltaCatalog();
  EXPECT_OK(plugin->Initialize("spark_catalog", {{"warehouse", dir.string()}}));
  return {std::dynamic_pointer_cast<ViewCatalog>(plugin), {"default"}};
}

PARLEY_INSTANTIATE_VIEW_CONFORMANCE(Delta, DeltaViews);

}  // namespace
}  // namespace parley::conformance
