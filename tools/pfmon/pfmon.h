/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfmon: what its parts share.
 *
 * options.c reads the options, pfmon.c runs the measurement; evnames.c knows
 * the event names, evsel.c turns the event list into registers of one or more
 * event sets and reads the counts back;
 * target.c makes one context per monitored thread or CPU and follows the
 * command's new threads and processes, spawn.c starts the command, groups.c
 * sums the counts of what is printed apart; muxlog.c estimates multiplexed
 * counts with error bounds from a context's set switch log, famlog.c from an
 * inherit context's reads; print.c writes the counts as text, print_perf.c as
 * perf stat's CSV or JSON;
 * control.c starts and stops the contexts for -D and --control;
 * explain.c turns a refusal into one sentence; smpl.c samples (freq.c adapts
 * its period for -F) and sym.c names the sampled code (smpl.h, sym.h).
 */
#ifndef PFMON_H
#define PFMON_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "events.h"
#include "perfmon.h"

#define PFMON_VERSION	"1.0"
#define PFMON_MAX_EVENTS 1024
#define PFMON_MAX_EVENTS_STR "1024"

/* one event as selected on the command line */
struct pfmon_event {
	char name[64];		/* as given, modifiers included */
	int soft;		/* a software event, sw its PFM_SW_EV_* */
	int sw;
	uint64_t sw_levels;	/* PFM_SW_PMC_USR / OS */
	struct pfmg_event hw;
	int group;		/* events of one -e '{...}' group share a set */
	int hidden;		/* counted, not printed (-F's exact count) */
	int tp;			/* a trace event (tracepoint.c): sw TRACEPOINT, key tp_id */
	uint32_t tp_id;
	char *filter;		/* --filter: the trace event filter, or NULL */
	int optional;		/* perf's default or detailed event: absent, not refused */
	int unsupported;	/* absent from this PMU, or -G's counters cannot count it:
				 * printed <not supported> */
	uint16_t set, pmd;	/* where it is counted */
	int cgroup;		/* -G, --for-each-cgroup: its cgroup's index + 1, or 0 */
};

/*
 * A count: the raw value and the time its set was live / the session ran, summed
 * over the contexts.  At the end of a run (final), est is the sum of the contexts'
 * estimates and bound2 that of their squared 95% bounds (muxlog.c); unbounded
 * counts the contexts that gave no bound.
 */
struct pfmon_count {
	uint64_t raw;
	uint64_t running;
	uint64_t enabled;
	double est;
	double bound2;
	int unbounded;
	int final;
};

/* how the counts of the contexts are summed up: all, per thread, per CPU */
enum pfmon_aggr { AGGR_ALL, AGGR_THREAD, AGGR_CPU, AGGR_SOCKET, AGGR_DIE, AGGR_CORE,
		  AGGR_NODE };

/*
 * The counts of one thread (--per-thread), one CPU (-A) or all the contexts:
 * its thread id or CPU (-1 for all), the thread's name.
 */
struct pfmon_group {
	long id;
	char comm[16];
	struct pfmon_count *count;	/* per event */
};

