// The memory catalog's tables pass the write conformance kit, its views the view conformance
// kit, and its SQL functions the SQL function checks of the function conformance kit.
#include "conformance/function_conformance.h"
#include "conformance/view_conformance.h"
#include "conformance/write_conformance.h"
#include "connectors/memory/memory_catalog.h"

namespace parley::conformance {
namespace {

class MemoryConnector : public WritableConnector {
 public:
  Result<std::shared_ptr<Table>> CreateTable(const std::vector<Column>& columns) override {
    ARROW_RETURN_NOT_OK(catalog_.Initialize("conformance", {}));
    return catalog_.CreateTable(ident_, TableInfo{columns, {}, {}});
  }
  Result<std::shared_ptr<Table>> Reload() override { return catalog_.LoadTable(ident_); }

 private:
  memory::MemoryCatalog catalog_;
  Identifier ident_{{"default"}, "t"};
};

PARLEY_INSTANTIATE_WRITE_CONFORMANCE(Memory, [] { return std::make_unique<MemoryConnector>(); });

ViewSubject MemoryViews() {
  auto catalog = std::make_shared<memory::MemoryCatalog>();
  EXPECT_TRUE(catalog->Initialize("conformance", {}).ok());
  return {catalog, {"default"}};
}

PARLEY_INSTANTIATE_VIEW_CONFORMANCE(Memory, MemoryViews);

FunctionSubject MemoryFunctions() {
  auto catalog = std::make_shared<memory::MemoryCatalog>();
  EXPECT_TRUE(catalog->Initialize("conformance", {}).ok());
  return {catalog, {{"default"}}, {}};
}

PARLEY_INSTANTIATE_SQL_FUNCTION_CONFORMANCE(Memory, MemoryFunctions);

}  // namespace
}  // namespace parley::conformance
