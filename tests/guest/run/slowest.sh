#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: pfm-slowest XML N prints the N slowest test cases of a check run
# whose XML log is XML (CK_XML_LOG_FILE_NAME), slowest first, and their total:
# make check's time goes mostly to a few cases, and its budget is kept by
# knowing which.
xml=$1
n=${2:-15}
[ -r "$xml" ] || { echo "slowest: no $xml"; exit 0; }
awk '
/<title>/ { s = $0; sub(/.*<title>/, "", s); sub(/<\/title>.*/, "", s) }
/<id>/ { id = $0; sub(/.*<id>/, "", id); sub(/<\/id>.*/, "", id) }
/<duration>/ {
	d = $0; sub(/.*<duration>/, "", d); sub(/<\/duration>.*/, "", d)
	# check gives a failed case no time of its own (a negative one)
	if (id != "" && d + 0 >= 0) print d, s "/" id
	id = ""
}' "$xml" | sort -rn > /tmp/slowest.txt
awk '{ t += $1 } END { printf "slowest: %d cases, %.1f s in all; the slowest:\n", NR, t }' \
	/tmp/slowest.txt
head -n "$n" /tmp/slowest.txt | awk '{ printf "slowest: %7.2f s %s\n", $1, $2 }'
