// Tests for the Spark SQL tokenizer: token kinds and values, Spark's literal rules, comments,
// positions, malformed input and the error-message format shared with the parser.
#include "sql/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/gtest_util.h"

namespace parley::sql {
namespace {

// The tokens of `text` without the final kEnd, as "kind:value" strings.
std::vector<std::string> Describe(std::string_view text) {
  std::vector<std::string> out;
  for (const Token& token : Tokenize(text)) {
    if (token.kind == TokenKind::kEnd) break;
    std::string kind;
    switch (token.kind) {
      case TokenKind::kWord: kind = "word"; break;
      case TokenKind::kQuotedIdentifier: kind = "quoted"; break;
      case TokenKind::kString: kind = "string"; break;
      case TokenKind::kBinaryString: kind = "binary"; break;
      case TokenKind::kInteger: kind = "int"; break;
      case TokenKind::kDecimal: kind = "decimal"; break;
      case TokenKind::kDouble: kind = "double"; break;
      case TokenKind::kOperator: kind = "op"; break;
      case TokenKind::kInvalid: kind = "invalid"; break;
      case TokenKind::kEnd: break;
    }
    out.push_back(kind + ":" + token.value);
  }
  return out;
}

using Strings = std::vector<std::string>;

TEST(LexerTest, WordsKeepTheirCase) {
  EXPECT_EQ(Describe("SELECT Foo, _bar1 from T"),
            (Strings{"word:SELECT", "word:Foo", "op:,", "word:_bar1", "word:from", "word:T"}));
}

TEST(LexerTest, DoubleColonIsOneOperatorAndAColonAnother) {
  // A colon alone separates a struct field's name from its type: STRUCT<a: INT>.
  EXPECT_EQ(Describe("a::int:::b"),
            (Strings{"word:a", "op:::", "word:int", "op:::", "op::", "word:b"}));
}

TEST(LexerTest, ArrowIsOneOperator) {
  EXPECT_EQ(Describe("x -> x"), (Strings{"word:x", "op:->", "word:x"}));
}

TEST(LexerTest, KeywordComparisonIsCaseInsensitive) {
  std::vector<Token> tokens = Tokenize("sElEcT `select`");
  EXPECT_TRUE(tokens[0].IsWord("SELECT"));
  EXPECT_FALSE(tokens[0].IsWord("SELECTS"));
  EXPECT_FALSE(tokens[1].IsWord("SELECT"));  // quoted identifiers are never keywords
}

TEST(LexerTest, Operators) {
  EXPECT_EQ(Describe("a<=>b<=c>=d<>e!=f==g||h|i"),
            (Strings{"word:a", "op:<=>", "word:b", "op:<=", "word:c", "op:>=", "word:d", "op:<>",
                     "word:e", "op:!=", "word:f", "op:==", "word:g", "op:||", "word:h", "op:|",
                     "word:i"}));
  EXPECT_EQ(
      Describe("(a+-b)*c/d%e&f^~g;"),
      (Strings{"op:(", "word:a", "op:+", "op:-", "word:b", "op:)", "op:*", "word:c", "op:/",
               "word:d", "op:%", "word:e", "op:&", "word:f", "op:^", "op:~", "word:g", "op:;"}));
}

TEST(LexerTest, Numbers) {
  EXPECT_EQ(Describe("1 1L 2s 3Y 1.5 .5 1. 1.5BD 7bd 1e3 1.5E-2 2e+1 1.5D 1F"),
            (Strings{"int:1", "int:1L", "int:2s", "int:3Y", "decimal:1.5", "decimal:.5",
                     "decimal:1.", "decimal:1.5BD", "decimal:7bd", "double:1e3", "double:1.5E-2",
                     "double:2e+1", "double:1.5D", "double:1F"}));
}

TEST(LexerTest, DigitsFollowedByLettersAreAnIdentifier) {
  // ANTLR's longest match: Spark reads `1a` and `10days` as identifiers.
  EXPECT_EQ(Describe("1a 10days 1e 1L"), (Strings{"word:1a", "word:10days", "word:1e", "int:1L"}));
}

TEST(LexerTest, MalformedNumber) {
  EXPECT_EQ(Describe("1.5x"), (Strings{"invalid:Invalid numeric literal '1.5x'"}));
}

TEST(LexerTest, NumberThenDot) {
  // A qualified name is not a number: t.a lexes as word, op, word.
  EXPECT_EQ(Describe("t.a t1.b"),
            (Strings{"word:t", "op:.", "word:a", "word:t1", "op:.", "word:b"}));
}

TEST(LexerTest, StringsAreUnescaped) {
  EXPECT_EQ(Describe(R"('it\'s' "say \"hi\"" 'a\tb\nc\\d')"),
            (Strings{"string:it's", "string:say \"hi\"", "string:a\tb\nc\\d"}));
  // Spark's remaining escapes: \u, octal, \Z, \% and \_ keep the backslash, others drop it.
  EXPECT_EQ(Describe(R"('\u00e9\101\Z\%\_\q')"), (Strings{"string:\xC3\xA9"
                                                          "A\x1A\\%\\_q"}));
  // The other quote needs no escape.
  EXPECT_EQ(Describe(R"('say "hi"' "it's")"), (Strings{"string:say \"hi\"", "string:it's"}));
  // A quote written twice stands for one (Spark: 'it''s' is it's); quotes at the ends too.
  EXPECT_EQ(Describe(R"('it''s' "d""q" 'x''' '''' '' 'a' 'b')"),
            (Strings{"string:it's", "string:d\"q", "string:x'", "string:'", "string:", "string:a",
                     "string:b"}));
  EXPECT_EQ(Describe(R"('a\\''b')"), (Strings{"string:a\\'b"}));
}

TEST(LexerTest, RawAndBinaryStrings) {
  EXPECT_EQ(Describe(R"(r'a\nb' X'0aFF' x"12")"),
            (Strings{"string:a\\nb", "binary:0aFF", "binary:12"}));
  EXPECT_EQ(Describe("X'0G'"),
            (Strings{"invalid:Invalid binary literal X'0G': only hexadecimal digits are allowed"}));
}

TEST(LexerTest, QuotedIdentifiers) {
  EXPECT_EQ(Describe("`a b` `x``y` `select`"),
            (Strings{"quoted:a b", "quoted:x`y", "quoted:select"}));
}

TEST(LexerTest, CommentsAreSkipped) {
  EXPECT_EQ(Describe("a -- comment ; 'x\nb /* one /* nested */ still */ c /*+ hint */ d"),
            (Strings{"word:a", "word:b", "word:c", "word:d"}));
  EXPECT_EQ(Describe("a - -1"), (Strings{"word:a", "op:-", "op:-", "int:1"}));
  EXPECT_EQ(Describe("a--1"), (Strings{"word:a"}));
}

TEST(LexerTest, UnterminatedConstructsSwallowTheRest) {
  EXPECT_EQ(Describe("a 'bc; d"),
            (Strings{"word:a", "invalid:Unterminated string literal: missing closing quote"}));
  EXPECT_EQ(Describe("a \"bc\\\""),
            (Strings{"word:a", "invalid:Unterminated string literal: missing closing quote"}));
  EXPECT_EQ(
      Describe("a `b"),
      (Strings{"word:a", "invalid:Unterminated quoted identifier: missing closing backquote"}));
  EXPECT_EQ(Describe("a /* b /* c */"),
            (Strings{"word:a", "invalid:Unterminated comment: '/*' has no matching '*/'"}));
}

TEST(LexerTest, UnexpectedCharacterIsOneInvalidToken) {
  EXPECT_EQ(Describe("a # b"),
            (Strings{"word:a", "invalid:Syntax error at or near '#'", "word:b"}));
}

TEST(LexerTest, OffsetsAndPositions) {
  std::string text = "SELECT a,\n  `b` + 1\n\tFROM t";
  std::vector<Token> tokens = Tokenize(text);
  ASSERT_EQ(tokens.size(), 9u);
  EXPECT_EQ(text.substr(tokens[3].begin, tokens[3].end - tokens[3].begin), "`b`");
  EXPECT_EQ(tokens[3].pos.line, 2);
  EXPECT_EQ(tokens[3].pos.column, 3);
  EXPECT_EQ(tokens[5].pos.line, 2);
  EXPECT_EQ(tokens[5].pos.column, 9);
  EXPECT_EQ(tokens[6].pos.line, 3);  // a tab is one column
  EXPECT_EQ(tokens[6].pos.column, 2);
  // The end token sits just after the last token.
  EXPECT_EQ(tokens[8].kind, TokenKind::kEnd);
  EXPECT_EQ(tokens[8].begin, text.size());
  EXPECT_EQ(tokens[8].pos.line, 3);
  EXPECT_EQ(tokens[8].pos.column, 8);
}

TEST(LexerTest, ColumnsCountCodePoints) {
  std::vector<Token> tokens = Tokenize("'h\xC3\xA9llo' x");
  EXPECT_EQ(tokens[1].pos.column, 9);
}

TEST(LexerTest, OriginShiftsTheFirstLineOnly) {
  std::vector<Token> tokens = Tokenize("a b\nc", SourcePosition{4, 10});
  EXPECT_EQ(tokens[0].pos.line, 4);
  EXPECT_EQ(tokens[0].pos.column, 10);
  EXPECT_EQ(tokens[1].pos.column, 12);
  EXPECT_EQ(tokens[2].pos.line, 5);
  EXPECT_EQ(tokens[2].pos.column, 1);
}

TEST(LexerTest, EmptyInputHasOnlyTheEndToken) {
  std::vector<Token> tokens = Tokenize("  -- nothing\n", SourcePosition{2, 3});
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_EQ(tokens[0].kind, TokenKind::kEnd);
  EXPECT_EQ(tokens[0].pos.line, 2);
  EXPECT_EQ(tokens[0].pos.column, 3);
}

TEST(LexerTest, TokenizeStrictReportsTheFirstInvalidToken) {
  ASSERT_OK_AND_ASSIGN(auto tokens, TokenizeStrict("a 'b'"));
  EXPECT_EQ(tokens.size(), 3u);
  Status status = TokenizeStrict("x = 1\n  AND y = 'abc").status();
  ASSERT_RAISES_CONDITION("PARSE_SYNTAX_ERROR", status);
  EXPECT_EQ(status.message(),
            "[PARSE_SYNTAX_ERROR] Unterminated string literal: missing closing quote. "
            "(line 2, column 11)\n"
            "== SQL (line 2, column 11) ==\n"
            "  AND y = 'abc\n"
            "          ^");
}

TEST(LexerTest, CaretKeepsTabsAndCountsCodePoints) {
  std::string text = "\t'\xC3\xA9' #";
  std::vector<Token> tokens = Tokenize(text);
  Status status = UnexpectedTokenError(text, tokens[1]);
  EXPECT_EQ(status.message(),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near '#'. (line 1, column 6)\n"
            "== SQL (line 1, column 6) ==\n"
            "\t'\xC3\xA9' #\n"
            "\t    ^");
}

}  // namespace
}  // namespace parley::sql
