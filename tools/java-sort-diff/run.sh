#!/usr/bin/env bash
# The differential test against the JDK's own sort: seeded random score lists sorted
# by Java's List.sort with the comparator AvgShedder used before apache/pulsar#24954
# ((int) (s1 - s2)), and by lbscope's replay of it (tests/it/java_sort_diff.rs).
#
# Needs a JDK (javac 17; Debian's openjdk-17-jdk-headless, installed when missing).
#
# Usage: tools/java-sort-diff/run.sh [WORK_DIR]   (default: <cargo target dir>/java-sort-diff)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
work=${1:-$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')/java-sort-diff}

if ! command -v javac >/dev/null; then
  echo "installing Debian openjdk-17-jdk-headless"
  sudo=$([ "$(id -u)" = 0 ] || echo sudo)
  $sudo apt-get update -qq && $sudo apt-get install -y -qq openjdk-17-jdk-headless >/dev/null
fi

mkdir -p "$work/classes"
javac -nowarn -d "$work/classes" tools/java-sort-diff/JavaSort.java
LBSCOPE_JAVA_SORT_DIR=$work cargo test -q --test it java_sort_diff_write_cases -- --ignored >/dev/null
java -cp "$work/classes" JavaSort "$work/cases.txt" "$work/java.txt"
LBSCOPE_JAVA_SORT_DIR=$work cargo test -q --test it java_sort_diff_compare -- --ignored --nocapture
