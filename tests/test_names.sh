#!/bin/sh
# ctest runs each doctest case by its name, which CMake splits at ';' (a list
# separator): the halves match no case and pass having run nothing. So no test
# case may have ';' in its name. Usage: test_names.sh MPISIM_TESTS
names=$("$1" --list-test-cases) || exit 1
bad=$(printf '%s\n' "$names" | grep -F ';')
if [ -n "$bad" ]; then
  echo "test case names with ';' (ctest would run none of them):"
  printf '%s\n' "$bad"
  exit 1
fi
count=$(printf '%s\n' "$names" | grep -c .)
[ "$count" -gt 100 ] || { echo "only $count lines listed"; exit 1; }
