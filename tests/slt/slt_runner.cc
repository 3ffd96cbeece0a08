// parley_slt: runs SQL logic test files (tests/sql/**/*.slt) against a Parley Session.
//
// The format is DuckDB's sqllogictest dialect (see tests/sql/README.md): records separated by
// blank lines, each a directive line (`statement ok`, `statement error [CONDITION]`,
// `query <types> [nosort|rowsort]`, and Parley's `plan contains` / `plan not contains`), one SQL
// statement, and optionally `----` followed by what is expected. Each file runs in a fresh
// Session with its own temporary warehouse, the memory catalog as session catalog (unless the
// file SETs another), `parley.verifyPushdown=true` and
// `parley.test.roundTripTasks=true`, so every
// connector's partitions and factories are serialized the way a cluster would. Cells are
// compared as text rendered by main/result_format (FormatCell), NULL as `NULL` and the empty
// string as `(empty)`; error positions are relative to the record's SQL. Every mismatch prints
// file:line, the SQL, expected and actual; the last line printed is `N passed, M failed`, and
// the exit code is non-zero when M > 0.
#include <fmt/format.h>
#include <stdlib.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/record_batch.h"
#include "arrow/table.h"
#include "main/result_format.h"
#include "parley/session.h"

namespace parley::slt {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kBuildDirToken = "__BUILD_DIR__";

enum class RecordKind { kStatementOk, kStatementError, kQuery, kPlanContains, kPlanNotContains };

// One test record: a directive, its SQL and what is expected of it.
struct Record {
  RecordKind kind = RecordKind::kStatementOk;
  int line = 0;  // line of the directive
  std::string sql;
  // statement error: the condition the error must carry (empty: any error).
  std::string condition;
  // query: one letter per result column.
  std::string types;
  bool rowsort = false;
  bool has_expected = false;  // whether `----` was present
  std::vector<std::string> expected;
};

// A record that could not be parsed: reported as one failure.
struct ParseFailure {
  int line = 0;
  std::string message;
};

struct RunOptions {
  std::optional<std::string> build_dir;
  std::map<std::string, std::string> conf;
};

std::vector<std::string> SplitWords(std::string_view text) {
  std::vector<std::string> words;
  std::istringstream in{std::string(text)};
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

std::string Join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}

bool IsBlank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

// Parse the directive line of a record into `record`; returns an error message on failure.
std::optional<std::string> ParseDirective(const std::vector<std::string>& words, Record* record) {
  if (words[0] == "statement" && words.size() == 2 && words[1] == "ok") {
    record->kind = RecordKind::kStatementOk;
    return std::nullopt;
  }
  if (words[0] == "statement" && words.size() <= 3 && words.size() >= 2 && words[1] == "error") {
    record->kind = RecordKind::kStatementError;
    if (words.size() == 3) record->condition = words[2];
    return std::nullopt;
  }
  if (words[0] == "query" && (words.size() == 2 || words.size() == 3)) {
    record->kind = RecordKind::kQuery;
    record->types = words[1];
    if (words.size() == 3) {
      if (words[2] != "nosort" && words[2] != "rowsort") {
        return "unknown sort mode '" + words[2] + "' (expected nosort or rowsort)";
      }
      record->rowsort = words[2] == "rowsort";
    }
    return std::nullopt;
  }
  if (words == std::vector<std::string>{"plan", "contains"}) {
    record->kind = RecordKind::kPlanContains;
    return std::nullopt;
  }
  if (words == std::vector<std::string>{"plan", "not", "contains"}) {
    record->kind = RecordKind::kPlanNotContains;
    return std::nullopt;
  }
  return "unknown directive '" + Join(words, " ") + "'";
}

// A file split into records; malformed records are kept apart as ParseFailures.
struct ParsedFile {
  std::vector<Record> records;
  std::vector<ParseFailure> failures;
};

ParsedFile ParseFile(const std::vector<std::string>& lines) {
  ParsedFile parsed;
  size_t i = 0;
  auto skip_record = [&] {
    while (i < lines.size() && !IsBlank(lines[i])) ++i;
  };
  while (i < lines.size()) {
    const std::string& line = lines[i];
    if (IsBlank(line) || line[0] == '#') {
      ++i;
      continue;
    }
    Record record;
    record.line = static_cast<int>(i) + 1;
    if (auto error = ParseDirective(SplitWords(line), &record)) {
      parsed.failures.push_back({record.line, *error});
      skip_record();
      continue;
    }
    ++i;
    std::vector<std::string> sql_lines;
    while (i < lines.size() && !IsBlank(lines[i]) && lines[i] != "----") {
      sql_lines.push_back(lines[i++]);
    }
    record.sql = Join(sql_lines, "\n");
    if (i < lines.size() && lines[i] == "----") {
      record.has_expected = true;
      for (++i; i < lines.size() && !IsBlank(lines[i]); ++i) record.expected.push_back(lines[i]);
    }
    if (record.sql.empty()) {
      parsed.failures.push_back({record.line, "the record has no SQL"});
      continue;
    }
    if (record.has_expected && record.kind == RecordKind::kStatementOk) {
      parsed.failures.push_back({record.line, "`statement ok` takes no `----` section"});
      continue;
    }
    parsed.records.push_back(std::move(record));
  }
  return parsed;
}

std::string ReplaceAll(std::string text, std::string_view from, std::string_view to) {
  for (size_t pos = text.find(from); pos != std::string::npos;
       pos = text.find(from, pos + to.size())) {
    text.replace(pos, from.size(), to);
  }
  return text;
}

// The result as rows of cell text: NULL as `NULL`, the empty string as `(empty)`.
Result<std::vector<std::vector<std::string>>> RenderRows(const arrow::Table& table) {
  std::vector<std::vector<std::string>> rows;
  arrow::TableBatchReader reader(table);
  std::shared_ptr<arrow::RecordBatch> batch;
  while (true) {
    ARROW_RETURN_NOT_OK(reader.ReadNext(&batch));
    if (batch == nullptr) return rows;
    for (int64_t r = 0; r < batch->num_rows(); ++r) {
      std::vector<std::string> row;
      for (int c = 0; c < batch->num_columns(); ++c) {
        ARROW_ASSIGN_OR_RAISE(auto cell, FormatCell(*batch->column(c), r));
        row.push_back(!cell ? "NULL" : cell->empty() ? "(empty)" : std::move(*cell));
      }
      rows.push_back(std::move(row));
    }
  }
}

// Split an expected row: on tabs when the line has any, else as one value when the query has
// one column, else on runs of spaces.
std::vector<std::string> SplitExpectedRow(const std::string& line, size_t num_columns) {
  if (line.find('\t') != std::string::npos) {
    std::vector<std::string> cells;
    size_t start = 0;
    for (size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1) {
      cells.push_back(line.substr(start, tab - start));
    }
    cells.push_back(line.substr(start));
    return cells;
  }
  if (num_columns == 1) return {line};
  return SplitWords(line);
}

// Each line of `texts` (texts may span lines) indented for a failure report.
std::string Indent(const std::vector<std::string>& texts) {
  std::string out;
  for (const auto& text : texts) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) out += "    " + line + "\n";
  }
  return out.empty() ? "    (nothing)\n" : out;
}

