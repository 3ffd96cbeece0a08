// Tests for the CHANGES clause of a table reference and for ParseTableName.
#include <gtest/gtest.h>

#include <string>

#include "sql/ast_printer.h"
#include "sql/parser.h"
#include "testing/gtest_util.h"

namespace parley::sql {
namespace {

Result<std::unique_ptr<FromItem>> ParseFrom(std::string_view from) {
  ARROW_ASSIGN_OR_RAISE(Statement statement, ParseStatement("SELECT * FROM " + std::string(from)));
  auto& select = std::get<SelectStatement>(statement.node);
  if (!select.from_item) return Status::Invalid("no FROM item");
  return std::move(select.from_item);
}

std::string Render(std::string_view from) {
  auto item = ParseFrom(from);
  if (!item.ok()) return item.status().message();
  return ToString(**item);
}

TEST(ParserChangesTest, BoundsAndOptions) {
  ASSERT_OK_AND_ASSIGN(auto item,
                       ParseFrom("cat.db.t CHANGES FROM VERSION 1 EXCLUSIVE TO VERSION '5' "
                                 "INCLUSIVE WITH (deduplicationMode = 'netChanges', "
                                 "'computeUpdates' = 'true', customOption = 'x') AS c"));
  ASSERT_TRUE(item->changes.has_value());
  const ChangesClause& changes = *item->changes;
  EXPECT_FALSE(changes.from.timestamp);
  EXPECT_EQ(changes.from.value, "1");
  EXPECT_EQ(changes.from.inclusive, false);
  ASSERT_TRUE(changes.to.has_value());
  EXPECT_EQ(changes.to->value, "5");
  EXPECT_EQ(changes.to->inclusive, true);
  ASSERT_EQ(changes.options.size(), 3u);
  EXPECT_EQ(changes.options[1].first, "computeUpdates");
  EXPECT_EQ(changes.options[1].second, "true");
  EXPECT_EQ(item->alias, "c");
  EXPECT_EQ(changes.pos.column, 24);
}

TEST(ParserChangesTest, EveryConfirmedFormRendersBack) {
  EXPECT_EQ(Render("t CHANGES FROM VERSION 1 TO VERSION 5"),
            "t CHANGES FROM VERSION 1 TO VERSION 5");
  EXPECT_EQ(Render("t CHANGES FROM VERSION 1"), "t CHANGES FROM VERSION 1");
  EXPECT_EQ(Render("t CHANGES FROM VERSION '1'"), "t CHANGES FROM VERSION 1");
  EXPECT_EQ(Render("t CHANGES FROM VERSION 'v1'"), "t CHANGES FROM VERSION 'v1'");
  EXPECT_EQ(Render("t CHANGES FROM SYSTEM_VERSION 1 TO VERSION 9"),
            "t CHANGES FROM VERSION 1 TO VERSION 9");
  EXPECT_EQ(Render("t CHANGES FROM TIMESTAMP '2024-01-01 00:00:00' TO TIMESTAMP "
                   "'2024-12-31 23:59:59'"),
            "t CHANGES FROM TIMESTAMP '2024-01-01 00:00:00' TO TIMESTAMP '2024-12-31 23:59:59'");
  EXPECT_EQ(Render("t CHANGES FROM VERSION 1 WITH (deduplicationMode = 'none')"),
            "t CHANGES FROM VERSION 1 WITH ('deduplicationMode' = 'none')");
  EXPECT_EQ(Render("t CHANGES FROM VERSION 1 c JOIN u ON c.id = u.id"),
            "t CHANGES FROM VERSION 1 AS c JOIN u ON (c.id = u.id)");
}

TEST(ParserChangesTest, ChangesWithoutFromIsAnAlias) {
  ASSERT_OK_AND_ASSIGN(auto item, ParseFrom("t changes"));
  EXPECT_FALSE(item->changes.has_value());
  EXPECT_EQ(item->alias, "changes");
}

TEST(ParserChangesTest, MalformedClausesAreSyntaxErrors) {
  for (const char* text :
       {"SELECT * FROM t CHANGES FROM 1", "SELECT * FROM t CHANGES FROM VERSION",
        "SELECT * FROM t CHANGES FROM VERSION x", "SELECT * FROM t CHANGES FROM TIMESTAMP 5",
        "SELECT * FROM t CHANGES FROM VERSION 1 TO",
        "SELECT * FROM t CHANGES FROM VERSION 1 WITH (mode)"}) {
    EXPECT_FALSE(ParseStatement(text).ok()) << text;
  }
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR",
                          ParseStatement("SELECT * FROM t CHANGES FROM VERSION"));
}

TEST(ParseTableNameTest, QualifiedNamesWithQuotes) {
  ASSERT_OK_AND_ASSIGN(auto name, ParseTableName("cat.`my db`.t"));
  EXPECT_EQ(name.parts, (std::vector<std::string>{"cat", "my db", "t"}));
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", ParseTableName("cat.db.t extra"));
}

}  // namespace
}  // namespace parley::sql
