// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff's clocks-together check: the kernel's clock event and the shim's, both
 * opened on one child, compared over the same stretch of its run.
 *
 * The stretch runs from one stop of the child (a SIGSTOP it raises itself) to the
 * next, TOGETHER_SPIN_MS of CPU time apart.  Both clocks are read while the child
 * is stopped, so both see the same switches in and out: they may differ only by
 * where each takes the time of a switch (perfmon the scheduler's stamps, perf_events
 * its own reading of the clock), microseconds.
 *
 * A whole run from enable to exit is not compared: the two begin and end a
 * thread's clock at different points.  perf_events starts at the thread's first
 * switch-in after the enable and stops before the exiting thread releases its
 * memory (perf_event_exit_task() comes before exit_mm() in do_exit()); the shim
 * starts when the thread's hook goes on (its first return to user mode after the
 * attach) and stops at its exit hook (sched_process_exit, after exit_mm()).  Under
 * TCG on a loaded host either end takes milliseconds (more on the debug kernel,
 * whose exit_mm() is slow), so whole runs do not agree.
 *
 * A host that stops the virtual CPU inside one switch's window (the guest's clock
 * runs on, the two readings are then milliseconds apart) still parts them: the
 * stretch is run up to TOGETHER_TRIES times, and the clocks pass at the first one
 * they agree on.  A clock that drifts, or counts where it should not, fails all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diff.h"

#define TOGETHER_SPIN_MS	250
#define TOGETHER_TRIES		3
#define TOGETHER_PCT		0.5
#define TOGETHER_SLACK_NS	1000000.0

static int near(unsigned long long a, unsigned long long b)
{
	double d = (double)a * TOGETHER_PCT / 100 + TOGETHER_SLACK_NS;

	return (double)b >= (double)a - d && (double)b <= (double)a + d;
}

/* Spins between stops until killed: each stretch is one try. */
static void work_spin_stops(long ms)
{
	for (;;) {
		raise(SIGSTOP);
		work_spin(ms);
	}
}

/* Waits for the child's next stop: 0 once it is stopped. */
static int child_stopped(pid_t pid)
{
	int st;

	return waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st) ? 0 : -1;
}

/* Both events' count, time enabled and time running: 0, or -1 and a line why. */
static int read_both(int fd[2], const struct backend *be[2],
		     unsigned long long v[2][3], const char *name)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (read(fd[i], v[i], sizeof(v[i])) != (ssize_t)sizeof(v[i])) {
			printf("DIFF clocks-together: %s: %s read: %s\n", name,
			       be[i]->name, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* 0 when both clocks agree on one stretch, else 1 and a line for each try */
static int one_clock(const struct backend *na, const struct backend *sh,
		     unsigned long long config, const char *name)
{
	unsigned long long v[2][3], w[2][3], d[2][3];
	const struct backend *be[2] = { na, sh };
	struct perf_event_attr a;
	struct child c = { .no_lock = 1 };
	int fd[2] = { -1, -1 }, i, j, try, bad = 0;

	if (child_start(&c, work_spin_stops, TOGETHER_SPIN_MS)) {
		printf("DIFF clocks-together: %s: no child\n", name);
		return 1;
	}
	for (i = 0; i < 2; i++) {
		attr_sw(&a, config);
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		fd[i] = be[i]->open(&a, c.pid, -1, -1, 0);
		if (fd[i] < 0 || ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0)) {
			printf("DIFF clocks-together: %s: %s open/enable: %s\n", name,
			       be[i]->name, strerror(errno));
			bad = 1;
		}
	}
	child_go(&c);
	if (child_stopped(c.pid)) {
		printf("DIFF clocks-together: %s: the child did not stop\n", name);
		bad = 1;
	}
	if (!bad && read_both(fd, be, v, name))
		bad = 1;
	for (try = 0; !bad && try < TOGETHER_TRIES; try++) {
		kill(c.pid, SIGCONT);
		if (child_stopped(c.pid)) {
			printf("DIFF clocks-together: %s: the child did not stop\n", name);
			bad = 1;
			break;
		}
		if (read_both(fd, be, w, name)) {
			bad = 1;
			break;
		}
		for (i = 0; i < 2; i++)
			for (j = 0; j < 3; j++)
				d[i][j] = w[i][j] - v[i][j];
		memcpy(v, w, sizeof(v));
		if (near(d[0][0], d[1][0]) && near(d[0][1], d[1][1]) &&
		    d[1][1] == d[1][2]) {
			printf("clocks-together: %s: native %llu ena %llu run %llu, "
			       "shim %llu ena %llu run %llu\n", name,
			       d[0][0], d[0][1], d[0][2], d[1][0], d[1][1], d[1][2]);
			break;
		}
		printf("clocks-together: %s: try %d: native %llu ena %llu run %llu, "
		       "shim %llu ena %llu run %llu (%.1f %% and 1 ms apart at most)\n",
		       name, try + 1, d[0][0], d[0][1], d[0][2],
		       d[1][0], d[1][1], d[1][2], TOGETHER_PCT);
	}
	if (!bad && try == TOGETHER_TRIES) {
		printf("DIFF clocks-together: %s: %d stretches of %d ms, none agreed\n",
		       name, TOGETHER_TRIES, TOGETHER_SPIN_MS);
		bad = 1;
	}
	kill(c.pid, SIGKILL);
	child_wait(&c);
	for (i = 0; i < 2; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	return bad;
}

int clocks_together(const struct backend *native, const struct backend *shim)
{
	int bad;

	bad = one_clock(native, shim, PERF_COUNT_SW_TASK_CLOCK, "task-clock");
	bad |= one_clock(native, shim, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock");
	if (!bad)
		printf("ok clocks-together (task-clock, cpu-clock within %.1f %% and 1 ms)\n",
		       TOGETHER_PCT);
	return bad;
}
