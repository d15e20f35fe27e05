#!/bin/sh
# Layering check (issue #18 item 2), run by ctest as layering_check:
#  1. nothing in services/common includes another module
#     (#include "services/<x>/..." with x != common);
#  2. no target in services/<x> other than services/server links another
#     module's handler target (<y>_service with y != x). common_service, the
#     shared gRPC base of every handler (status mapping, request limits), is
#     allowed everywhere.
# Prints every violation and exits 1 if there is one.
# Usage: layering_check.sh <source root>
root=${1:-.}
cd "$root" || exit 2
fail=0

bad=$(grep -rnE '#include[[:space:]]+"services/' services/common \
        | grep -vE '#include[[:space:]]+"services/common/')
if [ -n "$bad" ]; then
  echo "services/common includes another module:"
  echo "$bad"
  fail=1
fi

for cm in $(find services -name CMakeLists.txt | sort); do
  module=$(echo "$cm" | cut -d/ -f2)
  [ "$module" = server ] && continue
  # The words of every target_link_libraries(...) call, comments dropped.
  words=$(sed 's/#.*//' "$cm" | tr '\n' ' ' \
            | grep -oE 'target_link_libraries\([^)]*\)' \
            | sed 's/target_link_libraries(//; s/)//' | tr ' ' '\n')
  for w in $words; do
    case "$w" in
      *_service)
        other=${w%_service}
        if [ "$other" != "$module" ] && [ "$other" != common ]; then
          echo "$cm: a target of services/$module links $w (another module's handler)"
          fail=1
        fi ;;
    esac
  done
done

[ $fail -eq 0 ] && echo "layering ok"
exit $fail
