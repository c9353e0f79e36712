// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_fuzz: the manager.  Makes programs (fresh, or mutated from the corpus of
 * programs that reached new perfmon code), logs each one before it runs, runs
 * it in a process group of its own, then checks that the kernel is still well:
 * every process of the program dies when killed, nothing perfmon counts is left
 * behind, the kernel log has no report.  README.md says how to use it.
 *
 *   pfm_fuzz [--seed N] [--seconds N] [--log FILE] [--log-ring] [--log-ram ADDR,SIZE]
 *            [--pcs FILE] [--procs N] [--verbose]
 *            (--log-ring: the log in memory shared with the host, logring.c;
 *            --log-ram: that memory is the guest's RAM at ADDR, not the kernel's;
 *            FILE once that is full or missing; --fresh: a process per program;
 *            --procs: executors side by side, default one more than the CPUs)
 *   pfm_fuzz --replay LOG [--only N] [--verbose]   run a log's programs again
 *   pfm_fuzz --repro LOG [--only N]                 C main() of a program (stdout)
 *
 * Exit status: 0 when every check passed, 1 on a failure, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "kcov.h"
#include "prog.h"
#include "health.h"
#include "executor.h"
#include "logring.h"

#define CORPUS_MAX	1024

static struct {
	uint64_t seed;
	long seconds;
	int prog_timeout;
	const char *log_path;
	int log_ring;
	const char *log_ram;
	int fresh;
	const char *pcs_path;
	const char *replay;
	const char *repro;
	long only;
	int verbose;
	int procs;
} opt = { .seconds = 60, .prog_timeout = 20, .only = -1 };

/* Where the manager's time goes, by phase of a program (printed at the end). */
enum { PH_GEN, PH_LOG, PH_RUN, PH_DRAIN, PH_REAP, PH_RESTORE, PH_LEFT, PH_KMSG, PH_COV, PH_NR };
static const char *const ph_names[PH_NR] = {
	"generate", "log", "run", "drain", "reap", "restore", "leftovers", "kmsg", "coverage",
};
static unsigned long ph_us[PH_NR];
static unsigned long ph_t;

static unsigned long now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000UL + t.tv_nsec / 1000;
}

/* The time since the last call goes to phase ph. */
static void phase(int ph)
{
	unsigned long t = now_us();

	if (ph_t)
		ph_us[ph] += t - ph_t;
	ph_t = t;
}

static unsigned long run_start;

static const char *const st_names[FZ_ST_NR] = {
	"fork() (parent)", "scenario ovfl", "scenario sets", "scenario cpu", "scenario perf",
	"perf_smpl self", "perf_smpl target", "perf_smpl exec", "perf_smpl inherit",
	"fault injected", "clone(CLONE_VM) (parent)",
};

/* /proc/stat's idle and total jiffies of all CPUs: [0] idle, [1] all */
static void cpu_jiffies(unsigned long long j[2])
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "re");
	int i;

	j[0] = j[1] = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]) == 8) {
		j[0] = v[3] + v[4];
		for (i = 0; i < 8; i++)
			j[1] += v[i];
	}
	fclose(f);
}

/* the share of the CPUs' time spent idle since idle0 was taken */
static unsigned long idle_pct(const unsigned long long idle0[2])
{
	unsigned long long j[2];

	cpu_jiffies(j);
	return j[1] > idle0[1] ? (unsigned long)(100 * (j[0] - idle0[0]) / (j[1] - idle0[1])) : 0;
}

static unsigned int run_seconds(void)
{
	return (unsigned int)((now_us() - run_start) / 1000000);
}

static FILE *logf;
static struct fz_prog *corpus;
static int ncorpus;
static long nprogs, nops, ntimeouts;
/* executors retired, by their answer (FZ_DONE_*) */
static long nretired[256];

static void log_flush(void)
{
	fflush(logf);
	/* the program must be out of the guest before it can crash it */
	if (isatty(fileno(logf)))
		tcdrain(fileno(logf));
}

