// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: the monitored threads and CPUs of one run (pfmon.h).
 *
 * One context per monitored thread (a command, -p, -t) or CPU (-a, -C), all
 * programmed alike; the counts are their sums.
 *
 * A command's new threads and processes are counted by the kernel: its context
 * is created with PFM_FL_INHERIT, which gives each of them a context of its own
 * before its first instruction and adds its counts into the command's at its
 * exit (perfmon.h, INHERITANCE).  The command then runs without ptrace: it waits
 * on a pipe until its context is attached and started, then execs, so the counts
 * cover it from its first instruction.
 *
 * A read of an inherit context has its live children's counts, and its sets'
 * durations (pfm_getinfo_evtsets()) are its family's: -I reads it as any other.
 *
 * What the kernel's inheritance cannot give is still done with ptrace,
 * PTRACE_O_TRACEFORK, VFORK and CLONE, each new thread or process getting its
 * own context from pfmon before its first instruction: --per-thread (a line per
 * thread), sampling and several sets (a sampling format, which an inherit
 * context cannot have).  The command then stops at a SIGSTOP it sends itself
 * before exec, so that its context is attached and started before the exec.
 * With --no-inherit only the command's first thread is counted.
 *
 * -p follows a running process with ptrace too: its threads exist before pfmon
 * and each gets a context of pfmon's, and a thread made while pfmon reads the
 * task list would be found twice, by the list and by the kernel's inheritance;
 * so after attaching a context to each thread in /proc/PID/task pfmon
 * takes every thread with PTRACE_SEIZE, which neither stops nor signals it, with
 * the same options, and reads the task list again until no thread is new.  A
 * thread created from then on gets its context before its first instruction,
 * so its counts are exact.  A process pfmon may count but not seize (one a
 * debugger traces already) is counted without its new threads, with a warning.
 * -t counts the threads named, and only them.
 *
 * A context whose thread ends (the kernel queues PFM_MSG_END) is read and
 * closed then: its counts join the retired ones of its group, and its fd and
 * its place in ctx_per_user_max are given back.  A group is what is printed
 * apart: every context (by default), a thread (--per-thread) or a CPU (-A).
 *
 * -I: the counts are read every interval, and once more at the end, whatever
 * ended the run, so that the last interval, partial, is printed too.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pfmon.h"
#include "smpl.h"

struct tctx {
	int fd;
	int grp;		/* its group */
	long target;		/* thread id or CPU */
	struct smpl_buf *smpl;
	const void *log;	/* the set switch log, with several sets */
	struct freq_state freq;	/* -F */
};

struct tracee {
	pid_t tid;
	int stopped_once;	/* its initial SIGSTOP was seen */
};

static struct tctx *ctxs;
static int nctx;
struct tgroup {
	struct pfmon_group out;		/* the counts given to the caller */
	struct pfmon_count *retired;	/* of its closed contexts */
};
static struct tgroup *groups;
static struct pfmon_group *out_groups;
static int ngroups;
static struct tracee *tracees;
static int ntracees;
static int sigpipe[2] = { -1, -1 };
static pid_t child;
static int seizing;		/* -p: the threads are seized, not children */

static void *grow(void *p, int n, size_t size)
{
	p = realloc(p, (n + 1) * size);
	if (!p) {
		perror("pfmon");
		exit(1);
	}
	return p;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The thread's name, kept when the thread is gone already. */
static void group_comm(struct tgroup *g)
{
	char path[64], buf[16];
	FILE *f;

	if (opts.aggr != AGGR_THREAD)
		return;
	snprintf(path, sizeof(path), "/proc/%ld/comm", g->out.id);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(g->out.comm, sizeof(g->out.comm), "%s", buf);
	}
	fclose(f);
}

