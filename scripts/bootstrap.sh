#!/usr/bin/env bash
# Installs what a fresh machine lacks to build and test Parley. Idempotent: a second run on a
# prepared machine only checks and returns.
#   - Debian packages (compiler tools and C++ libraries), apt-get update once when any is missing.
#   - A Python environment with the pinned requirements.txt, cached under
#     ${PARLEY_CACHE:-~/.cache/parley}/venv-<hash of requirements.txt> and linked as .venv, so
#     fresh clones on the same machine share it. Arrow's C++ headers and libraries come from its
#     pyarrow wheel (see cmake/ArrowFromWheel.cmake).
#   - delta-spark's jars for the Spark interop tests, fetched once from Maven Central into the same
#     cache by scripts/fetch_spark_jars.sh (Java and Maven come from Debian).
#   - With the argument `fuzz`: clang and its libFuzzer runtime as well (make fuzz).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

packages=(ccache cmake ninja-build g++ pkg-config python3-venv
          nlohmann-json3-dev libfmt-dev libcli11-dev libedit-dev
          libgtest-dev libgmock-dev libsqlite3-dev libpq-dev libssl-dev
          openjdk-17-jre-headless maven clang-format)
# `bootstrap.sh fuzz` (make fuzz) also installs clang with libFuzzer and its sanitizer runtimes.
if [ "${1:-}" = "fuzz" ]; then
  packages+=(clang libclang-rt-14-dev)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

hash=$(sha256sum requirements.txt | cut -c1-16)
cache=${PARLEY_CACHE:-$HOME/.cache/parley}
venv="$cache/venv-$hash"
if [ ! -f "$venv/.complete" ]; then
  echo "bootstrap: creating Python environment $venv"
  rm -rf "$venv"
  mkdir -p "$cache"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r requirements.txt
  touch "$venv/.complete"
fi
if [ "$(readlink .venv 2>/dev/null)" != "$venv" ]; then
  rm -rf .venv
  ln -s "$venv" .venv
fi
scripts/fetch_spark_jars.sh "$venv/bin/python"