static void usage(void)
{
	fprintf(stderr, "usage: pfm_fuzz [--seed N] [--seconds N] [--log FILE] [--log-ring]\n"
			"                [--log-ram ADDR,SIZE] [--pcs FILE] [--prog-timeout S] [--fresh]\n"
			"                [--procs N] [--verbose]\n"
			"       pfm_fuzz --replay LOG [--only N] [--verbose]\n"
			"       pfm_fuzz --repro LOG [--only N]\n");
	exit(2);
}

static void parse_args(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--verbose")) {
			opt.verbose = 1;
			continue;
		}
		if (!strcmp(a, "--log-ring")) {
			opt.log_ring = 1;
			continue;
		}
		if (!strcmp(a, "--fresh")) {
			opt.fresh = 1;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--seed"))
			opt.seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--seconds"))
			opt.seconds = atol(v);
		else if (!strcmp(a, "--prog-timeout"))
			opt.prog_timeout = atoi(v);
		else if (!strcmp(a, "--log"))
			opt.log_path = v;
		else if (!strcmp(a, "--log-ram"))
			opt.log_ram = v;
		else if (!strcmp(a, "--pcs"))
			opt.pcs_path = v;
		else if (!strcmp(a, "--replay"))
			opt.replay = v;
		else if (!strcmp(a, "--repro"))
			opt.repro = v;
		else if (!strcmp(a, "--only"))
			opt.only = atol(v);
		else if (!strcmp(a, "--procs"))
			opt.procs = atoi(v);
		else
			usage();
	}
}

/* An executor that did not come back clean: its group must die (health.c). */
static int retire_executor(int e, long id)
{
	pid_t pgid = fz_exec_pid(e);

	if (!pgid)
		return 0;
	if (fz_check_group_dies(pgid, logf, id))
		return -1;
	fz_exec_forget(e);
	return 0;
}

/*
 * Programs run in opt.procs executors at once.  What perfmon counts is
 * global, so the leftovers are checked when none runs: after every program
 * with one executor, else after QUIET_EVERY programs each (the others wait
 * for the last to end), which is what the parallel run pays for the check.
 */
#define QUIET_EVERY	32

/* the program each executor runs (its id: -1 if none), kept for the corpus */
static long in_flight[FZ_PROCS_MAX] = { [0 ... FZ_PROCS_MAX - 1] = -1 };
static struct fz_prog prog_of[FZ_PROCS_MAX];
/* the last program each executor ran, which a failure to kill it names */
static long last_of[FZ_PROCS_MAX];
/* the programs given since the leftovers were last checked */
#define UNCHECKED_MAX	(QUIET_EVERY * FZ_PROCS_MAX + FZ_PROCS_MAX)
static long unchecked[UNCHECKED_MAX];
static int nunchecked;

/*
 * After a failure line (F): the programs that may have caused it, for
 * make fuzz-repro to try one at a time (S ids): the failing one, those
 * beside it, and with all, every one since the leftovers were last checked.
 */
static void log_suspects(long id, int all)
{
	int e, i;

	fprintf(logf, "S %ld", id);
	for (e = 0; e < opt.procs; e++)
		if (in_flight[e] >= 0 && in_flight[e] != id)
			fprintf(logf, " %ld", in_flight[e]);
	for (i = 0; all && i < nunchecked; i++)
		if (unchecked[i] != id)
			fprintf(logf, " %ld", unchecked[i]);
	fprintf(logf, "\n");
	fflush(logf);
}

/*
 * A failure while other executors run: their programs must not run on
 * after the manager (rmmod would fail on them, kmemleak scan beside them).
 */
static void abandon(void)
{
	int e;

	for (e = 0; e < opt.procs; e++)
		if (fz_exec_pid(e))
			kill(-fz_exec_pid(e), SIGKILL);
}

