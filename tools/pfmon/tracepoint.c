// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: the kernel's trace events as -e events (pfmon.h), named as perf stat
 * names them: "subsys:name", either part a glob (*, ?, [...]) that stands for
 * every trace event it matches, in the order tracefs lists them (perf's), and
 * an optional ":u", ":k" or ":uk".  Each is counted by the software PMU's keyed
 * TRACEPOINT event, its key the event's tracefs id (perfmon_sw.h), exactly.
 *
 * A name is a tracepoint's when it is none of pfmon's other names: a software
 * event with its modifier ("syscalls:u"), perf's generic hardware names, a name
 * libpfm4 knows on this machine's PMU ("INST_RETIRED:ANY_P"), or one in upper
 * case that no subsystem of tracefs has (libpfm4's, for another PMU).  Refused as perf
 * refuses them: a name tracefs does not have, a glob that matches nothing
 * ("unknown tracepoint"), tracefs that cannot be read ("can't access trace
 * events"), each one line and exit 2.
 *
 * Levels: a hit counts at user level when its registers are (the system call
 * events), else at kernel level.  perf stat counts both; unprivileged, where
 * kernel-level counting is refused (the paranoid level 2 or more without
 * CAP_PERFMON), it counts at user level only, and so does pfmon, naming the
 * event as perf's fallback renames it ("syscalls:sys_enter_getppidu").  perf's
 * kernel level of a trace event (":k", --all-kernel) counts every hit (its
 * tracepoint counters ignore exclude_user), and its name is the trace event's,
 * the modifier left out: pfmon's too.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pfmon.h"

static const char *const tracefs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

/* tracefs's events directory, open; NULL with errno (EACCES before ENOENT) */
static DIR *events_open(char *path, size_t len)
{
	int err = ENOENT;
	unsigned int i;
	DIR *d;

	for (i = 0; i < sizeof(tracefs) / sizeof(tracefs[0]); i++) {
		snprintf(path, len, "%s/events", tracefs[i]);
		d = opendir(path);
		if (d)
			return d;
		if (errno != ENOENT)
			err = errno;
	}
	snprintf(path, len, "%s/events", tracefs[err == ENOENT ? 0 : 1]);
	errno = err;
	return NULL;
}

static void tp_refuse(const char *tok, int err, const char *path)
{
	if (err == EACCES || err == EPERM)
		fprintf(stderr, "pfmon: event '%s': can't access trace events (no permission "
			"to read %s)\n", tok, path);
	else
		fprintf(stderr, "pfmon: event '%s': unknown tracepoint (%s not found)\n",
			tok, path);
	exit(2);
}

/* the trace event's id, or -1 with errno */
static long read_id(const char *events, const char *sys, const char *name)
{
	char path[512];
	long id = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s/id", events, sys, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &id) != 1 || id < 0 || id >= 1L << 16) {
		id = -1;
		errno = EINVAL;
	}
	fclose(f);
	return id;
}

/* the id of trace event sys:name in tracefs, or -1 with errno */
long tp_id_of(const char *sys, const char *name)
{
	char events[256];
	DIR *d = events_open(events, sizeof(events));

	if (!d)
		return -1;
	closedir(d);
	return read_id(events, sys, name);
}

/* perf's globs have a '*' or a '?' ("[...]" alone is no glob, and matches in one) */
static int glob(const char *s)
{
	return strpbrk(s, "*?") != NULL;
}

/* perf's levels of a trace event: its kernel level is every hit */
static uint64_t tp_levels(uint64_t lv)
{
	return lv & PFM_SW_PMC_OS ? lv | PFM_SW_PMC_USR : lv;
}

static void add_one(const char *events, const char *sys, const char *name, const char *mod,
		    int group, const char *tok)
{
	struct pfmon_event *e;
	char full[128], path[512];
	long id = read_id(events, sys, name);

	if (id < 0) {
		snprintf(path, sizeof(path), "%s/%s/%s", events, sys, name);
		tp_refuse(tok, errno, path);
	}
	snprintf(full, sizeof(full), "%s:%s", sys, name);
	e = evsel_add(full, group);
	e->soft = 1;
	e->tp = 1;
	e->sw = PFM_SW_EV_TRACEPOINT;
	e->tp_id = id;
	/* a modifier's levels, kept until tp_encode() */
	if (mod)
		e->sw_levels = tp_levels((strchr(mod, 'u') ? PFM_SW_PMC_USR : 0) |
					 (strchr(mod, 'k') ? PFM_SW_PMC_OS : 0));
}

/* the trace events of subsystem sys that name matches, in tracefs's order */
static int add_events_of(const char *events, const char *sys, const char *name,
			 const char *mod, int group, const char *tok)
{
	char path[512], idpath[768];
	struct dirent *de;
	int n = 0;
	DIR *d;

	if (!glob(name)) {
		add_one(events, sys, name, mod, group, tok);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/%s", events, sys);
	d = opendir(path);
	if (!d)
		tp_refuse(tok, errno, path);
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.' ||
		    fnmatch(name, de->d_name, 0))
			continue;
		if (snprintf(idpath, sizeof(idpath), "%s/%s/id", path, de->d_name) >=
		    (int)sizeof(idpath) || access(idpath, F_OK))
			continue;
		add_one(events, sys, de->d_name, mod, group, tok);
		n++;
	}
	closedir(d);
	/* as perf: each subsystem a glob names must have a trace event name matches */
	if (!n) {
		snprintf(idpath, sizeof(idpath), "%s/%s", path, name);
		tp_refuse(tok, ENOENT, idpath);
	}
	return n;
}

/* tracefs's subsystems are lower case; libpfm4's event names upper case */
static int has_upper(const char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			return 1;
	return 0;
}

static int only_levels(const char *s)
{
	return *s && strspn(s, "uk") == strlen(s);
}

/* a name of pfmon's other kinds: software, perf's hardware names, libpfm4's */
static int other_kind(const char *tok, const char *base, const char *rest)
{
	int code;

	if (strstr(tok, "::"))
		return 1;
	if ((evnames_sw(base, &code) || evnames_lacking(base)) && only_levels(rest))
		return 1;
	return evnames_hw_alias(base) || evnames_core_pmu_event(tok) == 1;
}

int tp_add(const char *tok, int group)
{
	char buf[256], events[256], *sys, *name, *mod;
	struct dirent *de;
	int n = 0;
	DIR *d;

	if (!strchr(tok, ':') || strlen(tok) >= sizeof(buf))
		return 0;
	snprintf(buf, sizeof(buf), "%s", tok);
	sys = buf;
	name = strchr(buf, ':');
	*name++ = '\0';
	if (other_kind(tok, sys, name))
		return 0;
	mod = strchr(name, ':');
	if (mod) {
		*mod++ = '\0';
		if (!only_levels(mod)) {
			fprintf(stderr, "pfmon: event '%s': the modifier is u, k or uk\n", tok);
			exit(2);
		}
	}
	if (!*sys || !*name) {
		fprintf(stderr, "pfmon: event '%s': a tracepoint is subsys:name\n", tok);
		exit(2);
	}
	d = events_open(events, sizeof(events));
	if (!d) {
		int err = errno;
		char path[1024];

		snprintf(path, sizeof(path), "%s/%s/%s", events, sys, name);
		tp_refuse(tok, err, path);
	}
	if (!glob(sys)) {
		char path[512];

		closedir(d);
		/* libpfm4's EVENT:UMASK, not on this PMU: its own diagnosis (evsel.c) */
		snprintf(path, sizeof(path), "%s/%s", events, sys);
		if (has_upper(sys) && access(path, F_OK))
			return 0;
		n = add_events_of(events, sys, name, mod, group, tok);
	} else {
		while ((de = readdir(d)))
			if (de->d_type == DT_DIR && de->d_name[0] != '.' &&
			    !fnmatch(sys, de->d_name, 0))
				n += add_events_of(events, de->d_name, name, mod, group, tok);
		closedir(d);
	}
	if (!n) {
		char path[1024];

		snprintf(path, sizeof(path), "%s/%s/%s", events, sys, name);
		tp_refuse(tok, ENOENT, path);
	}
	return 1;
}

/* kernel-level counting allowed: the paranoid level below 2, or CAP_PERFMON */
static int kernel_allowed(void)
{
	unsigned long long caps = 0;
	char line[256];
	int level = 2;
	FILE *f;

	f = fopen("/sys/kernel/perfmon/paranoid_level", "r");
	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 2;
		fclose(f);
	}
	if (level < 2)
		return 1;
	f = fopen("/proc/self/status", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	/* CAP_SYS_ADMIN (21) counts as CAP_PERFMON (38) */
	return !!(caps & (1ULL << 38 | 1ULL << 21));
}

void tp_encode(struct pfmon_event *e)
{
	if (opts.all_levels)
		e->sw_levels = tp_levels(opts.all_levels);
	else if (e->sw_levels)
		;	/* its modifier's */
	else if (opts.levels_given)
		e->sw_levels = tp_levels(opts.levels);
	else if (kernel_allowed())
		e->sw_levels = PFM_SW_PMC_USR | PFM_SW_PMC_OS;
	else {
		/* perf's fallback names the event as it does: "u" appended, no ':' */
		e->sw_levels = PFM_SW_PMC_USR;
		if (strlen(e->name) + 1 < sizeof(e->name))
			strcat(e->name, "u");
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The trace events whose "subsys:name" the pattern matches, sorted, as perf
 * list prints them; the count printed.
 */
int tp_list(FILE *f, int (*matches)(const char *pattern, const char *name, const char *desc),
	    const char *pattern)
{
	char events[256], path[512], idpath[768], **names = NULL, full[256];
	struct dirent *sd, *ed;
	DIR *d, *s;
	int n = 0, i;

	d = events_open(events, sizeof(events));
	if (!d)
		return 0;
	while ((sd = readdir(d))) {
		if (sd->d_type != DT_DIR || sd->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", events, sd->d_name);
		s = opendir(path);
		if (!s)
			continue;
		while ((ed = readdir(s))) {
			if (ed->d_type != DT_DIR || ed->d_name[0] == '.')
				continue;
			if (snprintf(idpath, sizeof(idpath), "%s/%s/id", path, ed->d_name) >=
			    (int)sizeof(idpath) ||
			    snprintf(full, sizeof(full), "%s:%s", sd->d_name, ed->d_name) >=
			    (int)sizeof(full) ||
			    access(idpath, F_OK) || !matches(pattern, full, NULL))
				continue;
			names = pfmon_grow(names, n, sizeof(*names));
			names[n] = strdup(full);
			if (!names[n])
				pfmon_fail("strdup", ENOMEM, -1);
			n++;
		}
		closedir(s);
	}
	closedir(d);
	if (n) {
		qsort(names, n, sizeof(*names), cmp_str);
		fprintf(f, "tracepoint events (tracefs):\n");
	}
	for (i = 0; i < n; i++) {
		fprintf(f, "  %-50s [Tracepoint event]\n", names[i]);
		free(names[i]);
	}
	free(names);
	return n;
}
