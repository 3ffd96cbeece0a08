// Parley's fuzz targets: each takes arbitrary bytes and must return without crashing, hanging,
// leaking or tripping a sanitizer, whatever the bytes are; bad input is an error Status, which
// the target drops. The same targets run under libFuzzer (`make fuzz`, fuzz_main.cc) and, over
// the committed corpus of seeds and past findings, in every test run (replay_main.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace parley::fuzz {

/// \brief One fuzz target: its name (the corpus folder under tests/fuzz/corpus) and entry.
struct FuzzTarget {
  std::string_view name;
  void (*run)(const uint8_t* data, size_t size);
};

/// \brief SQL text through the statement splitter and the parser (statements, a lone expression,
/// a table name), each parsed statement rendered back.
void FuzzSqlParser(const uint8_t* data, size_t size);
/// \brief A `_delta_log` (commits and `_last_checkpoint`, see delta_log_fuzz.cc for the framing)
/// replayed into a snapshot.
void FuzzDeltaLog(const uint8_t* data, size_t size);
/// \brief A Parquet checkpoint file (version 10, named by `_last_checkpoint`) replayed.
void FuzzDeltaCheckpoint(const uint8_t* data, size_t size);
/// \brief Deletion-vector bytes: Z85 text, a RoaringBitmapArray, and a framed DV file.
void FuzzDeletionVector(const uint8_t* data, size_t size);
/// \brief A CSV or JSON file with reader options (framing in text_reader_fuzz.cc), read through
/// the files connector as the engine reads it.
void FuzzTextReader(const uint8_t* data, size_t size);
/// \brief A file offered to the connector plugin loader as a catalog's library.
void FuzzPluginLoader(const uint8_t* data, size_t size);
/// \brief `key=value` lines as the options of a change read.
void FuzzCdcOptions(const uint8_t* data, size_t size);

/// \brief Every target, by name.
inline constexpr FuzzTarget kFuzzTargets[] = {
    {"sql_parser", FuzzSqlParser},
    {"delta_log", FuzzDeltaLog},
    {"delta_checkpoint", FuzzDeltaCheckpoint},
    {"deletion_vector", FuzzDeletionVector},
    {"text_reader", FuzzTextReader},
    {"plugin_loader", FuzzPluginLoader},
    {"cdc_options", FuzzCdcOptions},
};

/// \brief The target called `name`, or nullptr.
inline const FuzzTarget* FindFuzzTarget(std::string_view name) {
  for (const FuzzTarget& target : kFuzzTargets) {
    if (target.name == name) return &target;
  }
  return nullptr;
}

}  // namespace parley::fuzz
