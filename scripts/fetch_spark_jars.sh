#!/usr/bin/env bash
# Fetches delta-spark's jars (and what they need that pyspark does not ship) from Maven Central
# once, into ${PARLEY_CACHE:-~/.cache/parley}/jars/<artifact>-<version>, for the Spark interop
# tests (tests/interop/test_delta_spark.py), which pass them to Spark with spark.jars so no test
# resolves packages at run time. The versions are read from requirements.txt; a second run finds
# the folder complete and returns. Usage: scripts/fetch_spark_jars.sh [PYTHON] (default .venv).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python=${1:-$root/.venv/bin/python}

pin() { sed -n "s/^$1==\([^ #]*\).*/\1/p" "$root/requirements.txt"; }
spark=$(pin pyspark)
delta=$(pin delta-spark)
if [ -z "$spark" ] || [ -z "$delta" ]; then
  echo "fetch_spark_jars: requirements.txt pins no pyspark or delta-spark" >&2
  exit 1
fi
artifact="delta-spark_${spark%.*}_2.13"   # Delta publishes one build per Spark minor version
cache=${PARLEY_CACHE:-$HOME/.cache/parley}
dest="$cache/jars/$artifact-$delta"
[ -f "$dest/.complete" ] && exit 0

pyspark_jars=$("$python" -c 'import os, pyspark; print(os.path.join(os.path.dirname(pyspark.__file__), "jars"))')
[ -d "$pyspark_jars" ] || { echo "fetch_spark_jars: no pyspark jars in $pyspark_jars" >&2; exit 1; }

echo "fetch_spark_jars: resolving io.delta:$artifact:$delta from Maven Central into $dest"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>parley.interop</groupId>
  <artifactId>delta-spark-jars</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>io.delta</groupId>
      <artifactId>$artifact</artifactId>
      <version>$delta</version>
    </dependency>
  </dependencies>
</project>
POM
plugin=org.apache.maven.plugins:maven-dependency-plugin:3.6.1
(cd "$work" && mvn -q -B -Dstyle.color=never -Dmaven.repo.local="$work/repo" "$plugin:list" \
   -DincludeScope=runtime -DoutputFile="$work/list.txt" -DoutputAbsoluteArtifactFilename=true)

# Lines read "group:artifact:jar:version:scope:/path/to/file.jar". A library pyspark already
# ships (in any version) is left out: Spark's own copy is the one its classes were built with.
# So is commons-logging, whose classes pyspark ships as jcl-over-slf4j.
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
kept=0
while IFS=: read -r _group name type _version _scope file; do
  [ "$type" = jar ] || continue
  file=${file%% *}
  if [ "$name" = commons-logging ] || compgen -G "$pyspark_jars/$name-[0-9]*.jar" > /dev/null; then
    continue
  fi
  cp "$file" "$dest.tmp/"
  kept=$((kept + 1))
done < <(sed -n 's/^ *\([^ ]*:jar:[^ ]*\).*/\1/p' "$work/list.txt")
[ "$kept" -gt 0 ] && [ -n "$(ls "$dest.tmp"/"$artifact"-*.jar 2>/dev/null)" ] || {
  echo "fetch_spark_jars: $artifact:$delta was not resolved" >&2
  exit 1
}
touch "$dest.tmp/.complete"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "fetch_spark_jars: $kept jars in $dest"
