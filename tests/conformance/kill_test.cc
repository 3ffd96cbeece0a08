// Crash safety of writes: a child `parley` process runs an INSERT and is killed (SIGKILL) at
// each fault point of the write protocol, and (KillSweepTest) at every filesystem operation it
// performs, into a files table and into a Delta table. Afterwards the table must hold the
// old rows (killed before the driver's commit point) or the old and the new rows (killed inside
// the commit, after its point of no return), never a part of the new rows or any row twice;
// staged files the dead process left behind must not be read, and the next write removes them.
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "parley/connector/fault_injection.h"

extern char** environ;

namespace parley {
namespace {

namespace fs = std::filesystem;

struct ChildResult {
  bool killed = false;  // ended by SIGKILL
  int exit_code = -1;
  std::string output;
};

// A child still running after this long is hung: it is killed and its run fails.
constexpr auto kChildDeadline = std::chrono::seconds(120);

// Read the child's output from `fd` until it closes it (true), or kill `pid` at the deadline
// (false; the output then ends with a line saying so).
bool ReadUntilExitOrDeadline(int fd, pid_t pid, std::string* output) {
  const auto deadline = std::chrono::steady_clock::now() + kChildDeadline;
  char buffer[4096];
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd ready{fd, POLLIN, 0};
    if (left.count() <= 0 || poll(&ready, 1, static_cast<int>(left.count())) == 0) {
      kill(pid, SIGKILL);
      output->append("\n[the child was still running after its deadline and was killed]\n");
      return false;
    }
    ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n <= 0) return true;
    output->append(buffer, n);
  }
}

// Run the parley CLI with `args` and `extra_env` ("KEY=value") added to this process's
// environment, capturing stdout and stderr. A run past kChildDeadline counts as neither killed
// nor exited.
ChildResult RunParley(const std::vector<std::string>& args,
                      const std::vector<std::string>& extra_env = {}) {
  ChildResult result;
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return result;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  std::vector<std::string> all = {PARLEY_CLI_PATH};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& arg : all) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_entries = extra_env;
  std::vector<char*> env;
  for (auto& entry : env_entries) env.push_back(entry.data());
  for (char** entry = environ; *entry != nullptr; ++entry) env.push_back(*entry);
  env.push_back(nullptr);
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, PARLEY_CLI_PATH, &actions, nullptr, argv.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (spawned == 0) {
    const bool hung = !ReadUntilExitOrDeadline(pipe_fds[0], pid, &result.output);
    int status = 0;
    waitpid(pid, &status, 0);
    result.killed = !hung && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    result.exit_code = !hung && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  close(pipe_fds[0]);
  return result;
}

std::string Values(int first, int count) {
  std::string values;
  for (int id = first; id < first + count; ++id) {
    if (!values.empty()) values += ", ";
    values += "(" + std::to_string(id) + ", 'v" + std::to_string(id) + "')";
  }
  return values;
}

// The ids a successful `SELECT id ...` printed as CSV.
std::multiset<int> IdsOf(const ChildResult& result) {
  EXPECT_EQ(result.exit_code, 0) << result.output;
  std::multiset<int> ids;
  std::istringstream lines(result.output);
  std::string line;
  std::getline(lines, line);  // header
  while (std::getline(lines, line)) {
    if (!line.empty()) ids.insert(std::stoi(line));
  }
  return ids;
}

std::multiset<int> Range(int first, int count) {
  std::multiset<int> ids;
  for (int id = first; id < first + count; ++id) ids.insert(id);
  return ids;
}

class KillTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    table_ =
        fs::temp_directory_path() / ("parley-kill-" + std::to_string(getpid()) + "-" + GetParam());
    fs::remove_all(table_);
  }
  void TearDown() override { fs::remove_all(table_); }

  // INSERT rows first..first+count-1 in tasks of three rows; `faults` arms fault points.
  ChildResult Insert(int first, int count, const std::string& faults = "") {
    std::vector<std::string> args = {"--conf", "parley.write.rowsPerTask=3"};
    if (!faults.empty()) {
      args.push_back("--conf");
      args.push_back(std::string("parley.test.faultInjection=") + faults);
    }
    args.push_back("-c");
    args.push_back("INSERT INTO parquet.`" + table_.string() + "` VALUES " + Values(first, count) +
                   " AS rows(id, value)");
    return RunParley(args);
  }

  std::multiset<int> ReadIds() {
    return IdsOf(RunParley(
        {"--output", "csv", "-c", "SELECT id FROM parquet.`" + table_.string() + "` ORDER BY id"}));
  }

  // Entries under the table's staging directory (what a killed write left behind).
  int StagedEntries() {
    fs::path staging = table_ / "_temporary";
    if (!fs::exists(staging)) return 0;
    int count = 0;
    for (const auto& entry : fs::recursive_directory_iterator(staging)) {
      (void)entry;
      ++count;
    }
    return count;
  }

  fs::path table_;
};

