// SelectRows: the kept rows, in order, for dense, sparse, all, none and NULL selections.
#include "exec/row_selection.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "arrow/array.h"
#include "arrow/builder.h"
#include "arrow/compute/expression.h"
#include "arrow/record_batch.h"
#include "arrow/scalar.h"
#include "exec/executor.h"
#include "testing/gtest_util.h"

namespace parley {
namespace {

std::shared_ptr<arrow::RecordBatch> Numbered(int64_t rows) {
  arrow::Int64Builder ids;
  arrow::StringBuilder names;
  for (int64_t i = 0; i < rows; ++i) {
    EXPECT_TRUE(ids.Append(i).ok());
    EXPECT_TRUE(names.Append("n" + std::to_string(i)).ok());
  }
  auto schema =
      arrow::schema({arrow::field("id", arrow::int64()), arrow::field("name", arrow::utf8())});
  return arrow::RecordBatch::Make(schema, rows, {*ids.Finish(), *names.Finish()});
}

// A mask keeping the rows for which `keep` is true, NULL where `null` is.
std::shared_ptr<arrow::Array> Mask(int64_t rows, const std::function<bool(int64_t)>& keep,
                                   const std::function<bool(int64_t)>& null) {
  arrow::BooleanBuilder builder;
  for (int64_t i = 0; i < rows; ++i) {
    EXPECT_TRUE((null(i) ? builder.AppendNull() : builder.Append(keep(i))).ok());
  }
  return *builder.Finish();
}

// The ids and names of the rows `keep` selects (and `null` does not), in order.
void ExpectSelected(const arrow::RecordBatch& selected, int64_t rows,
                    const std::function<bool(int64_t)>& keep,
                    const std::function<bool(int64_t)>& null) {
  ASSERT_OK(selected.ValidateFull());
  const auto& ids = static_cast<const arrow::Int64Array&>(*selected.column(0));
  const auto& names = static_cast<const arrow::StringArray&>(*selected.column(1));
  int64_t out = 0;
  for (int64_t i = 0; i < rows; ++i) {
    if (null(i) || !keep(i)) continue;
    ASSERT_LT(out, selected.num_rows());
    EXPECT_EQ(ids.Value(out), i);
    EXPECT_EQ(names.GetString(out), "n" + std::to_string(i));
    ++out;
  }
  EXPECT_EQ(out, selected.num_rows());
}

TEST(SelectRowsTest, DenseAndSparseSelectionsKeepTheTrueRowsInOrder) {
  const int64_t rows = 1000;
  auto batch = Numbered(rows);
  using RowTest = std::function<bool(int64_t)>;
  for (const RowTest& keep :
       std::vector<RowTest>{[](int64_t i) { return i % 50 != 0; },     // dense: 98% kept
                            [](int64_t i) { return i % 50 == 0; }}) {  // sparse: 2% kept
    for (const RowTest& null : std::vector<RowTest>{[](int64_t) { return false; },
                                                    [](int64_t i) { return i % 7 == 3; }}) {
      ASSERT_OK_AND_ASSIGN(auto selected, SelectRows(batch, Mask(rows, keep, null)));
      ExpectSelected(*selected, rows, keep, null);
    }
  }
}

TEST(SelectRowsTest, AllRowsReturnTheBatchItselfAndNoneAnEmptyBatch) {
  auto batch = Numbered(10);
  auto none = [](int64_t) { return false; };
  ASSERT_OK_AND_ASSIGN(auto all, SelectRows(batch, Mask(
                                                       10, [](int64_t) { return true; }, none)));
  EXPECT_EQ(all.get(), batch.get());
  ASSERT_OK_AND_ASSIGN(auto empty, SelectRows(batch, Mask(10, none, none)));
  EXPECT_EQ(empty->num_rows(), 0);
  EXPECT_TRUE(empty->schema()->Equals(*batch->schema()));
  ASSERT_OK_AND_ASSIGN(auto nulls, SelectRows(batch, Mask(10, none, [](int64_t) { return true; })));
  EXPECT_EQ(nulls->num_rows(), 0);
  ASSERT_OK_AND_ASSIGN(
      auto scalar_true,
      SelectRows(batch, arrow::Datum(std::make_shared<arrow::BooleanScalar>(true))));
  EXPECT_EQ(scalar_true.get(), batch.get());
  ASSERT_OK_AND_ASSIGN(auto scalar_null,
                       SelectRows(batch, arrow::Datum(arrow::MakeNullScalar(arrow::boolean()))));
  EXPECT_EQ(scalar_null->num_rows(), 0);
}

namespace cp = arrow::compute;

// The ids kept from Numbered(100) by the conjuncts, bound to its schema.
Result<std::vector<int64_t>> IdsWhere(std::vector<cp::Expression> conjuncts) {
  ARROW_RETURN_NOT_OK(EnsureComputeInitialized());
  auto batch = Numbered(100);
  for (auto& conjunct : conjuncts) {
    ARROW_ASSIGN_OR_RAISE(conjunct, conjunct.Bind(*batch->schema()));
  }
  ARROW_ASSIGN_OR_RAISE(auto kept, SelectRowsWhere(batch, conjuncts));
  std::vector<int64_t> ids;
  const auto& column = static_cast<const arrow::Int64Array&>(*kept->column(0));
  for (int64_t i = 0; i < column.length(); ++i) ids.push_back(column.Value(i));
  return ids;
}

TEST(SelectRowsWhereTest, ConjunctsKeepTheRowsWhereAllAreTrue) {
  auto id = cp::field_ref("id");
  auto literal = [](int64_t value) { return cp::literal(value); };
  // Not selective, then selective, then not: every combination of narrowing and combining.
  ASSERT_OK_AND_ASSIGN(auto ids, IdsWhere({cp::not_equal(id, literal(7)), cp::less(id, literal(10)),
                                           cp::greater(id, literal(2))}));
  EXPECT_EQ(ids, (std::vector<int64_t>{3, 4, 5, 6, 8, 9}));
  // NULL keeps no row, in a conjunct combined with the next or in one that narrows the batch.
  auto null_below = [&](int64_t bound) {
    return cp::call("if_else",
                    {cp::less(id, literal(bound)),
                     cp::literal(arrow::MakeNullScalar(arrow::boolean())), cp::literal(true)});
  };
  ASSERT_OK_AND_ASSIGN(ids, IdsWhere({null_below(3), cp::less(id, literal(6))}));
  EXPECT_EQ(ids, (std::vector<int64_t>{3, 4, 5}));
  ASSERT_OK_AND_ASSIGN(ids, IdsWhere({null_below(95), cp::not_equal(id, literal(97))}));
  EXPECT_EQ(ids, (std::vector<int64_t>{95, 96, 98, 99}));
  EXPECT_EQ(Conjuncts(cp::and_({cp::less(id, literal(1)), cp::and_(id, id)})).size(), 3u);
}

TEST(SelectRowsWhereTest, ALaterConjunctSeesOnlyTheRowsASelectiveOneKept) {
  auto id = cp::field_ref("id");
  // 100 / (id - 5) fails on row 5, which the first conjunct (10% of the rows) rejects.
  auto quotient_positive = cp::greater(
      cp::call("divide_checked",
               {cp::literal(int64_t{100}), cp::call("subtract", {id, cp::literal(int64_t{5})})}),
      cp::literal(int64_t{0}));
  ASSERT_OK_AND_ASSIGN(
      auto ids, IdsWhere({cp::greater_equal(id, cp::literal(int64_t{90})), quotient_positive}));
  EXPECT_EQ(ids.size(), 10u);
  EXPECT_EQ(ids.front(), 90);
  // Evaluated first, on every row, the same conjunct fails.
  EXPECT_FALSE(IdsWhere({quotient_positive, cp::greater_equal(id, cp::literal(int64_t{90}))}).ok());
}

}  // namespace
}  // namespace parley
