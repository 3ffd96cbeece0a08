// parley_bench_scan: times SQL queries in one embedded Session and prints JSON.
//
// Used by bench/scan.py, which runs the same queries through DuckDB and pyarrow and prints the
// comparison; this program only measures Parley. For every query given on the command line it
// runs `--warmup` untimed runs, then `--runs` timed runs of Session::Sql (the whole result is
// materialized, as the peers' fetch_arrow_table / to_table do), and then one
// `EXPLAIN ANALYZE <query>` from which it extracts each scan's "Bytes read: N" line. With
// `--results-dir` it also writes each query's result as an Arrow IPC file (query_<i>.arrow) so
// the driver can compare it with the peers' results. Errors are reported per query in the JSON;
// the exit status is nonzero only for bad usage or a Session that cannot be created.
//
// Usage: parley_bench_scan [--runs N] [--warmup N] [--results-dir DIR] [--no-explain] QUERY...
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "arrow/api.h"
#include "arrow/io/file.h"
#include "arrow/ipc/writer.h"
#include "parley/session.h"

namespace {

struct Options {
  int runs = 5;
  int warmup = 1;
  bool explain = true;
  std::string results_dir;
  std::vector<std::string> queries;
  /// Session settings, from --conf KEY=VALUE.
  std::map<std::string, std::string> conf;
};

struct QueryReport {
  std::string query;
  std::optional<std::string> error;
  std::vector<double> times_ms;
  int64_t rows = -1;
  std::optional<std::string> explain_statement;
  std::optional<std::string> explain_text;
  std::optional<std::string> explain_error;
  std::vector<int64_t> bytes_read;  // one per scan, in plan order
};

std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += fmt::format("\\u{:04x}", c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

template <typename T>
std::string JsonOptional(const std::optional<T>& value) {
  return value ? JsonString(*value) : "null";
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Every string cell of a result (EXPLAIN returns its plan as one or more string rows).
std::string TableText(const arrow::Table& table) {
  std::string text;
  for (const auto& column : table.columns()) {
    for (const auto& chunk : column->chunks()) {
      for (int64_t i = 0; i < chunk->length(); ++i) {
        auto scalar = chunk->GetScalar(i);
        if (!scalar.ok() || !(*scalar)->is_valid) continue;
        const auto* value = dynamic_cast<const arrow::BaseBinaryScalar*>(scalar->get());
        if (value == nullptr) continue;
        text += value->value->ToString();
        if (text.empty() || text.back() != '\n') text += '\n';
      }
    }
  }
  return text;
}

std::vector<int64_t> ExtractBytesRead(const std::string& text) {
  static const std::regex kPattern(R"(Bytes read:\s*([0-9]+))");
  std::vector<int64_t> values;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kPattern);
       it != std::sregex_iterator(); ++it) {
    values.push_back(std::stoll((*it)[1].str()));
  }
  return values;
}

arrow::Status WriteResult(const std::shared_ptr<arrow::Table>& table, const std::string& path) {
  ARROW_ASSIGN_OR_RAISE(auto file, arrow::io::FileOutputStream::Open(path));
  ARROW_ASSIGN_OR_RAISE(auto writer, arrow::ipc::MakeFileWriter(file, table->schema()));
  ARROW_RETURN_NOT_OK(writer->WriteTable(*table));
  ARROW_RETURN_NOT_OK(writer->Close());
  return file->Close();
}

QueryReport RunQuery(parley::Session& session, const Options& options, size_t index) {
  QueryReport report;
  report.query = options.queries[index];
  std::shared_ptr<arrow::Table> result;
  for (int i = 0; i < options.warmup + options.runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto table = session.Sql(report.query);
    auto stop = std::chrono::steady_clock::now();
    if (!table.ok()) {
      report.error = table.status().ToString();
      return report;
    }
    result = *table;
    if (i >= options.warmup) {
      report.times_ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
    }
  }
  if (result) report.rows = result->num_rows();
  if (result && !options.results_dir.empty()) {
    auto status = WriteResult(result, fmt::format("{}/query_{}.arrow", options.results_dir, index));
    if (!status.ok()) report.error = "writing result: " + status.ToString();
  }
  if (!options.explain) return report;
  // EXPLAIN ANALYZE is new; accept the spellings it may settle on, preferring the first that
  // reports bytes read.
  for (const char* prefix :
       {"EXPLAIN ANALYZE ", "EXPLAIN ANALYZE FORMATTED ", "EXPLAIN FORMATTED ANALYZE "}) {
    std::string statement = prefix + report.query;
    auto table = session.Sql(statement);
    if (!table.ok()) {
      if (!report.explain_error) report.explain_error = table.status().ToString();
      continue;
    }
    std::string text = TableText(**table);
    std::vector<int64_t> bytes = ExtractBytesRead(text);
    if (!report.explain_text || !bytes.empty()) {
      report.explain_statement = statement;
      report.explain_text = text;
      report.bytes_read = bytes;
      report.explain_error.reset();
    }
    if (!bytes.empty()) break;
  }
  return report;
}

std::string ToJson(const QueryReport& r) {
  std::vector<std::string> times;
  for (double t : r.times_ms) times.push_back(fmt::format("{:.3f}", t));
  std::string bytes = "null";
  if (!r.bytes_read.empty()) bytes = fmt::format("[{}]", fmt::join(r.bytes_read, ", "));
  std::string median = r.times_ms.empty() ? "null" : fmt::format("{:.3f}", Median(r.times_ms));
  return fmt::format(
      "{{\"query\": {}, \"error\": {}, \"times_ms\": [{}], \"median_ms\": {}, \"rows\": {}, "
      "\"bytes_read\": {}, \"explain_statement\": {}, \"explain_error\": {}, "
      "\"explain\": {}}}",
      JsonString(r.query), JsonOptional(r.error), fmt::join(times, ", "), median,
      r.rows < 0 ? "null" : std::to_string(r.rows), bytes, JsonOptional(r.explain_statement),
      JsonOptional(r.explain_error), JsonOptional(r.explain_text));
}

int Usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--runs N] [--warmup N] [--results-dir DIR] [--no-explain] "
               "[--conf KEY=VALUE]... QUERY...\n",
               argv0);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    bool has_value = i + 1 < argc;
    if (arg == "--runs" && has_value) {
      options.runs = std::atoi(argv[++i]);
    } else if (arg == "--warmup" && has_value) {
      options.warmup = std::atoi(argv[++i]);
    } else if (arg == "--results-dir" && has_value) {
      options.results_dir = argv[++i];
    } else if (arg == "--no-explain") {
      options.explain = false;
    } else if (arg == "--conf" && has_value) {
      std::string setting = argv[++i];
      auto equals = setting.find('=');
      if (equals == std::string::npos) return Usage(argv[0]);
      options.conf[setting.substr(0, equals)] = setting.substr(equals + 1);
    } else if (arg.starts_with("--")) {
      return Usage(argv[0]);
    } else {
      options.queries.push_back(arg);
    }
  }
  if (options.queries.empty() || options.runs < 1 || options.warmup < 0) return Usage(argv[0]);

  parley::SessionOptions session_options;
  for (const auto& [key, value] : options.conf) session_options.conf[key] = value;
  auto session = parley::Session::Make(session_options);
  if (!session.ok()) {
    std::fprintf(stderr, "cannot create a session: %s\n", session.status().ToString().c_str());
    return 1;
  }
  std::vector<std::string> reports;
  for (size_t i = 0; i < options.queries.size(); ++i) {
    reports.push_back(ToJson(RunQuery(**session, options, i)));
  }
  fmt::print("{{\"runs\": {}, \"warmup\": {}, \"queries\": [\n  {}\n]}}\n", options.runs,
             options.warmup, fmt::join(reports, ",\n  "));
  return 0;
}