TEST_P(KillTest, TableHoldsOldOrOldAndNewRows) {
  const std::string point = GetParam();
  ASSERT_EQ(Insert(0, 10).exit_code, 0);
  ASSERT_EQ(ReadIds(), Range(0, 10));

  ChildResult killed = Insert(100, 10, point + ":kill");
  ASSERT_TRUE(killed.killed) << "the write was not killed at " << point << ": " << killed.output;
  const bool after_commit_point = point == kFaultDriverInsideCommit;
  const auto old_rows = Range(0, 10);
  auto old_and_new = old_rows;
  for (int id : Range(100, 10)) old_and_new.insert(id);
  if (point != kFaultTaskBeforeWrite) {
    EXPECT_GT(StagedEntries(), 0) << "a write killed at " << point << " leaves staged files";
  }
  // A reader completes a commit that passed its point of no return, and ignores the rest.
  auto seen = ReadIds();
  EXPECT_EQ(seen, after_commit_point ? old_and_new : old_rows);

  // The next write removes what the killed one staged and adds its rows once.
  ASSERT_EQ(Insert(200, 4).exit_code, 0);
  EXPECT_EQ(StagedEntries(), 0);
  auto expected = seen;
  for (int id : Range(200, 4)) expected.insert(id);
  EXPECT_EQ(ReadIds(), expected);
}

INSTANTIATE_TEST_SUITE_P(FaultPoints, KillTest,
                         ::testing::Values(kFaultTaskBeforeWrite, kFaultTaskBeforeCommit,
                                           kFaultDriverBeforeCommit, kFaultDriverInsideCommit),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (auto& c : name) {
                             if (c == '.') c = '_';
                           }
                           return name;
                         });

// The tables the filesystem kill sweep writes: `$T` is the table's directory.
struct KillSweepCase {
  const char* name;
  std::vector<std::string> conf;
  std::string table;   // the table as SQL names it
  std::string create;  // what creates it, if an INSERT does not
};

const KillSweepCase kKillSweepCases[] = {
    {"files_parquet", {}, "parquet.`$T`", ""},
    {"delta",
     {"spark.sql.catalog.spark_catalog=delta"},
     "delta.`$T`",
     "CREATE TABLE delta.`$T` (id INT, value STRING) USING delta"},
};

class KillSweepTest : public ::testing::TestWithParam<KillSweepCase> {
 protected:
  void SetUp() override {
    // In memory where the machine has it: the sweep starts a process per operation, and what
    // it checks is the protocol, not the disk's fsync.
    const fs::path base =
        fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    dir_ = base / ("parley-kill-sweep-" + std::to_string(getpid()) + "-" + GetParam().name);
    fs::remove_all(dir_);
    table_ = WithTable(GetParam().table);
  }
  std::string WithTable(std::string text) const {
    text.replace(text.find("$T"), 2, (dir_ / "t").string());
    return text;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> Args(const std::string& sql, bool csv = false) {
    std::vector<std::string> args = {"--warehouse", (dir_ / "warehouse").string()};
    for (const auto& conf : GetParam().conf) {
      args.push_back("--conf");
      args.push_back(conf);
    }
    if (csv) {
      args.push_back("--output");
      args.push_back("csv");
    }
    args.push_back("-c");
    args.push_back(sql);
    return args;
  }

  // INSERT rows first..first+count-1, killed at filesystem operation `kill_at` (0: never).
  ChildResult Insert(int first, int count, int kill_at = 0) {
    std::vector<std::string> env;
    if (kill_at > 0) env.push_back("PARLEY_FILESYSTEM_FAULT=" + std::to_string(kill_at) + ":kill");
    return RunParley(Args("INSERT INTO " + table_ + " SELECT * FROM VALUES " +
                          Values(first, count) + " AS rows(id, value)"),
                     env);
  }

  std::multiset<int> ReadIds() {
    return IdsOf(RunParley(Args("SELECT id FROM " + table_ + " ORDER BY id", /*csv=*/true)));
  }

  fs::path dir_;
  std::string table_;
};

// Kill the INSERT at operation 1, 2, ... until one runs to the end: after each kill the table
// holds the old rows or the old and the new, and the next INSERT succeeds and adds its rows.
TEST_P(KillSweepTest, EveryFilesystemOperation) {
  const fs::path start = dir_ / "start";
  if (!GetParam().create.empty()) {
    ChildResult created = RunParley(Args(WithTable(GetParam().create)));
    ASSERT_EQ(created.exit_code, 0) << created.output;
  }
  ASSERT_EQ(Insert(0, 5).exit_code, 0);
  fs::rename(dir_ / "t", start);
  const auto old_rows = Range(0, 5);
  auto old_and_new = old_rows;
  for (int id : Range(100, 5)) old_and_new.insert(id);
  int kills = 0, committed = 0;
  for (int n = 1;; ++n) {
    SCOPED_TRACE("killed at filesystem operation " + std::to_string(n));
    fs::remove_all(dir_ / "t");
    fs::copy(start, dir_ / "t", fs::copy_options::recursive);
    ChildResult run = Insert(100, 5, n);
    if (!run.killed) {
      ASSERT_EQ(run.exit_code, 0) << run.output;
      ASSERT_EQ(ReadIds(), old_and_new);
      break;
    }
    ASSERT_LT(n, 1000) << "the write never ends";
    ++kills;
    auto seen = ReadIds();
    ASSERT_TRUE(seen == old_rows || seen == old_and_new) << ::testing::PrintToString(seen);
    committed += seen == old_and_new;
    ASSERT_EQ(Insert(200, 2).exit_code, 0);
    auto expected = seen;
    for (int id : Range(200, 2)) expected.insert(id);
    ASSERT_EQ(ReadIds(), expected);
  }
  EXPECT_GT(kills, 5);
  std::printf(
      "[ kills    ] %s: killed at each of %d filesystem operations, %d after the commit "
      "point, 0 torn, 0 lost\n",
      GetParam().name, kills, committed);
}

INSTANTIATE_TEST_SUITE_P(Tables, KillSweepTest, ::testing::ValuesIn(kKillSweepCases),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace parley