struct pfmon_opts {
	int nev;
	struct pfmon_event ev[PFMON_MAX_EVENTS];
	int nsets;
	uint64_t levels;		/* PFM_SW_PMC_USR and/or PFM_SW_PMC_OS */
	uint64_t switch_ns;		/* --switch-timeout */
	uint64_t smpl_period;		/* -P, or -F's latest: 0 when counting only */
	uint64_t smpl_freq;		/* -F */
	int shadow;			/* -F, inherited -P: the hidden copy of the sampled event */
	const char *smpl_out;		/* --smpl-out */
	int inherit;			/* follow the command's children and threads */
	int ncpus;			/* -a / -C: CPU sessions */
	int cpus[1024];
	int npids;			/* -p / -t: existing threads */
	int pids[64];
	int pid_is_tid[64];
	int repeat;			/* -r */
	int forever;			/* -r 0: run until killed, each run printed */
	unsigned int interval_ms;	/* -I */
	const char *sep;		/* -x: CSV with this separator */
	int json;			/* -j */
	int bounds;			/* --bounds: pfmon's fields after perf's */
	enum pfmon_aggr aggr;		/* --per-thread, -A */
	FILE *out;			/* -o, --log-fd */
	char **argv;			/* the command, or NULL */
	/* perfopts.c: perf stat's options of the output and the run */
	const char *out_name;		/* -o */
	int append;			/* --append */
	int log_fd;			/* --log-fd */
	int quiet;			/* --quiet: no counts printed */
	int big_num;			/* -B (1), --no-big-num (0), neither (-1) */
	int no_scale;			/* --no-scale: the raw counts */
	uint64_t all_levels;		/* --all-user, --all-kernel: every event's */
	unsigned int interval_count;	/* --interval-count */
	unsigned int timeout_ms;	/* --timeout */
	int null_run;			/* -n: no events, the elapsed time only */
	const char *pre, *post;		/* --pre, --post: shell commands around each run */
	int summary;			/* --summary (1), with --no-csv-summary (2) */
	int verbose;			/* -v: each event's encoding and place */
	int interval_clear;		/* --interval-clear */
	int levels_given;		/* -u or -k */
	/* evopts.c: perf stat's options of the event list */
	int last_list;			/* 1 + the first event of the last -e; 0: none */
	int pmu_type;			/* --cputype: PFM_FL_PMU_TYPE's id; 0: the default */
	int sync;			/* -S: sync() before each run */
	int table;			/* --table: -r's runs' elapsed times */
};

extern struct pfmon_opts opts;

/* options.c */
void parse(int argc, char **argv);
uint64_t options_number(const char *s, const char *what);
void options_refuse(const char *why) __attribute__((noreturn));

/* perfopts.c: perf stat's options of the output and the run, past OPT_PERF */
enum { OPT_PERF = 512, OPT_ALL_USER, OPT_ALL_KERNEL, OPT_QUIET, OPT_APPEND, OPT_LOG_FD,
       OPT_BIG_NUM, OPT_NO_BIG_NUM, OPT_SCALE, OPT_NO_SCALE, OPT_INTERVAL_COUNT,
       OPT_TIMEOUT, OPT_PRE, OPT_POST, OPT_SUMMARY, OPT_NO_CSV_SUMMARY,
       OPT_INTERVAL_CLEAR, OPT_PER_SOCKET, OPT_PER_DIE, OPT_PER_CORE, OPT_PER_NODE,
       OPT_FOR_EACH_CGROUP, OPT_TABLE, OPT_CONTROL };
#define PERFOPTS_LONG \
	{ "all-user",		no_argument,		NULL, OPT_ALL_USER }, \
	{ "all-kernel",		no_argument,		NULL, OPT_ALL_KERNEL }, \
	{ "quiet",		no_argument,		NULL, OPT_QUIET }, \
	{ "append",		no_argument,		NULL, OPT_APPEND }, \
	{ "log-fd",		required_argument,	NULL, OPT_LOG_FD }, \
	{ "big-num",		no_argument,		NULL, 'B' }, \
	{ "no-big-num",		no_argument,		NULL, OPT_NO_BIG_NUM }, \
	{ "scale",		no_argument,		NULL, OPT_SCALE }, \
	{ "no-scale",		no_argument,		NULL, OPT_NO_SCALE }, \
	{ "interval-count",	required_argument,	NULL, OPT_INTERVAL_COUNT }, \
	{ "timeout",		required_argument,	NULL, OPT_TIMEOUT }, \
	{ "null",		no_argument,		NULL, 'n' }, \
	{ "pre",		required_argument,	NULL, OPT_PRE }, \
	{ "post",		required_argument,	NULL, OPT_POST }, \
	{ "summary",		no_argument,		NULL, OPT_SUMMARY }, \
	{ "no-csv-summary",	no_argument,		NULL, OPT_NO_CSV_SUMMARY }, \
	{ "verbose",		no_argument,		NULL, 'v' }, \
	{ "interval-clear",	no_argument,		NULL, OPT_INTERVAL_CLEAR }, \
	{ "per-socket",		no_argument,		NULL, OPT_PER_SOCKET }, \
	{ "per-die",		no_argument,		NULL, OPT_PER_DIE }, \
	{ "per-core",		no_argument,		NULL, OPT_PER_CORE }, \
	{ "per-node",		no_argument,		NULL, OPT_PER_NODE }, \
	{ "cgroup",		required_argument,	NULL, 'G' }, \
	{ "for-each-cgroup",	required_argument,	NULL, OPT_FOR_EACH_CGROUP }, \
	{ "sync",		no_argument,		NULL, 'S' }, \
	{ "table",		no_argument,		NULL, OPT_TABLE }, \
	{ "delay",		required_argument,	NULL, 'D' }, \
	{ "control",		required_argument,	NULL, OPT_CONTROL }
