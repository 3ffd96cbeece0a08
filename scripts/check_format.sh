#!/usr/bin/env bash
# Checks that every C++ file of the repository is laid out as .clang-format says: prints each
# difference (file, line, what clang-format would change) and exits 1 when there is one.
# Run `scripts/check_format.sh --fix` to rewrite the files in place instead.
# The bootstrap installs Debian's clang-format, the version this layout was applied with.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if ! command -v clang-format >/dev/null; then
  echo "check_format: clang-format is not installed (scripts/bootstrap.sh installs it)" >&2
  exit 1
fi
if [ -d .git ] || git rev-parse --git-dir >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cc' '*.h')
else
  mapfile -t files < <(find include src connectors tests bench examples -name '*.cc' -o -name '*.h')
fi
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
if ! clang-format --dry-run --Werror "${files[@]}"; then
  echo "check_format: the files above differ from .clang-format; run scripts/check_format.sh --fix" >&2
  exit 1
fi
