// The registry of built-in connectors: registrations are found by name, a later one replaces an
// earlier one, and what a caller got is a copy the registry does not change afterwards.
#include "parley/connector/builtin.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

class NamedCatalog : public CatalogPlugin {
 public:
  explicit NamedCatalog(std::string tag) : tag_(std::move(tag)) {}
  Status Initialize(const std::string& name, const Options&) override {
    name_ = name;
    return Status::OK();
  }
  std::string name() const override { return name_; }
  const std::string& tag() const { return tag_; }

 private:
  std::string tag_;
  std::string name_;
};

std::string TagOf(const CatalogPluginFactory& factory) {
  auto plugin = factory();
  return static_cast<NamedCatalog&>(*plugin).tag();
}

TEST(BuiltinConnectorsTest, RegisteredCatalogsAreFoundByNameAndReplacedByALaterOne) {
  EXPECT_TRUE(RegisterBuiltinCatalog("builtin_test_a",
                                     [] { return std::make_shared<NamedCatalog>("first"); }));
  auto before = RegisteredBuiltinConnectors();
  ASSERT_EQ(before.catalogs.count("builtin_test_a"), 1u);
  EXPECT_EQ(TagOf(before.catalogs.at("builtin_test_a")), "first");

  RegisterBuiltinCatalog("builtin_test_a", [] { return std::make_shared<NamedCatalog>("second"); });
  auto after = RegisteredBuiltinConnectors();
  EXPECT_EQ(TagOf(after.catalogs.at("builtin_test_a")), "second");
  // The earlier copy keeps what it held.
  EXPECT_EQ(TagOf(before.catalogs.at("builtin_test_a")), "first");
  EXPECT_EQ(after.catalogs.count("builtin_test_missing"), 0u);
}

TEST(BuiltinConnectorsTest, ProvidersAreKeptApartFromCatalogs) {
  RegisterBuiltinProvider("builtin_test_format", [] { return nullptr; });
  auto registered = RegisteredBuiltinConnectors();
  EXPECT_EQ(registered.providers.count("builtin_test_format"), 1u);
  EXPECT_EQ(registered.catalogs.count("builtin_test_format"), 0u);
}

}  // namespace
}  // namespace parley
