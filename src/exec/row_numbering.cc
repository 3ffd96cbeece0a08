// Streaming row_number() OVER (): a reader that appends a running count to each batch.
#include "exec/row_numbering.h"

#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "arrow/array.h"
#include "arrow/buffer.h"
#include "kernels/spark_errors.h"

namespace parley {
namespace {

class RowNumberReader : public arrow::RecordBatchReader {
 public:
  RowNumberReader(const PlanNode& node, std::shared_ptr<arrow::RecordBatchReader> input)
      : input_(std::move(input)), schema_(node.OutputSchema()) {
    const size_t passed = node.output.size() - node.window_calls.size();
    for (size_t i = 0; i < passed; ++i) {
      passed_.push_back(input_->schema()->GetFieldIndex(node.output[i].name));
    }
    calls_ = static_cast<int>(node.window_calls.size());
  }

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }

  Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    std::shared_ptr<arrow::RecordBatch> in;
    Status read = input_->ReadNext(&in);
    if (!read.ok()) return ToSparkError(read);
    if (in == nullptr) {
      *batch = nullptr;
      return Status::OK();
    }
    const int64_t rows = in->num_rows();
    if (next_ + rows - 1 > std::numeric_limits<int32_t>::max()) {
      return Status::Invalid("row_number() over more than 2^31 - 1 rows");
    }
    ARROW_ASSIGN_OR_RAISE(auto values, arrow::AllocateBuffer(rows * sizeof(int32_t)));
    auto* data = reinterpret_cast<int32_t*>(values->mutable_data());
    std::iota(data, data + rows, static_cast<int32_t>(next_));
    next_ += rows;
    auto numbers = std::make_shared<arrow::Int32Array>(rows, std::move(values));
    arrow::ArrayVector columns;
    for (int index : passed_) columns.push_back(in->column(index));
    for (int i = 0; i < calls_; ++i) columns.push_back(numbers);
    *batch = arrow::RecordBatch::Make(schema_, rows, std::move(columns));
    return Status::OK();
  }

  Status Close() override { return input_->Close(); }

 private:
  std::shared_ptr<arrow::RecordBatchReader> input_;
  std::shared_ptr<arrow::Schema> schema_;
  std::vector<int> passed_;  // input column of each passed-through output column
  int calls_ = 0;
  int64_t next_ = 1;
};

}  // namespace

bool IsRowNumbering(const PlanNode& node) {
  if (node.window_calls.empty()) return false;
  for (const auto& call : node.window_calls) {
    if (call.function != "row_number" || !call.partition_by.empty() || !call.order_by.empty()) {
      return false;
    }
  }
  return true;
}

std::shared_ptr<arrow::RecordBatchReader> NumberRows(
    const PlanNode& node, std::shared_ptr<arrow::RecordBatchReader> input) {
  return std::make_shared<RowNumberReader>(node, std::move(input));
}

}  // namespace parley
