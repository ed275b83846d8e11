#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Every function the public headers declare is exported by the shared
# library, and every acl* function it exports is declared: a program that
# compiles against include/acl/ also links, and nothing is exported that
# no header promises. Run by lib/Makefile after linking.
#
# Usage: check-exports.sh CC INCLUDE_DIR LIBRARY
# The declarations come from the compiler itself (-aux-info lists every
# prototype it saw, with its file), so macros, line breaks and comments
# in the headers need no parsing here.
set -eu
. "$(dirname "$0")/set-diff.sh"

cc=$1 inc=$2 lib=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for h in "$inc"/acl/*.h; do
	echo "#include \"acl/$(basename "$h")\""
done > "$tmp/all.c"
"$cc" -I"$inc" -aux-info "$tmp/aux" -fsyntax-only "$tmp/all.c"
# /* include/acl/acl_rt.h:123:NC */ extern aclError aclrtMemcpy (void *, ...);
# C: a declaration (F would be a definition, i.e. an inline function).
grep "/acl/[^:]*:[0-9]*:.C \*/" "$tmp/aux" |
	sed -e 's/^.*\*\/ //' -e 's/ *(.*$//' -e 's/^.*[ *]//' |
	sort -u > "$tmp/declared"
nm -D --defined-only "$lib" > "$tmp/nm"
awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' "$tmp/nm" |
	grep '^acl' | sort -u > "$tmp/exported"

status=0
set_diff "$tmp/declared" "$tmp/exported" \
	"check-exports: declared in $inc/acl but not exported by $lib:" \
	"check-exports: exported by $lib but declared in no header:" || status=1
exit $status