class FileRunner {
 public:
  FileRunner(std::string path, const RunOptions& options)
      : path_(std::move(path)), options_(options) {}

  /// Run every record of the file; returns the number of passed and failed records.
  std::pair<int, int> Run() {
    std::ifstream in(path_);
    if (!in.is_open()) {
      Fail(0, "cannot open the file", "");
      return {passed_, failed_};
    }
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.push_back(std::move(line));
    }
    ParsedFile parsed = ParseFile(lines);
    for (const auto& failure : parsed.failures) Fail(failure.line, failure.message, "");

    std::error_code ignored;
    std::string warehouse_template =
        (fs::temp_directory_path(ignored) / "parley-slt-XXXXXX").string();
    const char* warehouse = mkdtemp(warehouse_template.data());
    if (warehouse == nullptr) {
      Fail(0, "cannot create a temporary warehouse directory", "");
      return {passed_, failed_};
    }
    SessionOptions session_options;
    session_options.warehouse = warehouse;
    session_options.conf = options_.conf;
    session_options.conf["parley.test.roundTripTasks"] = "true";
    session_options.conf["parley.verifyPushdown"] = "true";
    // Engine semantics are specified over the memory catalog; a file about Delta tables
    // switches the session catalog with SET spark.sql.catalog.spark_catalog=delta.
    session_options.conf.try_emplace("spark.sql.catalog.spark_catalog", "memory");
    auto session = Session::Make(std::move(session_options));
    if (!session.ok()) {
      Fail(0, "cannot create a session: " + session.status().ToString(), "");
    } else {
      for (const auto& record : parsed.records) {
        Status status = RunRecord(**session, record);
        if (status.ok()) {
          ++passed_;
        } else {
          Fail(record.line, status.message(), Substitute(record.sql));
        }
      }
    }
    fs::remove_all(warehouse, ignored);
    return {passed_, failed_};
  }

 private:
  std::string Substitute(const std::string& text) const {
    if (!options_.build_dir) return text;
    return ReplaceAll(text, kBuildDirToken, *options_.build_dir);
  }

  void Fail(int line, std::string_view message, std::string_view sql) {
    ++failed_;
    std::cout << fmt::format("FAIL {}:{}: {}\n", path_, line, message);
    if (!sql.empty()) {
      std::cout << "  SQL:\n" << Indent({std::string(sql)});
    }
    std::cout << std::endl;
  }

  // Runs the record's one statement; the error of the statement itself is returned as is,
  // any mismatch as a Status::Invalid describing it.
  Status RunRecord(Session& session, const Record& record) {
    if (!options_.build_dir && record.sql.find(kBuildDirToken) != std::string::npos) {
      return Status::Invalid("the SQL uses ", kBuildDirToken, " but no --build-dir was given");
    }
    std::string sql = Substitute(record.sql);
    Result<std::shared_ptr<arrow::Table>> result;
    auto statements = Session::SplitStatements(sql);
    if (!statements.ok()) {
      result = statements.status();  // an unterminated quote or comment is an error to check
    } else if (statements->size() != 1) {
      return Status::Invalid("a record must hold exactly one statement, found ",
                             statements->size());
    } else {
      // Positions in errors are relative to the record's SQL, so that moving a record within
      // its file does not change what it expects.
      const StatementText& statement = statements->front();
      result = session.Sql(statement.text, statement.start);
    }

    if (record.kind == RecordKind::kStatementError) return CheckError(record, result.status());
    if (!result.ok()) {
      return Status::Invalid("expected success, got: ", result.status().message());
    }
    switch (record.kind) {
      case RecordKind::kQuery: return CheckRows(record, **result);
      case RecordKind::kPlanContains:
      case RecordKind::kPlanNotContains: return CheckPlan(record, **result);
      default: return Status::OK();
    }
  }

  Status CheckError(const Record& record, const Status& status) const {
    if (status.ok()) return Status::Invalid("expected an error, the statement succeeded");
    std::string condition = ErrorCondition(status);
    if (!record.condition.empty() && condition != record.condition) {
      return Status::Invalid("expected error condition ", record.condition, ", got ",
                             condition.empty() ? "none" : condition, ": ", status.message());
    }
    std::string expected = Substitute(Join(record.expected, "\n"));
    if (status.message().find(expected) == std::string::npos) {
      return Status::Invalid("expected the error message to contain:\n", Indent({expected}),
                             "  got:\n", Indent({status.message()}));
    }
    return Status::OK();
  }

  Status CheckRows(const Record& record, const arrow::Table& table) const {
    if (static_cast<size_t>(table.num_columns()) != record.types.size()) {
      return Status::Invalid("`query ", record.types, "` declares ", record.types.size(),
                             " columns, the result has ", table.num_columns());
    }
    ARROW_ASSIGN_OR_RAISE(auto actual, RenderRows(table));
    std::vector<std::vector<std::string>> expected;
    for (const auto& line : record.expected) {
      expected.push_back(SplitExpectedRow(Substitute(line), record.types.size()));
    }
    if (record.rowsort) {
      std::sort(actual.begin(), actual.end());
      std::sort(expected.begin(), expected.end());
    }
    if (actual == expected) return Status::OK();
    auto lines = [](const std::vector<std::vector<std::string>>& rows) {
      std::vector<std::string> out;
      for (const auto& row : rows) out.push_back(Join(row, "\t"));
      return out;
    };
    return Status::Invalid("wrong result", record.rowsort ? " (rows sorted)" : "",
                           "\n  expected:\n", Indent(lines(expected)), "  actual:\n",
                           Indent(lines(actual)));
  }

  Status CheckPlan(const Record& record, const arrow::Table& table) const {
    ARROW_ASSIGN_OR_RAISE(auto rows, RenderRows(table));
    std::vector<std::string> plan_lines;
    for (const auto& row : rows) plan_lines.push_back(Join(row, "\t"));
    std::string plan = Join(plan_lines, "\n");
    size_t position = 0;
    for (const auto& raw : record.expected) {
      std::string line = Substitute(raw);
      size_t found = plan.find(line, record.kind == RecordKind::kPlanContains ? position : 0);
      if (record.kind == RecordKind::kPlanContains) {
        if (found == std::string::npos) {
          return Status::Invalid("the plan does not contain (after the lines before it):\n",
                                 Indent({line}), "  plan:\n", Indent(plan_lines));
        }
        position = found + line.size();
      } else if (found != std::string::npos) {
        return Status::Invalid("the plan contains:\n", Indent({line}), "  plan:\n",
                               Indent(plan_lines));
      }
    }
    return Status::OK();
  }

  std::string path_;
  const RunOptions& options_;
  int passed_ = 0;
  int failed_ = 0;
};

