// The catalogs that offer functions pass the function conformance kit: the example range
// connector (a scalar and an aggregate function, loaded as a plugin, as users load it) and the
// warehouse catalog (SQL functions).
#include <unistd.h>

#include <atomic>
#include <filesystem>

#include "arrow/json/from_string.h"
#include "catalog/catalog_manager.h"
#include "conformance/function_conformance.h"
#include "connectors/delta/delta_catalog.h"
#include "testing/gtest_util.h"

namespace parley::conformance {
namespace {

std::shared_ptr<arrow::Array> Ints(const std::shared_ptr<arrow::DataType>& type,
                                   const std::string& json) {
  return arrow::json::ArrayFromJSONString(type, json).ValueOrDie();
}

FunctionSubject RangeFunctions() {
  auto plugin = LoadPluginLibrary("ex", PARLEY_EXAMPLE_RANGE_PATH);
  EXPECT_OK(plugin.status());
  EXPECT_OK((*plugin)->Initialize("ex", {}));
  const std::string values = "[0, 1, -7, null, 46340, 12, 5, -3]";
  return {std::dynamic_pointer_cast<FunctionCatalog>(*plugin),
          {{"default"}},
          {{{{"default"}, "scale"},
            {Ints(arrow::int32(), values), Ints(arrow::int32(), "[3, 3, 3, 3, 1, -2, null, 0]")}},
           {{{"default"}, "sum_of_squares"}, {Ints(arrow::int64(), values)}},
           {{{"default"}, "sum_of_squares"}, {Ints(arrow::int32(), values)}}}};
}

PARLEY_INSTANTIATE_FUNCTION_CONFORMANCE(Range, RangeFunctions);

// The warehouses of the SQL function checks, removed when the process ends.
struct FunctionWarehouses {
  ~FunctionWarehouses() { std::filesystem::remove_all(root); }
  std::filesystem::path root = std::filesystem::temp_directory_path() /
                               ("parley-delta-function-conformance-" + std::to_string(::getpid()));
};

FunctionSubject DeltaFunctions() {
  static FunctionWarehouses warehouses;
  static std::atomic<int> counter{0};
  const auto dir = warehouses.root / std::to_string(counter++);
  std::filesystem::remove_all(dir);
  auto plugin = delta::MakeDeltaCatalog();
  EXPECT_OK(plugin->Initialize("spark_catalog", {{"warehouse", dir.string()}}));
  return {std::dynamic_pointer_cast<FunctionCatalog>(plugin), {{"default"}}, {}};
}

PARLEY_INSTANTIATE_SQL_FUNCTION_CONFORMANCE(Delta, DeltaFunctions);

}  // namespace
}  // namespace parley::conformance
