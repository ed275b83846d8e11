# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the check-*.sh scripts: compare two sorted lists.
#
# set_diff A B ONLY_A ONLY_B: print the lines only in file A under the
# heading ONLY_A and those only in file B under ONLY_B (to stderr).
# Return 0 if the lists are equal, else 1.
set_diff() {
	local rc=0 only
	only=$(comm -23 "$1" "$2")
	if [ -n "$only" ]; then
		echo "$3" >&2
		echo "$only" | sed 's/^/  /' >&2
		rc=1
	fi
	only=$(comm -13 "$1" "$2")
	if [ -n "$only" ]; then
		echo "$4" >&2
		echo "$only" | sed 's/^/  /' >&2
		rc=1
	fi
	return $rc
}
