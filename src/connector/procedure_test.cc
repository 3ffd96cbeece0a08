#include "parley/connector/procedure.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

using Parts = std::vector<std::string>;

TEST(ParseMultipartIdentifierTest, SplitsPlainAndQuotedParts) {
  EXPECT_EQ(*ParseMultipartIdentifier("db.t"), (Parts{"db", "t"}));
  EXPECT_EQ(*ParseMultipartIdentifier("t"), (Parts{"t"}));
  EXPECT_EQ(*ParseMultipartIdentifier(" cat . db . t "), (Parts{"cat", "db", "t"}));
  EXPECT_EQ(*ParseMultipartIdentifier("delta.`/data/my.table`"),
            (Parts{"delta", "/data/my.table"}));
  EXPECT_EQ(*ParseMultipartIdentifier("`a``b`.c"), (Parts{"a`b", "c"}));
  EXPECT_EQ(*ParseMultipartIdentifier("``"), (Parts{""}));
}

TEST(ParseMultipartIdentifierTest, RefusesMalformedNames) {
  for (const char* text : {"", "db.", ".t", "db..t", "`db", "db t", "`a`b"}) {
    auto parsed = ParseMultipartIdentifier(text);
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_EQ(ErrorCondition(parsed.status()), "PARSE_SYNTAX_ERROR") << text;
  }
}

TEST(ParseMultipartIdentifierTest, ReadsWhatQuoteMultipartIdentifierWrites) {
  Parts parts{"we.ird", "na`me", "/p/a th"};
  EXPECT_EQ(QuoteMultipartIdentifier(parts), "`we.ird`.`na``me`.`/p/a th`");
  EXPECT_EQ(*ParseMultipartIdentifier(QuoteMultipartIdentifier(parts)), parts);
}

}  // namespace
}  // namespace parley
