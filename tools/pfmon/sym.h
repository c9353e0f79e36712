/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfmon: names for sampled instruction pointers, through elfutils' libdwfl: the
 * file mapped at the address, the function (ELF symbol table) and the source
 * line (DWARF), from a copy of the process's /proc/PID/maps.
 */
#ifndef PFMON_SYM_H
#define PFMON_SYM_H

#include <stddef.h>
#include <stdint.h>

struct sym_maps;

/*
 * Adds or refreshes process pid's mappings in the list; keeps the old copy
 * when the process is gone.  Returns the new list head.
 */
struct sym_maps *sym_maps_read(struct sym_maps *list, int pid);
/* The file mapped at ip in process pid, or NULL. */
const char *sym_dso(struct sym_maps *list, int pid, uint64_t ip);
/* "function+0xoff (file.c:123)" for ip, or what is known of it. */
void sym_describe(struct sym_maps *list, int pid, uint64_t ip, char *buf, size_t len);

#endif
