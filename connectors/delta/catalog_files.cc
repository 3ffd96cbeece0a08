// The warehouse catalog's metadata files (see catalog_files.h).
#include "connectors/delta/catalog_files.h"

#include "arrow/io/interfaces.h"

namespace parley::delta {

std::string CatalogFilePath(const std::string& namespace_dir, const std::string& lower_name,
                            const std::string& suffix) {
  return namespace_dir + "/." + lower_name + suffix;
}

bool IsCatalogFileName(const std::string& base_name, const std::string& suffix,
                       std::string* lower_name) {
  if (base_name.size() <= suffix.size() + 1 || base_name[0] != '.' ||
      !base_name.ends_with(suffix)) {
    return false;
  }
  *lower_name = base_name.substr(1, base_name.size() - suffix.size() - 1);
  return true;
}

Status WriteCatalogFile(arrow::fs::FileSystem& filesystem, const std::string& path,
                        const std::string& text) {
  const std::string temporary = path + ".tmp";
  ARROW_ASSIGN_OR_RAISE(auto sink, filesystem.OpenOutputStream(temporary));
  ARROW_RETURN_NOT_OK(sink->Write(text.data(), static_cast<int64_t>(text.size())));
  ARROW_RETURN_NOT_OK(sink->Close());
  return filesystem.Move(temporary, path);
}

Status CorruptCatalogFile(const std::string& kind, const std::string& display,
                          const std::string& why) {
  return InvalidError("INTERNAL_ERROR_METADATA_CATALOG",
                      "An object in the metadata catalog has been corrupted: the definition of "
                      "the " +
                          kind + " " + display + " cannot be read (" + why + ").");
}

}  // namespace parley::delta