// The .slt files named by `paths`: files as given, directories searched recursively, sorted.
std::vector<std::string> CollectFiles(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const auto& path : paths) {
    if (!fs::is_directory(path)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : fs::recursive_directory_iterator(path)) {
      if (entry.is_regular_file() && entry.path().extension() == ".slt") {
        found.push_back(entry.path().string());
      }
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

int Main(int argc, char** argv) {
  CLI::App app{"Run SQL logic test files against Parley", "parley_slt"};
  RunOptions options;
  std::string build_dir;
  std::vector<std::string> conf;
  std::vector<std::string> paths;
  auto* build_dir_option =
      app.add_option("--build-dir", build_dir, "Directory that replaces __BUILD_DIR__ in SQL");
  app.add_option("--conf", conf, "Extra session configuration for every file")
      ->type_name("KEY=VALUE")
      ->check([](const std::string& entry) -> std::string {
        size_t eq = entry.find('=');
        return eq == std::string::npos || eq == 0 ? "expected KEY=VALUE, got '" + entry + "'"
                                                  : std::string();
      });
  app.add_option("paths", paths, ".slt files, or directories to search for them")
      ->required()
      ->check(CLI::ExistingPath);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == static_cast<int>(CLI::ExitCodes::Success) ? 0 : 2;
  }
  if (build_dir_option->count() > 0) options.build_dir = build_dir;
  for (const auto& entry : conf) {
    size_t eq = entry.find('=');
    options.conf[entry.substr(0, eq)] = entry.substr(eq + 1);
  }

  int passed = 0;
  int failed = 0;
  for (const auto& file : CollectFiles(paths)) {
    auto [file_passed, file_failed] = FileRunner(file, options).Run();
    passed += file_passed;
    failed += file_failed;
  }
  std::cout << passed << " passed, " << failed << " failed" << std::endl;
  return failed == 0 ? 0 : 1;
}

}  // namespace
}  // namespace parley::slt

int main(int argc, char** argv) { return parley::slt::Main(argc, argv); }