/* Logs p (before it can crash the kernel), then hands it to executor e. */
static int give(int e, const struct fz_prog *p, long id)
{
	phase(PH_GEN);
	if (!fz_exec_pid(e))
		fprintf(logf, "# a new executor (%d)\n", e);
	fprintf(logf, "P %ld\n", id);
	fz_prog_write(logf, p);
	log_flush();
	phase(PH_LOG);
	if (fz_exec_give(e, p, opt.verbose, opt.fresh || opt.replay)) {
		fprintf(logf, "F %ld fork: %s\n", id, strerror(errno));
		return -1;
	}
	in_flight[e] = last_of[e] = id;
	prog_of[e] = *p;
	if (nunchecked < UNCHECKED_MAX)
		unchecked[nunchecked++] = id;
	return 0;
}

/*
 * Everything perfmon counts is 0 once no program runs: a kept executor closed
 * what its programs made.  Should something stay counted, the executors that
 * still map or hold a file of perfmon's go, then the others if it still is,
 * before the count is a leak.  0, or -1 after logging a failure.
 */
static int check_quiet(void)
{
	long id = nunchecked ? unchecked[nunchecked - 1] : -1;
	int e, held[FZ_PROCS_MAX], any = 0, round;

	if (!fz_check_nothing_left(NULL, id, 200)) {
		nunchecked = 0;
		return 0;
	}
	/* those that hold a file of perfmon's, then the others if that was not all */
	for (e = 0; e < opt.procs; e++)
		held[e] = fz_exec_holds(e, logf);
	for (e = 0; e < opt.procs; e++)
		any |= held[e];
	for (round = any ? 0 : 1; round < 2; round++) {
		if (round && any && !fz_check_nothing_left(NULL, id, 200))
			break;
		for (e = 0; e < opt.procs; e++) {
			if (!fz_exec_pid(e) || (!round && !held[e]))
				continue;
			nretired[FZ_DONE_LEFT]++;
			if (retire_executor(e, last_of[e])) {
				log_suspects(last_of[e], 1);
				return -1;
			}
		}
	}
	if (fz_check_nothing_left(logf, id, 10000)) {
		log_suspects(id, 1);
		return -1;
	}
	nunchecked = 0;
	return 0;
}

/*
 * Executor e answered (r, why: fz_exec_wait()): its program's checks.
 * drain: the wait was for the last programs before a check, with executors
 * idle.
 */
static int finish(int e, int r, char why, int drain)
{
	long id = in_flight[e];
	unsigned int marked;

	nprogs++;
	nops += prog_of[e].n;
	phase(drain ? PH_DRAIN : PH_RUN);
	fprintf(logf, "R %ld%s\n", id, r == FZ_EXEC_TIMEOUT ? " timeout" : "");
	if (r == FZ_EXEC_TIMEOUT) {
		ntimeouts++;
		fz_dump_timeout(fz_exec_pid(e), logf, id);
	}
	in_flight[e] = -1;
	if (r != FZ_EXEC_KEPT) {
		int st = fz_exec_status(e);

		if (st != -1 && WIFSIGNALED(st))
			fprintf(logf, "# executor retired: %c (signal %d)\n", why, WTERMSIG(st));
		else if (st != -1)
			fprintf(logf, "# executor retired: %c (exit %d)\n", why, WEXITSTATUS(st));
		else
			fprintf(logf, "# executor retired: %c\n", why);
		nretired[(unsigned char)why]++;
		if (retire_executor(e, id)) {
			log_suspects(id, 0);
			return -1;
		}
	}
	fz_check_reap(fz_exec_reaped);
	phase(PH_REAP);
	marked = (unsigned int)__atomic_exchange_n(fz_global_dirty, 0, __ATOMIC_RELAXED);
	if (marked)
		fz_check_restore(marked);
	phase(PH_RESTORE);
	if (fz_check_kmsg(logf, id)) {
		log_suspects(id, 0);
		return -1;
	}
	phase(PH_KMSG);
	if (corpus) {
		size_t fresh = fz_kcov_merge(e, run_seconds());

		if (fresh && ncorpus < CORPUS_MAX)
			corpus[ncorpus++] = prog_of[e];
		fprintf(logf, "E %ld new=%zu cov=%zu corpus=%d\n", id, fresh, fz_kcov_reached(),
			ncorpus);
	} else {
		fprintf(logf, "E %ld\n", id);
	}
	phase(PH_COV);
	return 0;
}

