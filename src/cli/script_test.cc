// The parley program's statement runner: Ctrl-C (SIGINT) while a statement runs cancels that
// statement with OPERATION_CANCELED and the program goes on; between statements SIGINT keeps
// its usual disposition.
#include "cli/script.h"

#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "testing/gtest_util.h"
#include "testing/test_connector.h"

namespace parley::cli {
namespace {

using testing::MakeIntTable;
using testing::TestCatalog;
using testing::TestTableOptions;

// The disposition of SIGINT now.
void (*SigintHandler())(int) {
  struct sigaction current {};
  sigaction(SIGINT, nullptr, &current);
  return current.sa_handler;
}

TEST(ScriptTest, CtrlCCancelsTheRunningStatementOnly) {
  SessionOptions options;
  options.conf["spark.sql.catalog.spark_catalog"] = "memory";
  ASSERT_OK_AND_ASSIGN(auto session, Session::Make(options));
  auto catalog = std::make_shared<TestCatalog>();
  TestTableOptions endless;
  endless.endless = true;
  endless.batch_rows = 1;
  catalog->AddTable("endless", MakeIntTable({"a"}, {{1, 2, 3}}), endless);
  ASSERT_OK(session->RegisterCatalog("tc", catalog));
  const auto before = SigintHandler();

  std::thread interrupter([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(::getpid(), SIGINT);
  });
  std::ostringstream out;
  auto start = std::chrono::steady_clock::now();
  Status status = RunStatement(*session, {"SELECT count(*) FROM tc.default.endless", {}},
                               ResultFormat::kTable, out);
  interrupter.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(ErrorCondition(status), "OPERATION_CANCELED") << status.ToString();
  EXPECT_NE(status.message().find("Ctrl-C"), std::string::npos) << status.message();
  EXPECT_EQ(SigintHandler(), before);

  // The next statement runs as usual.
  ASSERT_OK(RunStatement(*session, {"SELECT 41 + 1 AS answer", {}}, ResultFormat::kTable, out));
  EXPECT_NE(out.str().find("42"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace parley::cli