/* The group of a thread or CPU, made on first use. */
static int group_of(long target)
{
	long id = opts.aggr == AGGR_ALL ? -1 : target;
	struct tgroup *g;
	int i;

	for (i = 0; i < ngroups; i++)
		if (groups[i].out.id == id)
			return i;
	groups = grow(groups, ngroups, sizeof(*groups));
	g = &groups[ngroups];
	memset(g, 0, sizeof(*g));
	g->out.id = id;
	g->retired = calloc(opts.nev, sizeof(*g->retired));
	g->out.count = calloc(opts.nev, sizeof(*g->out.count));
	if (!g->retired || !g->out.count)
		pfmon_fail("calloc", ENOMEM, -1);
	group_comm(g);
	return ngroups++;
}

static void groups_free(void)
{
	int i;

	for (i = 0; i < ngroups; i++) {
		free(groups[i].retired);
		free(groups[i].out.count);
	}
	free(groups);
	free(out_groups);
	groups = NULL;
	out_groups = NULL;
	ngroups = 0;
}

/* The command's new threads and processes are the kernel's to follow (see above). */
static int kernel_inherit(void)
{
	return opts.argv && opts.inherit && !opts.ncpus && !opts.npids &&
	       opts.aggr != AGGR_THREAD && !opts.smpl_period && opts.nsets <= 1;
}

#define INHERIT_LOST	"/sys/kernel/perfmon/inherit_lost_count"

