// Crash safety of writes into a files table: a child `parley` process runs an INSERT and is
// killed (SIGKILL) at each fault point of the write protocol. Afterwards the table must hold the
// old rows (killed before the driver's commit point) or the old and the new rows (killed inside
// the commit, after its point of no return), never a part of the new rows or any row twice;
// staged files the dead process left behind must not be read, and the next write removes them.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

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

// Run the parley CLI with `args`, capturing stdout and stderr.
ChildResult RunParley(const std::vector<std::string>& args) {
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
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, PARLEY_CLI_PATH, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (spawned == 0) {
    char buffer[4096];
    ssize_t n;
    while ((n = read(pipe_fds[0], buffer, sizeof(buffer))) > 0) result.output.append(buffer, n);
    int status = 0;
    waitpid(pid, &status, 0);
    result.killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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

std::multiset<int> Range(int first, int count) {
  std::multiset<int> ids;
  for (int id = first; id < first + count; ++id) ids.insert(id);
  return ids;
}

class KillTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    table_ = fs::temp_directory_path() /
             ("parley-kill-" + std::to_string(getpid()) + "-" + GetParam());
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
    args.push_back("INSERT INTO parquet.`" + table_.string() + "` VALUES " +
                   Values(first, count) + " AS rows(id, value)");
    return RunParley(args);
  }

  std::multiset<int> ReadIds() {
    auto result = RunParley({"--output", "csv", "-c",
                             "SELECT id FROM parquet.`" + table_.string() + "` ORDER BY id"});
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
  ASSERT_TRUE(killed.killed) << "the write was not killed at " << point << ": "
                             << killed.output;
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

}  // namespace
}  // namespace parley