/* replay: the log's programs (those of --only), one after the other */
static struct fz_prog *replay_progs;
static long *replay_ids;
static int replay_n, replay_at;

/* The next program (fresh, mutated from the corpus, or the log's): 0 if none is left. */
static int next_prog(uint64_t *rng, time_t end, struct fz_prog *p, long *id)
{
	if (opt.replay) {
		while (replay_at < replay_n && opt.only >= 0 && replay_ids[replay_at] != opt.only)
			replay_at++;
		if (replay_at == replay_n)
			return 0;
		*id = replay_ids[replay_at];
		*p = replay_progs[replay_at++];
		return 1;
	}
	if (time(NULL) >= end)
		return 0;
	if (ncorpus && fz_below(rng, 3)) {
		*p = corpus[fz_below(rng, ncorpus)];
		fz_prog_mutate(rng, p, &corpus[fz_below(rng, ncorpus)]);
	} else {
		fz_prog_gen(rng, p);
	}
	return 1;
}

static int run_loop(void)
{
	uint64_t rng = opt.seed;
	struct fz_prog p;
	time_t end = time(NULL) + opt.seconds;
	long id = 0, done = 0, every = opt.procs > 1 ? QUIET_EVERY * opt.procs : 1;
	int e, r, busy = 0, more = 1;
	char why;

	for (;;) {
		for (e = 0; more && done < every && e < opt.procs; e++) {
			if (fz_exec_busy(e))
				continue;
			more = next_prog(&rng, end, &p, &id);
			if (!more)
				break;
			if (give(e, &p, id++)) {
				abandon();
				return 1;
			}
			busy++;
		}
		if (!busy) {
			phase(PH_DRAIN);
			if (check_quiet())
				return 1;
			phase(PH_LEFT);
			if (!more)
				return 0;
			done = 0;
			continue;
		}
		r = fz_exec_wait(opt.prog_timeout, &e, &why);
		if (finish(e, r, why, busy < opt.procs)) {
			abandon();
			return 1;
		}
		busy--;
		done++;
	}
}

static int replay(void)
{
	FILE *in = fopen(opt.replay, "r");

	if (!in) {
		perror(opt.replay);
		return 2;
	}
	replay_n = fz_log_read(in, &replay_progs, &replay_ids);
	fclose(in);
	return run_loop();
}

/* The program as a C main() over the runtime (make fuzz-repro pastes them). */
static int repro(void)
{
	struct fz_prog *ps, *p;
	char line[256];
	long *ids;
	FILE *in = fopen(opt.repro, "r");
	int n, i, j, pick = -1;

	if (!in) {
		perror(opt.repro);
		return 2;
	}
	n = fz_log_read(in, &ps, &ids);
	fclose(in);
	for (i = 0; i < n; i++)
		if (opt.only < 0 || ids[i] == opt.only)
			pick = i;
	if (pick < 0) {
		fprintf(stderr, "pfm_fuzz: no such program in %s\n", opt.repro);
		return 2;
	}
	p = &ps[pick];
	printf("\n/* program %ld of %s */\n", ids[pick], opt.repro);
	printf("static const struct fz_prog prog = { .n = %d, .op = {\n", p->n);
	for (i = 0; i < p->n; i++) {
		fz_op_format(&p->op[i], line, sizeof(line));
		printf("\t/* %2d: %s */\n\t{ %u, {", i, line, p->op[i].code);
		for (j = 0; j < FZ_ARGS; j++)
			printf(" %#llxULL,", (unsigned long long)p->op[i].a[j]);
		printf(" } },\n");
	}
	printf("} };\n\nint main(int argc, char **argv)\n{\n"
	       "\tfz_target_main(argc, argv);\t/* an exec'd target: never returns */\n"
	       "\tfz_state_init(\"/proc/self/exe\", getppid());\n"
	       "\tfz_fault_init();\n"
	       "\tfz.verbose = 1;\n"
	       "\tfz_prog_run(&prog, 0, prog.n);\n"
	       "\treturn 0;\n}\n");
	return 0;
}