/* New threads the kernel could not give a context so far (all users'), or -1. */
static long inherit_lost(void)
{
	long n = -1;
	FILE *f;

	f = fopen(INHERIT_LOST, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

/*
 * A started context on the thread or CPU; fatal: a failure ends pfmon, else
 * the target is left uncounted with a warning (a thread pfmon follows).
 */
static int ctx_open(long target, int fatal)
{
	int flags = PFM_FL_CLOEXEC | (opts.ncpus ? PFM_FL_SYSTEM_WIDE : 0) |
		    (kernel_inherit() ? PFM_FL_INHERIT : 0);
	const char *what = "pfm_create_context";
	struct smpl_buf *smpl = NULL;
	const void *log = NULL;
	int fd, err;

	if (opts.smpl_period)
		fd = smpl_open(flags, &smpl);
	else if (opts.nsets > 1)
		fd = muxlog_open(flags, &log);
	else
		fd = pfm_create_context(flags);
	if (fd < 0)
		goto fail;
	what = "pfm_write_pmcs";
	if (evsel_program(fd))
		goto fail_close;
	what = "pfm_load_context";
	if (pfm_load_context(fd, 0, target))
		goto fail_close;
	what = "pfm_start";
	if (pfm_start(fd, 0))
		goto fail_close;
	/* messages are read until the queue is empty */
	fcntl(fd, F_SETFL, O_NONBLOCK);
	ctxs = grow(ctxs, nctx, sizeof(*ctxs));
	ctxs[nctx++] = (struct tctx){ fd, group_of(target), target, smpl, log,
				      { 0, now_ns(), opts.smpl_period } };
	return 0;
fail_close:
	err = errno;
	if (smpl)
		smpl_close(smpl);
	if (log)
		muxlog_close(log);
	close(fd);
	errno = err;
fail:
	if (fatal) {
		if (child > 0)
			kill(child, SIGKILL);
		pfmon_fail(what, errno, !strcmp(what, "pfm_load_context") ? target : -1);
	}
	pfmon_warn(what, errno, target);
	return -1;
}

/*
 * Adds the context's counts to c: the sampled event's from its samples.  final:
 * the context counts no more (stopped, or its thread ended), and the estimates
 * of multiplexed counts are made.
 */
static void ctx_read(struct tctx *t, struct pfmon_count *c, int final)
{
	struct pfmon_count one[PFMON_MAX_EVENTS];
	int i;

	memset(one, 0, opts.nev * sizeof(one[0]));
	if (t->smpl)
		smpl_drain(t->smpl);
	if (evsel_read(t->fd, one))
		pfmon_fail("pfm_read_pmds", errno, -1);
	/*
	 * The sampled counter restarts from -period at each sample: its events are
	 * the whole periods sampled and what it counted since the last reset; with
	 * -F the periods vary, and a hidden counter has the count.
	 */
	if (opts.smpl_freq)
		one[0].raw = one[opts.shadow].raw;
	else if (t->smpl)
		one[0].raw = smpl_count(t->smpl) * opts.smpl_period + one[0].raw +
			     opts.smpl_period;
	if (final)
		muxlog_estimate(t->fd, t->log, one, c);
	for (i = 0; i < opts.nev; i++) {
		c[i].raw += one[i].raw;
		c[i].running += one[i].running;
		c[i].enabled += one[i].enabled;
		c[i].final = final;
	}
}

static void ctx_retire(int i)
{
	group_comm(&groups[ctxs[i].grp]);
	ctx_read(&ctxs[i], groups[ctxs[i].grp].retired, 1);
	if (ctxs[i].smpl)
		smpl_close(ctxs[i].smpl);
	if (ctxs[i].log)
		muxlog_close(ctxs[i].log);
	close(ctxs[i].fd);
	ctxs[i] = ctxs[--nctx];
}

/*
 * The counts of each group, and their sum in c; final: every context is
 * stopped (the estimates are made only then).
 */
static void totals(struct pfmon_count *c, int final)
{
	struct pfmon_count *gc;
	int g, i;

	for (g = 0; g < ngroups; g++) {
		gc = groups[g].out.count;
		memcpy(gc, groups[g].retired, opts.nev * sizeof(*gc));
		for (i = 0; i < opts.nev; i++)
			gc[i].final = final;
	}
	for (i = 0; i < nctx; i++)
		ctx_read(&ctxs[i], groups[ctxs[i].grp].out.count, final);
	memset(c, 0, opts.nev * sizeof(*c));
	for (i = 0; i < opts.nev; i++)
		c[i].final = final;
	for (g = 0; g < ngroups; g++) {
		gc = groups[g].out.count;
		for (i = 0; i < opts.nev; i++) {
			c[i].raw += gc[i].raw;
			c[i].running += gc[i].running;
			c[i].enabled += gc[i].enabled;
			c[i].est += gc[i].est;
			c[i].bound2 += gc[i].bound2;
			c[i].unbounded += gc[i].unbounded;
		}
	}
}

/* The groups as the caller sees them (their counts as totals() left them). */
static const struct pfmon_group *view(int *n)
{
	int g;

	out_groups = grow(out_groups, ngroups, sizeof(*out_groups));
	for (g = 0; g < ngroups; g++)
		out_groups[g] = groups[g].out;
	*n = ngroups;
	return out_groups;
}

/* Messages of context i: drain and resume at a notification, retire at the end. */
static void ctx_messages(int i)
{
	union pfarg_msg msg;

	while (read(ctxs[i].fd, &msg, sizeof(msg)) == sizeof(msg)) {
		if (msg.type == PFM_MSG_OVFL && ctxs[i].smpl)
			smpl_restart(ctxs[i].fd, ctxs[i].smpl);
		if (msg.type == PFM_MSG_END) {
			ctx_retire(i);
			return;
		}
	}
}

static struct tracee *tracee(pid_t tid)
{
	int i;

	for (i = 0; i < ntracees; i++)
		if (tracees[i].tid == tid)
			return &tracees[i];
	tracees = grow(tracees, ntracees, sizeof(*tracees));
	/* a seized thread's first stop is no SIGSTOP: a SIGSTOP is a signal */
	tracees[ntracees] = (struct tracee){ tid, seizing };
	/* a new thread or process of the command: count it from its start */
	if (ntracees && !opts.ncpus)
		ctx_open(tid, 0);
	return &tracees[ntracees++];
}

static void on_signal(int sig)
{
	char c = sig;
	int err = errno;

	/* when the pipe is full, a wake-up is pending anyway */
	if (write(sigpipe[1], &c, 1) < 0)
		errno = err;
	errno = err;
}

/* ptrace stops and exits of the command's threads; 1 when the command ended */
static int reap(struct pfmon_result *res)
{
	unsigned long msg;
	struct rusage ru;
	siginfo_t si;
	int st, ev, sig, i;
	pid_t tid;

	while ((tid = wait4(-1, &st, WNOHANG | __WALL, &ru)) > 0) {
		if (!WIFSTOPPED(st)) {
			if (tid != child)
				continue;
			res->status = st;
			res->ru = ru;
			res->have_ru = 1;
			return 1;
		}
		ev = (unsigned int)st >> 16;
		sig = WSTOPSIG(st);
		if (ev == PTRACE_EVENT_FORK || ev == PTRACE_EVENT_VFORK ||
		    ev == PTRACE_EVENT_CLONE) {
			if (!ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg))
				tracee(msg);
			sig = 0;
		} else if (ev == PTRACE_EVENT_EXEC) {
			/* the thread's new name, for --per-thread */
			for (i = 0; i < nctx; i++)
				if (ctxs[i].target == tid)
					group_comm(&groups[ctxs[i].grp]);
			sig = 0;
		} else if (ev == PTRACE_EVENT_EXIT) {
			/* its mappings, for the sample report, before they go */
			smpl_snapshot_maps(tid);
			sig = 0;
		} else if (ev == PTRACE_EVENT_STOP && (sig == SIGSTOP || sig == SIGTSTP ||
							sig == SIGTTIN || sig == SIGTTOU)) {
			/* a seized thread's group stop: it stays stopped until SIGCONT */
			ptrace(PTRACE_LISTEN, tid, 0, 0);
			continue;
		} else if (ev == PTRACE_EVENT_STOP) {
			/*
			 * A seized thread's first stop may come before its creator's
			 * clone event: its context first, before it runs
			 */
			tracee(tid);
			sig = 0;
		} else if (ev) {
			sig = 0;
		} else if (sig == SIGSTOP && !tracee(tid)->stopped_once) {
			tracee(tid)->stopped_once = 1;
			sig = 0;
		} else if (ptrace(PTRACE_GETSIGINFO, tid, 0, &si) && errno == EINVAL) {
			/* a group stop, not a signal to pass on: resume it */
			sig = 0;
		}
		ptrace(PTRACE_CONT, tid, 0, sig);
	}
	return 0;
}

/* The command, stopped before its exec under ptrace (spawn.c). */
static void spawn(int errfd_pair[2])
{
	if (!spawn_traced(errfd_pair, &child))
		return;		/* it failed: the caller reads why */
	tracee(child)->stopped_once = 1;
	/* until it runs, pfmon's exit must not leave it stopped */
	ptrace(PTRACE_SETOPTIONS, child, 0, PTRACE_O_EXITKILL);
}

static long trace_options(void)
{
	long options = PTRACE_O_TRACEEXEC;

	/* a CPU session counts every thread there already */
	if (opts.inherit && !opts.ncpus && !kernel_inherit())
		options |= PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE;
	if (opts.smpl_period)
		options |= PTRACE_O_TRACEEXIT;
	return options;
}

static void run_command(void)
{
	ptrace(PTRACE_SETOPTIONS, child, 0, trace_options());
	ptrace(PTRACE_CONT, child, 0, 0);
}

/*
 * The threads of process pid without a context: a context each (fatal: the
 * first pass, whose failures end pfmon), and, with seize, the thread seized.
 * Returns how many were new, or -1 when a seize failed.
 */
static int attach_tasks(int pid, int fatal, int seize)
{
	char path[64];
	struct dirent *d;
	int i, n = 0, ret = 0;
	DIR *dir;
	pid_t tid;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir) {
		if (!fatal)
			return 0;
		/* no /proc/PID: no such process, as kill(2) would say */
		fprintf(stderr, "pfmon: process %d: %s\n", pid,
			strerror(errno == ENOENT ? ESRCH : errno));
		exit(1);
	}
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		tid = atol(d->d_name);
		for (i = 0; i < ntracees && tracees[i].tid != tid; i++)
			;
		if (i < ntracees)
			continue;
		if (!seize) {
			ctx_open(tid, fatal);
			continue;
		}
		/* registered first: tracee() opens contexts only for later threads */
		tracees = grow(tracees, ntracees, sizeof(*tracees));
		tracees[ntracees++] = (struct tracee){ tid, 1 };
		if (ctx_open(tid, fatal) < 0)
			continue;
		n++;
		if (ptrace(PTRACE_SEIZE, tid, 0, trace_options()) && errno != ESRCH) {
			ret = -1;
			break;
		}
	}
	closedir(dir);
	return ret < 0 ? ret : n;
}

