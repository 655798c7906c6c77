#!/usr/bin/env bash
# The differential test against Flink's own runtime: the same job graphs on a Flink
# MiniCluster and through lbscope (tests/it/flink_diff.rs says what is compared).
#
# Needs a JDK (javac 17; Debian's openjdk-17-jdk-headless) and Flink's flink-dist jar,
# taken from the PyPI wheel apache-flink-libraries (about 330 MB, downloaded once into
# the cache). Nothing from Flink is kept in the repository.
#
# Usage: tools/flink-diff/run.sh [WORK_DIR]   (default: <cargo target dir>/flink-diff)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
version=${FLINK_VERSION:-2.3.0}
cache=${LBSCOPE_FLINK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lbscope-flink-diff}
jar=$cache/flink-dist-$version.jar
work=${1:-$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')/flink-diff}

if ! command -v javac >/dev/null; then
  echo "installing Debian openjdk-17-jdk-headless"
  sudo=$([ "$(id -u)" = 0 ] || echo sudo)
  $sudo apt-get update -qq && $sudo apt-get install -y -qq openjdk-17-jdk-headless >/dev/null
fi
if [ ! -f "$jar" ]; then
  echo "downloading apache-flink-libraries==$version from PyPI into $cache"
  mkdir -p "$cache/wheel"
  pip download --no-deps --dest "$cache/wheel" "apache-flink-libraries==$version"
  unzip -p "$cache"/wheel/apache_flink_libraries-"$version"-*.whl "pyflink/lib/flink-dist-$version.jar" > "$jar.part"
  mv "$jar.part" "$jar"
fi

mkdir -p "$work/classes"
t0=$(date +%s)
javac -nowarn -cp "$jar" -d "$work/classes" tools/flink-diff/FlinkDiff.java 2>&1 | grep -v '^Note:' || true
LBSCOPE_FLINK_DIFF_DIR=$work cargo test -q --test it flink_diff_write_cases -- --ignored >/dev/null
t1=$(date +%s)
echo "running the cases on Flink $version's MiniCluster (log: $work/flink.log)"
java -Xmx1g -cp "$jar:$work/classes" FlinkDiff "$work/cases.json" "$work/flink.json" 2> "$work/flink.log"
t2=$(date +%s)
LBSCOPE_FLINK_DIFF_DIR=$work cargo test -q --test it flink_diff_compare -- --ignored --nocapture
echo "flink-diff: Flink runs took $((t2 - t1)) s, the whole check $(( $(date +%s) - t0 )) s; summary in $work/summary.txt"
