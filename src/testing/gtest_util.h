// GoogleTest helpers for arrow::Status / arrow::Result and Parley's error conditions.
#pragma once

#include <gtest/gtest.h>

#include "parley/connector/status.h"

/// Assert that a Status-returning expression succeeds, printing the status otherwise.
#define ASSERT_OK(expr)                            \
  do {                                             \
    ::arrow::Status _st = ::arrow::ToStatus(expr); \
    ASSERT_TRUE(_st.ok()) << _st.ToString();       \
  } while (false)

#define EXPECT_OK(expr)                            \
  do {                                             \
    ::arrow::Status _st = ::arrow::ToStatus(expr); \
    EXPECT_TRUE(_st.ok()) << _st.ToString();       \
  } while (false)

#define PARLEY_CONCAT_INNER(a, b) a##b
#define PARLEY_CONCAT(a, b) PARLEY_CONCAT_INNER(a, b)

/// Assert that a Result-returning expression succeeds and move its value into `lhs`.
#define ASSERT_OK_AND_ASSIGN(lhs, rexpr) \
  ASSERT_OK_AND_ASSIGN_IMPL(PARLEY_CONCAT(_result_, __COUNTER__), lhs, rexpr)
#define ASSERT_OK_AND_ASSIGN_IMPL(result, lhs, rexpr)     \
  auto result = (rexpr);                                  \
  ASSERT_TRUE(result.ok()) << result.status().ToString(); \
  lhs = std::move(result).ValueUnsafe();

/// Assert that a Status or Result fails with the given Spark-style error condition.
#define ASSERT_RAISES_CONDITION(condition, expr)                             \
  do {                                                                       \
    ::arrow::Status _st = ::arrow::ToStatus(expr);                           \
    ASSERT_FALSE(_st.ok()) << "expected " << (condition) << ", got OK";      \
    ASSERT_EQ(::parley::ErrorCondition(_st), (condition)) << _st.ToString(); \
  } while (false)