/* -p: every thread of the process, and, but with --no-inherit, later ones; -t: the thread */
static void attach_pids(void)
{
	int i, n, err;

	seizing = 0;
	for (i = 0; i < opts.npids; i++) {
		if (opts.pid_is_tid[i]) {
			ctx_open(opts.pids[i], 1);
			continue;
		}
		if (!opts.inherit) {
			attach_tasks(opts.pids[i], 1, 0);
		} else {
			seizing = 1;
			n = attach_tasks(opts.pids[i], 1, 1);
			/* threads made while the first ones were seized, until none */
			while (n > 0)
				n = attach_tasks(opts.pids[i], 0, 1);
			if (n < 0) {
				err = errno;
				fprintf(stderr, "pfmon: process %d: its new threads are not counted: "
					"PTRACE_SEIZE: %s\n", opts.pids[i], strerror(err));
			}
		}
		if (opts.smpl_period)
			smpl_snapshot_maps(opts.pids[i]);
	}
}

/* Lets the seized threads go: each is stopped, then detached. */
static void release_seized(void)
{
	int i, st;

	for (i = 0; i < ntracees; i++) {
		if (ptrace(PTRACE_INTERRUPT, tracees[i].tid, 0, 0))
			continue;
		if (waitpid(tracees[i].tid, &st, __WALL) != tracees[i].tid || !WIFSTOPPED(st))
			continue;
		/* a signal it was stopped for is delivered as it goes */
		ptrace(PTRACE_DETACH, tracees[i].tid, 0,
		       (st >> 16) ? 0 : WSTOPSIG(st) == SIGTRAP ? 0 : WSTOPSIG(st));
	}
	seizing = 0;
}