/*
 * Threads' stacks without guard pages, 1 MiB each: a stack and its guard are
 * two mappings, and glibc keeps the stacks of ended threads mapped for the
 * next ones, so each fork would copy two mappings per thread the executor
 * ever ran at once; guardless, the stacks merge with their anonymous
 * neighbours into one.  The fuzzer's threads recurse nowhere.
 */
static void threads_attr(void)
{
	pthread_attr_t a;

	if (pthread_attr_init(&a))
		return;
	if (!pthread_attr_setguardsize(&a, 0) && !pthread_attr_setstacksize(&a, 1 << 20))
		pthread_setattr_default_np(&a);
	pthread_attr_destroy(&a);
}

int main(int argc, char **argv)
{
	unsigned long long idle0[2];
	const char *step;
	unsigned long ms;
	int ret, kcov, i;

	if (fz_target_main(argc, argv) >= 0)
		return 0;
	ret = fz_selftest_main(argc, argv);
	if (ret >= 0)
		return ret;
	/*
	 * One heap for every thread: a thread's own arena is two mappings more
	 * for each fork to copy (fz_shared())
	 */
	mallopt(M_ARENA_MAX, 1);
	threads_attr();
	parse_args(argc, argv);
	if (opt.repro)
		return repro();
	/* never on a machine without perfmon: a program offlines CPUs, among others */
	if (pfm_door() < 0) {
		fprintf(stderr, "pfm_fuzz: no perfmon here (%s): run it in the guest\n",
			strerror(errno));
		return 2;
	}
	/* a replay runs the log's programs one at a time, as the shrinking needs */
	if (opt.replay)
		opt.procs = 1;
	else if (opt.procs <= 0)
		/* one more than the CPUs: while one waits, the CPUs have another's work */
		opt.procs = (int)sysconf(_SC_NPROCESSORS_ONLN) + 1;
	if (opt.procs < 1)
		opt.procs = 1;
	if (opt.procs > FZ_PROCS_MAX)
		opt.procs = FZ_PROCS_MAX;
	fz_exec_procs(opt.procs);
	if (!opt.seed)
		opt.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);

	logf = stdout;
	if (opt.log_path) {
		logf = fopen(opt.log_path, "w");
		if (!logf) {
			perror(opt.log_path);
			return 2;
		}
	}
	if (opt.log_ring || opt.log_ram) {
		FILE *ring = fz_logring_open(logf, opt.log_ram);

		printf("fuzz: log %s\n", ring ? "in the memory shared with the host" :
		       opt.log_ram ? "on the fallback (/dev/mem refused the memory)" :
		       "on the fallback (no ivshmem device)");
		if (ring)
			logf = ring;
	}
	/* programs' orphans come to the manager, which reaps and counts them */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/*
	 * What a program may aim at the manager (its executor's parent, a
	 * target of its own): an O_ASYNC context's signals, a perf event's
	 * SIGTRAP (attr.sigtrap on the parent's pid, which root may open).
	 */
	signal(SIGIO, SIG_IGN);
	signal(SIGUSR1, SIG_IGN);
	signal(SIGTRAP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	fz_check_init(logf);
	fz_results = fz_shared(fz_nops * sizeof(*fz_results));
	if (fz_results == MAP_FAILED)
		return 2;
	fz_stats = fz_shared(FZ_ST_NR * sizeof(*fz_stats));
	if (fz_stats == MAP_FAILED)
		return 2;
	fz_global_dirty = fz_shared(sizeof(int));
	if (fz_global_dirty == MAP_FAILED)
		return 2;

	fz_fault_init();
	kcov = opt.pcs_path && !fz_kcov_load(opt.pcs_path) && !fz_kcov_enable();
	if (kcov) {
		corpus = calloc(CORPUS_MAX, sizeof(*corpus));
		if (!corpus)
			return 2;
	}
	fprintf(logf, "# pfm_fuzz %d seed=%#llx door=%s kcov=%d pcs=%zu seconds=%ld procs=%d %s\n",
		FZ_LOG_VERSION, (unsigned long long)opt.seed,
		pfm_door() == PFM_DOOR_SYSCALL ? "syscall" : "ioctl", kcov,
		kcov ? fz_kcov_npcs() : 0, opt.replay ? 0 : opt.seconds, opt.procs,
		opt.replay ? "replay" : "fuzz");
	log_flush();
	printf("fuzz: seed %#llx, %s door, coverage %s, fault injection %s, %d executor%s\n",
	       (unsigned long long)opt.seed, pfm_door() == PFM_DOOR_SYSCALL ? "syscall" : "ioctl",
	       kcov ? "on" : "off (no KCOV or no PC table)", fz_faults ? "on" : "off",
	       opt.procs, opt.procs > 1 ? "s side by side" : "");
	fflush(stdout);

	run_start = now_us();
	cpu_jiffies(idle0);
	ret = opt.replay ? replay() : run_loop();
	for (i = 0; i < opt.procs && !ret; i++)
		if (retire_executor(i, nprogs))
			ret = 1;
	if (!ret && fz_check_nothing_left(logf, nprogs, 10000))
		ret = 1;
	fprintf(logf, "# done: %ld programs, %ld operations, %ld timed out, %s\n",
		nprogs, nops, ntimeouts, ret ? "FAILED" : "ok");
	log_flush();
	printf("fuzz: %ld programs, %ld operations, %ld timed out (killed): %s\n",
	       nprogs, nops, ntimeouts, ret ? "FAILED" : "no failure");
	for (i = 0; i < fz_nops; i++) {
		printf("fuzz: %-16s %8lu ok %8lu failed %8lu ms", fz_ops[i].name,
		       fz_results[i][0], fz_results[i][1], fz_results[i][2] / 1000);
		if (corpus)
			printf(" %6lu new PCs", fz_kcov_op_new(i));
		printf("\n");
	}
	if (corpus)
		printf("fuzz: %-16s %6lu new PCs\n", "(targets' own)", fz_kcov_op_new(fz_nops));
	for (i = 0; i < PH_NR; i++)
		printf("fuzz: time %-10s %8lu ms\n", ph_names[i], ph_us[i] / 1000);
	fz_exec_putback(-1, &ms);
	printf("fuzz: time %-10s %8lu ms (of run: the executor putting itself back)\n",
	       "put-back", ms);
	for (i = 0; (step = fz_exec_putback(i, &ms)); i++)
		printf("fuzz: time put-back %-10s %8lu ms\n", step, ms);
	for (i = 0; i < FZ_ST_NR; i++) {
		printf("fuzz: time %-16s %8lu ms %6lu times", st_names[i], fz_stats[i][1] / 1000,
		       fz_stats[i][0]);
		if (corpus && i >= FZ_ST_SCEN && i < FZ_ST_FAULT)
			printf(" %6lu new PCs", fz_kcov_op_new(fz_nops + 1 + i));
		printf("\n");
	}
	for (i = 0; fz_faults && i < fz_nops; i++)
		if (fz_fault_sites_of(i))
			printf("fuzz: fault sites of %-16s %4u at most\n", fz_ops[i].name,
			       fz_fault_sites_of(i));
	if (fz_faults)
		printf("fuzz: faults on a signal's delivery %lu (SIGSEGV, taken)\n",
		       fz_fault_on_signal());
	printf("fuzz: guest CPUs idle %lu%% of the run\n", idle_pct(idle0));
	fz_check_report(stdout);
	printf("fuzz: mappings listed after %lu programs\n", fz_exec_maps_listed());
	for (i = 0; i < 256; i++)
		if (nretired[i])
			printf("fuzz: executors retired (%c) %ld\n", i, nretired[i]);
	if (corpus) {
		fz_kcov_report(stdout, run_seconds());
		printf("fuzz: corpus %d programs\n", ncorpus);
	}
	return ret;
}
