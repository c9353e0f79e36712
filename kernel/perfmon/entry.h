/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PERFMON_ENTRY_H
#define _PERFMON_ENTRY_H

struct pfm_entry {
	const char *name;
	long (*fn)(unsigned long a0, unsigned long a1, unsigned long a2, unsigned long a3);
};

extern const struct pfm_entry pfm_entries[];

long pfm_call(unsigned int nr, unsigned long a0, unsigned long a1, unsigned long a2,
	      unsigned long a3);

#endif