int perfopts_option(int opt, const char *arg);
/* evopts.c: perf stat's options of the event list, past OPT_EVOPTS */
enum { OPT_EVOPTS = 768, OPT_FILTER, OPT_CPUTYPE };
#define EVOPTS_LONG \
	{ "filter",		required_argument,	NULL, OPT_FILTER }, \
	{ "detailed",		no_argument,		NULL, 'd' }, \
	{ "cputype",		required_argument,	NULL, OPT_CPUTYPE }
int evopts_option(int opt, const char *arg);
void evopts_events(void);
void evopts_program(int fd);
void evopts_filter_refused(const struct pfmon_event *e) __attribute__((noreturn));
void evopts_usage(FILE *f);
void perfopts_check(int sampling);
void perfopts_usage(FILE *f);
void perfopts_verbose(void);

/* control.c: -D and --control, when the contexts count */
int control_option(int opt, const char *arg);
void control_check(int sampling);
int control_fd(void);
void control_run_begin(void);
int control_counting(void);
int control_delayed(void);
uint64_t control_delay_ns(void);
void control_enable(void (*set)(int on));
void control_process(short revents, void (*set)(int on), void (*set_event)(int ev, int on));
/* whether --control switched event ev off alone ("disable NAME") */
int control_event_off(int ev);

/* evnames.c */
struct hw_alias {
	const char *name;
	const char *lib[4];	/* libpfm4's names, tried in order; NULL ends them */
};
extern const struct hw_alias hw_aliases[];	/* up to a NULL name */
extern const char *const evnames_default[];	/* up to NULL */
int evnames_sw(const char *base, int *code);
int evnames_lacking(const char *base);
const struct hw_alias *evnames_hw_alias(const char *base);
int evnames_is_perf_table(const char *base);
int evnames_core_pmu_event(const char *name);
void evnames_nearest(const char *want, char *buf, size_t len);
int evnames_list(FILE *f, const char *pattern);
void evnames_perf_name(const char *name, char *out, size_t len);

/* cgroup.c: -G, --for-each-cgroup: every event through the perf layer, per CPU */
struct cgperf;
int cgroup_option(int opt, const char *arg);
void cgroup_check(void);
int cgroup_mode(void);
const char *cgroup_name(int i);
struct cgperf *cgperf_open(int cpu);
int cgperf_read(const struct cgperf *p, struct pfmon_count *one);
void cgperf_enable(const struct cgperf *p, int on);
void cgperf_enable_event(const struct cgperf *p, int ev, int on);
void cgperf_close(struct cgperf *p);

/* evsel.c */
struct pfmon_event *evsel_add(const char *tok, int group);
void evsel_parse(char *list);
void evsel_default(void);
void evsel_place(void);
int evsel_program(int fd);
int evsel_event_pmc(int ev, int on, struct pfarg_pmc *pc);
int evsel_read(int fd, struct pfmon_count *c);
void evsel_usage(FILE *f);

