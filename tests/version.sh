#!/bin/sh
# The patched build says it is ours; the stock build is plain 3.27.1.
. "$(dirname "$0")/lib.sh"
check "patched valgrind --version is valgrind-3.27.1-fold1" \
    [ "$("$PREFIX/bin/valgrind" --version)" = valgrind-3.27.1-fold1 ]
check "stock valgrind --version is valgrind-3.27.1" \
    [ "$("$STOCK_PREFIX/bin/valgrind" --version)" = valgrind-3.27.1 ]
finish
