// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: instruction pointers to files, functions and lines (sym.h).
 *
 * libdwfl reads the mappings (dwfl_linux_proc_maps_report() takes the text of
 * /proc/PID/maps, here a copy taken while the process lived), opens each mapped
 * file by its path, computes its load bias, and answers symbol and line queries
 * with the file's own tables or its separate debug file.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <elfutils/libdwfl.h>

#include "sym.h"

struct sym_maps {
	int pid;
	char *text;		/* /proc/PID/maps as last read */
	Dwfl *dwfl;		/* built from text at the first query */
	struct sym_maps *next;
};

static char *debuginfo_path;

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

static char *slurp(int pid)
{
	char path[64], *buf = NULL;
	size_t len = 0;
	FILE *f, *m;
	int c;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	if (!m) {
		fclose(f);
		return NULL;
	}
	while ((c = getc(f)) != EOF)
		putc(c, m);
	fclose(f);
	fclose(m);
	if (!len) {
		free(buf);
		return NULL;
	}
	return buf;
}

static struct sym_maps *find(struct sym_maps *list, int pid)
{
	for (; list; list = list->next)
		if (list->pid == pid)
			return list;
	return NULL;
}

struct sym_maps *sym_maps_read(struct sym_maps *list, int pid)
{
	struct sym_maps *m = find(list, pid);
	char *text = slurp(pid);

	if (!text)
		return list;
	if (!m) {
		m = calloc(1, sizeof(*m));
		if (!m) {
			free(text);
			return list;
		}
		m->pid = pid;
		m->next = list;
		list = m;
	} else if (m->text && !strcmp(m->text, text)) {
		free(text);
		return list;
	}
	free(m->text);
	m->text = text;
	if (m->dwfl)
		dwfl_end(m->dwfl);
	m->dwfl = NULL;
	return list;
}

static Dwfl_Module *module(struct sym_maps *list, int pid, uint64_t ip)
{
	struct sym_maps *m = find(list, pid);
	FILE *f;

	if (!m)
		return NULL;
	if (!m->dwfl) {
		m->dwfl = dwfl_begin(&callbacks);
		if (!m->dwfl)
			return NULL;
		f = fmemopen(m->text, strlen(m->text), "r");
		if (!f)
			return NULL;
		dwfl_report_begin(m->dwfl);
		dwfl_linux_proc_maps_report(m->dwfl, f);
		dwfl_report_end(m->dwfl, NULL, NULL);
		fclose(f);
	}
	return dwfl_addrmodule(m->dwfl, ip);
}

const char *sym_dso(struct sym_maps *list, int pid, uint64_t ip)
{
	Dwfl_Module *mod = module(list, pid, ip);

	return mod ? dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL) : NULL;
}

void sym_describe(struct sym_maps *list, int pid, uint64_t ip, char *buf, size_t len)
{
	Dwfl_Module *mod = module(list, pid, ip);
	const char *name, *file, *base;
	GElf_Off off = 0;
	GElf_Sym sym;
	Dwfl_Line *line;
	size_t n = 0;
	int lineno = 0;

	buf[0] = '\0';
	if (!mod) {
		snprintf(buf, len, "[unknown]");
		return;
	}
	name = dwfl_module_addrinfo(mod, ip, &off, &sym, NULL, NULL, NULL);
	if (name)
		n = snprintf(buf, len, "%s+%#" PRIx64, name, (uint64_t)off);
	else
		n = snprintf(buf, len, "[%s]", dwfl_module_info(mod, NULL, NULL, NULL, NULL,
								  NULL, NULL, NULL));
	line = dwfl_module_getsrc(mod, ip);
	file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
	if (file && n < len) {
		base = strrchr(file, '/');
		snprintf(buf + n, len - n, " (%s:%d)", base ? base + 1 : file, lineno);
	}
}
