// parley_arrays_zip(marker, list...) -> the marker's type, a list of structs: the structs of
// the lists' elements at each position, as many as the longest list has (NULL fields past the
// end of a shorter one); NULL where a list is NULL.
#include "arrow/array/array_nested.h"
#include "kernels/kernel_support.h"

namespace parley::kernels {
namespace {

namespace cp = arrow::compute;

Status ArraysZipExec(cp::KernelContext* ctx, const cp::ExecSpan& batch, cp::ExecResult* out) {
  auto type = batch[0].type()->GetSharedPtr();
  const auto& element_type = type->field(0)->type();
  std::vector<std::shared_ptr<arrow::ListArray>> lists;
  for (int i = 1; i < batch.num_values(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto array, ArgumentArray(batch, i));
    lists.push_back(std::static_pointer_cast<arrow::ListArray>(array));
  }
  std::vector<std::vector<int64_t>> rows(lists.size());
  arrow::Int32Builder offsets(ctx->memory_pool());
  arrow::TypedBufferBuilder<bool> validity(ctx->memory_pool());
  int32_t offset = 0;
  int64_t nulls = 0;
  for (int64_t row = 0; row < batch.length; ++row) {
    ARROW_RETURN_NOT_OK(offsets.Append(offset));
    bool valid = true;
    int64_t length = 0;
    for (const auto& list : lists) {
      valid = valid && list->IsValid(row);
      if (valid) length = std::max<int64_t>(length, list->value_length(row));
    }
    ARROW_RETURN_NOT_OK(validity.Append(valid));
    if (!valid) {
      ++nulls;
      continue;
    }
    for (size_t i = 0; i < lists.size(); ++i) {
      for (int64_t k = 0; k < length; ++k) {
        rows[i].push_back(k < lists[i]->value_length(row) ? lists[i]->value_offset(row) + k : -1);
      }
    }
    offset += static_cast<int32_t>(length);
  }
  ARROW_RETURN_NOT_OK(offsets.Append(offset));
  std::vector<std::shared_ptr<arrow::Array>> children;
  for (size_t i = 0; i < lists.size(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto taken, TakeRows(lists[i]->values(), rows[i]));
    children.push_back(std::move(taken));
  }
  std::shared_ptr<arrow::Array> structs;
  if (children.empty()) {
    ARROW_ASSIGN_OR_RAISE(structs, arrow::MakeArrayOfNull(element_type, 0, ctx->memory_pool()));
  } else {
    ARROW_ASSIGN_OR_RAISE(structs, arrow::StructArray::Make(children, element_type->fields()));
  }
  ARROW_ASSIGN_OR_RAISE(auto offset_array, offsets.Finish());
  ARROW_ASSIGN_OR_RAISE(auto validity_buffer, validity.Finish());
  auto data = arrow::ArrayData::Make(
      type, batch.length, {nulls > 0 ? validity_buffer : nullptr, offset_array->data()->buffers[1]},
      {structs->data()}, nulls);
  out->value = std::move(data);
  return Status::OK();
}

}  // namespace

Status RegisterArraysZipKernel(cp::FunctionRegistry* registry) {
  return AddAnyInputFunction(registry, "parley_arrays_zip", cp::Arity::VarArgs(1),
                             cp::OutputType(InputTypeAt<0>), ArraysZipExec,
                             "The elements of lists at each position, as structs");
}

}  // namespace parley::kernels