static void setup_signals(void)
{
	struct sigaction sa;

	if (sigpipe[0] < 0 && pipe2(sigpipe, O_CLOEXEC | O_NONBLOCK))
		pfmon_fail("pipe2", errno, -1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	/* a handler, not SIG_IGN: the command gets the default back at exec */
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void target_run(struct pfmon_result *res, pfmon_tick_fn tick)
{
	struct pollfd pfd[1 + 1024];
	int errpipe[2] = { -1, -1 }, i, n, done = 0, timeout, err;
	long lost = kernel_inherit() ? inherit_lost() : -1;
	int go = -1;
	uint64_t start, next_tick = 0, next_adapt = 0, t, last_tick;
	const struct pfmon_group *v;
	char c;

	res->count = calloc(opts.nev, sizeof(*res->count));
	if (!res->count)
		pfmon_fail("calloc", ENOMEM, -1);
	groups_free();
	/* the sum of every context is a group of its own from the start */
	if (opts.aggr == AGGR_ALL)
		group_of(-1);
	setup_signals();
	child = 0;
	if (opts.argv) {
		if (pipe2(errpipe, O_CLOEXEC))
			pfmon_fail("pipe2", errno, -1);
		if (kernel_inherit())
			go = spawn_untraced(errpipe, &child);
		else
			spawn(errpipe);
	}
	for (i = 0; i < opts.ncpus; i++)
		ctx_open(opts.cpus[i], 1);
	attach_pids();
	if (opts.argv && !opts.ncpus && child > 0 && (ntracees || go >= 0))
		ctx_open(child, 1);
	start = now_ns();
	last_tick = start;
	if (opts.interval_ms)
		next_tick = start + opts.interval_ms * 1000000ULL;
	if (opts.smpl_freq)
		next_adapt = start + freq_adapt_ms() * 1000000ULL;
	if (go >= 0) {
		/* counted from here: the exec */
		if (write(go, "g", 1) != 1)
			pfmon_fail("write", errno, -1);
		close(go);
	} else if (opts.argv && ntracees) {
		run_command();
	}
	else if (opts.argv)
		done = 1;	/* it could not even stop itself: errpipe says why */

	while (!done) {
		pfd[0] = (struct pollfd){ sigpipe[0], POLLIN, 0 };
		for (n = 0; n < nctx && n < 1024; n++)
			pfd[1 + n] = (struct pollfd){ ctxs[n].fd, POLLIN, 0 };
		timeout = -1;
		t = now_ns();
		if (next_tick)
			timeout = next_tick > t ? (next_tick - t + 999999) / 1000000 : 0;
		if (next_adapt && (timeout < 0 || next_adapt < next_tick))
			timeout = next_adapt > t ? (next_adapt - t + 999999) / 1000000 : 0;
		if (poll(pfd, 1 + n, timeout) < 0 && errno != EINTR)
			pfmon_fail("poll", errno, -1);
		t = now_ns();
		if (next_tick && t >= next_tick) {
			totals(res->count, 0);
			v = view(&n);
			tick(v, n, t - start);
			last_tick = t;
			next_tick += opts.interval_ms * 1000000ULL;
		}
		if (next_adapt && t >= next_adapt) {
			for (i = 0; i < nctx; i++)
				freq_adapt(ctxs[i].fd, &ctxs[i].freq, t);
			next_adapt = t + freq_adapt_ms() * 1000000ULL;
		}
		for (i = n; i > 0; i--)
			if (pfd[i].revents & POLLIN)
				ctx_messages(i - 1);
		while (read(sigpipe[0], &c, 1) == 1)
			if ((c == SIGINT || c == SIGTERM) && !opts.argv)
				done = 1;
		if ((opts.argv || seizing) && reap(res) && opts.argv)
			done = 1;
		/* -p, -t: until every thread has ended */
		if (!opts.argv && !opts.ncpus && !nctx)
			done = 1;
	}
	t = now_ns();
	res->elapsed_ns = t - start;
	for (i = 0; i < nctx; i++)
		pfm_stop(ctxs[i].fd, 0);
	while (nctx)
		ctx_retire(nctx - 1);
	totals(res->count, 1);
	res->groups = view(&res->ngroups);
	/* the kernel's count is every user's: a loss of another run shows here too */
	if (lost >= 0 && inherit_lost() > lost)
		fprintf(stderr, "pfmon: not counted: %ld new threads or processes, and what they "
			"started: the kernel could not give them a context (ctx_per_user_max, "
			"memory: %s)\n", inherit_lost() - lost, INHERIT_LOST);
	if (seizing)
		release_seized();
	ntracees = 0;
	if (errpipe[0] >= 0) {
		if (read(errpipe[0], &err, sizeof(err)) == sizeof(err)) {
			fprintf(stderr, "pfmon: %s: %s\n", opts.argv[0], strerror(err));
			res->exec_failed = 1;
			if (child > 0 && !res->have_ru)
				waitpid(child, NULL, __WALL);
		}
		close(errpipe[0]);
	}
	/* the last interval, partial, up to the end (none for a command never run) */
	if (opts.interval_ms && t > last_tick && !res->exec_failed)
		tick(res->groups, res->ngroups, t - start);
}
