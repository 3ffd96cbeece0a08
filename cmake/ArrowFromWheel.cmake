# Provides the imported targets Parley links Arrow through:
#   Parley::arrow  Parley::arrow_compute  Parley::arrow_acero  Parley::arrow_dataset  Parley::parquet
# A system Arrow found by find_package(Arrow CONFIG) wins. Otherwise the C++ libraries and headers
# come from the pyarrow wheel in the project's .venv (created by scripts/bootstrap.sh). The wheel
# ships versioned .so files (libarrow.so.NNNN) and no CMake package, so the targets point at the
# versioned files and the RPATH points at the wheel's directory.

find_package(Arrow CONFIG QUIET)
if(Arrow_FOUND)
  find_package(ArrowCompute CONFIG QUIET)
  find_package(ArrowAcero CONFIG REQUIRED)
  find_package(ArrowDataset CONFIG REQUIRED)
  find_package(Parquet CONFIG REQUIRED)
  message(STATUS "Arrow: system install ${Arrow_VERSION}")
  add_library(Parley::arrow INTERFACE IMPORTED)
  target_link_libraries(Parley::arrow INTERFACE Arrow::arrow_shared)
  add_library(Parley::arrow_compute INTERFACE IMPORTED)
  if(TARGET ArrowCompute::arrow_compute_shared)
    target_link_libraries(Parley::arrow_compute INTERFACE ArrowCompute::arrow_compute_shared)
  endif()
  add_library(Parley::arrow_acero INTERFACE IMPORTED)
  target_link_libraries(Parley::arrow_acero INTERFACE ArrowAcero::arrow_acero_shared)
  add_library(Parley::arrow_dataset INTERFACE IMPORTED)
  target_link_libraries(Parley::arrow_dataset INTERFACE ArrowDataset::arrow_dataset_shared)
  add_library(Parley::parquet INTERFACE IMPORTED)
  target_link_libraries(Parley::parquet INTERFACE Parquet::parquet_shared)
  return()
endif()

set(PARLEY_PYTHON "${CMAKE_SOURCE_DIR}/.venv/bin/python")
if(NOT EXISTS "${PARLEY_PYTHON}")
  message(FATAL_ERROR "No system Arrow and no ${PARLEY_PYTHON}: run scripts/bootstrap.sh first")
endif()
execute_process(
  COMMAND "${PARLEY_PYTHON}" -c "import pyarrow, os; print(os.path.dirname(pyarrow.__file__))"
  OUTPUT_VARIABLE PYARROW_DIR OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE pyarrow_result)
if(NOT pyarrow_result EQUAL 0)
  message(FATAL_ERROR "pyarrow is not importable from ${PARLEY_PYTHON}")
endif()
file(GLOB arrow_candidates "${PYARROW_DIR}/libarrow.so.[0-9]*")
list(FILTER arrow_candidates EXCLUDE REGEX "\\.so\\.[0-9]+\\.")
list(LENGTH arrow_candidates arrow_count)
if(NOT arrow_count EQUAL 1)
  message(FATAL_ERROR "Expected one libarrow.so.NNNN in ${PYARROW_DIR}, found: ${arrow_candidates}")
endif()
string(REGEX MATCH "[0-9]+$" ARROW_SO_VERSION "${arrow_candidates}")
message(STATUS "Arrow: pyarrow wheel in ${PYARROW_DIR} (so version ${ARROW_SO_VERSION})")

function(parley_wheel_library target file)
  set(path "${PYARROW_DIR}/lib${file}.so.${ARROW_SO_VERSION}")
  if(NOT EXISTS "${path}")
    message(FATAL_ERROR "Missing ${path}")
  endif()
  add_library(${target} SHARED IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES
    IMPORTED_LOCATION "${path}"
    INTERFACE_INCLUDE_DIRECTORIES "${PYARROW_DIR}/include")
endfunction()

parley_wheel_library(Parley::arrow arrow)
parley_wheel_library(Parley::arrow_compute arrow_compute)
parley_wheel_library(Parley::arrow_acero arrow_acero)
parley_wheel_library(Parley::arrow_dataset arrow_dataset)
parley_wheel_library(Parley::parquet parquet)
# Mark the wheel's headers as system headers so our -Werror does not apply to them.
foreach(t Parley::arrow Parley::arrow_compute Parley::arrow_acero Parley::arrow_dataset Parley::parquet)
  set_target_properties(${t} PROPERTIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${PYARROW_DIR}/include")
endforeach()
set(CMAKE_BUILD_RPATH "${PYARROW_DIR}" CACHE INTERNAL "")
set(CMAKE_INSTALL_RPATH "${PYARROW_DIR}" CACHE INTERNAL "")