/* tracepoint.c: trace events (subsys:name) */
int tp_add(const char *tok, int group);
void tp_encode(struct pfmon_event *e);
long tp_id_of(const char *sys, const char *name);
int tp_list(FILE *f, int (*matches)(const char *pattern, const char *name, const char *desc),
	    const char *pattern);

/* procs.c */
DIR *task_dir(int pid, int fatal);
pid_t next_task(DIR *dir);
int process_fd(int pid);

/* famlog.c: an inherit context's reads, when there are several sets */
struct famlog;
struct famlog *famlog_new(void);
void famlog_free(struct famlog *f);
uint64_t famlog_interval_ns(int first);
int famlog_take(struct famlog *f, int fd);
void famlog_slower(void);
void famlog_estimate(const struct famlog *f, const struct pfmon_count *one,
		     struct pfmon_count *c);

/* muxlog.c: the set switch log of a context, when there are several sets */
int muxlog_open(int flags, const void **log);
void muxlog_close(const void *log);
void muxlog_estimate(int fd, const void *log, const struct pfmon_count *one,
		     struct pfmon_count *c);
struct pfm_mux_est;
void muxlog_add(struct pfmon_count *c, const struct pfmon_count *o,
		const struct pfm_mux_est *lin, struct pfm_mux_est *in);

/* freq.c: -F */
struct freq_state {
	uint64_t count, at, period;	/* at the last adaptation (ns, CLOCK_MONOTONIC) */
};
void freq_setup(uint64_t hz);
void smpl_shadow_setup(const char *opt);
unsigned int freq_adapt_ms(void);
void freq_adapt(int fd, struct freq_state *f, uint64_t now);
void freq_report(FILE *f, uint64_t nsamples, uint64_t ns);

/* explain.c: one line on stderr for a failed step, then exit(1) */
void pfmon_fail(const char *what, int err, long target) __attribute__((noreturn));
void pfmon_warn(const char *what, int err, long target);

/* target.c: the session of one run */
struct pfmon_result {
	struct pfmon_count *count;	/* per event, over every context */
	const struct pfmon_group *groups;	/* per thread or CPU, or all */
	int ngroups;
	uint64_t elapsed_ns;
	struct rusage ru;		/* of the command */
	int have_ru;
	int status;			/* the command's wait status */
	int exec_failed;		/* the command could not be run (exit 127) */
	int timed_out;			/* --timeout ended the command */
};
uint64_t now_ns(void);		/* CLOCK_MONOTONIC */
typedef void (*pfmon_tick_fn)(const struct pfmon_group *now, int n, uint64_t at_ns);
void target_run(struct pfmon_result *res, pfmon_tick_fn tick);
void *pfmon_grow(void *p, int n, size_t size);	/* room for n + 1, or exit */

/* groups.c: target.c's groups (what is printed apart), by index */
int group_of(long target);
void group_comm(int g);
void group_name(int g, const char *path);
void groups_free(void);
struct pfmon_count *group_retired(int g);
struct pfmon_count *group_counts(int g);
void groups_from_retired(int final);
void groups_sum(struct pfmon_count *c, int final);
const struct pfmon_group *groups_view(int *n);

/* spawn.c: the command's process, its pid in *child */
int spawn_traced(int errfd_pair[2], pid_t *child);
int spawn_untraced(int errfd_pair[2], pid_t *child);

/* topo.c: --per-socket, --per-die, --per-core, --per-node */
long topo_key(int cpu);
void topo_print(FILE *f, long key, const char *sep);

/* nullrun.c: -n, the command run and timed, nothing counted */
void null_run(struct pfmon_result *res);

/* print.c */
void print_interval(const struct pfmon_group *delta, int n, uint64_t at_ns);
void print_counts(const struct pfmon_count *const *runs, int nruns,
		  const struct pfmon_result *res, const uint64_t *elapsed);

#endif
