// SPDX-License-Identifier: GPL-2.0
/*
 * fallback native|shim|refused: an event perfmon cannot serve, opened by a
 * program through the preload (libpfm-glue/preload/fallback.c).
 *
 * The event is a kprobe of the kernel's kprobe PMU on __x64_sys_getppid: a
 * dynamic PMU type, which perfmon refuses (ENOENT) and is not meant to serve,
 * counting exactly the getppid() calls the program makes.  What each mode
 * expects:
 *   native   run alone: the kernel answers everything, groups included;
 *   shim     under pfm-perf, the kernel's call reachable: the event alone is
 *            the kernel's (perfmon's perf_events_count does not move) and
 *            counts, samples into its ring, polls, reads and closes as
 *            natively; groups mixing it with perfmon's events are EINVAL
 *            both ways, SET_OUTPUT between them EBADF;
 *   refused  under pfm-perf with the kernel's call blocked (noperf) or the
 *            fallback off (PFM_PERF_FALLBACK=0): perfmon's ENOENT.
 * Dynamic, as perf is: the preload answers its syscall().  Prints a line per
 * failed check and "fallback: ok (N checks)" or "fallback: K of N checks
 * failed"; exit status 0 if all passed, 1 if not, 2 on bad usage or a guest
 * without the kprobe PMU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

enum { NATIVE, SHIM, REFUSED };

#define CALLS		1000	/* getppid() calls counted */
#define SAMPLES		10	/* getppid() calls sampled */

static int mode, nchecks, nfailed;

static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	nchecks++;
	if (ok)
		return;
	nfailed++;
	printf("FAIL ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static int sys_open(struct perf_event_attr *a, int group_fd, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, a, 0, -1, group_fd, flags);
}

static long read_num(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* perfmon's perf events now, -1 without perfmon's perf layer */
static long pfm_events(void)
{
	return read_num("/sys/kernel/perfmon/perf_events_count");
}

static int kprobe_type;

static void kprobe_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = kprobe_type;
	a->size = sizeof(*a);
	a->kprobe_func = (unsigned long)"__x64_sys_getppid";
	a->disabled = 1;
}

static void sw_attr(struct perf_event_attr *a, unsigned long long config)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof(*a);
	a->config = config;
	a->disabled = 1;
}

static void getppids(int n)
{
	while (n--)
		syscall(SYS_getppid);
}

/* counting alone: every call on the fd is the kernel's */
static void counting(void)
{
	unsigned long long buf[3] = { 0 }, id = 0;
	long before = pfm_events();
	struct perf_event_attr a;
	struct pollfd p;
	int fd;

	kprobe_attr(&a);
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_ID;
	fd = sys_open(&a, -1, PERF_FLAG_FD_CLOEXEC);
	if (mode == REFUSED) {
		check(fd < 0 && errno == ENOENT, "kprobe alone: %d (%s), not ENOENT",
		      fd, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	check(fd >= 0, "kprobe alone: %s", strerror(errno));
	if (fd < 0)
		return;
	if (mode == SHIM)
		check(pfm_events() == before, "perfmon's events went from %ld to %ld",
		      before, pfm_events());
	check(fcntl(fd, F_GETFD) == FD_CLOEXEC, "F_GETFD: not FD_CLOEXEC");
	check(!fcntl(fd, F_SETFL, O_NONBLOCK) && (fcntl(fd, F_GETFL) & O_NONBLOCK),
	      "F_SETFL O_NONBLOCK");
	p.fd = fd;
	p.events = POLLIN;
	p.revents = 0;
	/* no ring: POLLHUP, as 6.1's perf_poll() */
	check(poll(&p, 1, 0) == 1 && p.revents == POLLHUP, "poll: revents %#x",
	      p.revents);
	check(!ioctl(fd, PERF_EVENT_IOC_RESET, 0), "RESET: %s", strerror(errno));
	check(!ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), "ENABLE: %s", strerror(errno));
	getppids(CALLS);
	check(!ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), "DISABLE: %s", strerror(errno));
	getppids(CALLS);
	check(read(fd, buf, sizeof(buf)) == sizeof(buf), "read: %s", strerror(errno));
	check(buf[0] == CALLS, "count %llu, not %d", buf[0], CALLS);
	check(buf[1] > 0, "time_enabled 0");
	check(!ioctl(fd, PERF_EVENT_IOC_ID, &id) && id == buf[2],
	      "ID %llu, read's %llu", id, buf[2]);
	check(!close(fd), "close: %s", strerror(errno));
	check(fcntl(fd, F_GETFD) < 0 && errno == EBADF, "fd open after close");
}

/* sampling into the kernel's ring, mapped through the preload */
static void sampling(void)
{
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;
	unsigned long long head, off;
	struct perf_event_attr a;
	int fd, n = 0, mine = 0;
	struct pollfd p;
	char *data;

	if (mode == REFUSED)
		return;
	kprobe_attr(&a);
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TID;
	a.wakeup_events = 1;
	fd = sys_open(&a, -1, 0);
	check(fd >= 0, "sampling kprobe: %s", strerror(errno));
	if (fd < 0)
		return;
	pg = mmap(NULL, 2 * psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(pg != MAP_FAILED, "mmap: %s", strerror(errno));
	if (pg == MAP_FAILED) {
		close(fd);
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	getppids(SAMPLES);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	p.fd = fd;
	p.events = POLLIN;
	p.revents = 0;
	check(poll(&p, 1, 0) == 1 && (p.revents & POLLIN), "poll: revents %#x",
	      p.revents);
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	data = (char *)pg + pg->data_offset;
	for (off = pg->data_tail; off < head; ) {
		struct perf_event_header *h = (void *)(data + off % pg->data_size);

		if (h->type == PERF_RECORD_SAMPLE) {
			unsigned int *pidtid = (void *)(h + 1);

			n++;
			mine += pidtid[1] == (unsigned int)gettid();
		}
		if (!h->size)
			break;
		off += h->size;
	}
	check(n == SAMPLES && mine == SAMPLES, "%d samples, %d of this thread, not %d",
	      n, mine, SAMPLES);
	check(!munmap(pg, 2 * psz), "munmap: %s", strerror(errno));
	close(fd);
}

/* an event of each side as the group_fd of one of the other */
static void groups(void)
{
	struct perf_event_attr a, k;
	int sw, kp, fd, pfd[2];

	sw_attr(&a, PERF_COUNT_SW_TASK_CLOCK);
	sw = sys_open(&a, -1, 0);
	check(sw >= 0, "task-clock: %s", strerror(errno));
	if (sw < 0)
		return;
	kprobe_attr(&k);
	fd = sys_open(&k, sw, 0);
	if (mode == NATIVE)
		check(fd >= 0, "kprobe in a task-clock's group: %s", strerror(errno));
	else
		check(fd < 0 && errno == (mode == SHIM ? EINVAL : ENOENT),
		      "kprobe in a task-clock's group: %d (%s)", fd, strerror(errno));
	if (fd >= 0)
		close(fd);
	fd = sys_open(&k, sw, PERF_FLAG_FD_OUTPUT);
	if (mode == SHIM)
		check(fd < 0 && errno == EINVAL,
		      "kprobe with FD_OUTPUT to a task-clock: %d (%s)", fd, strerror(errno));
	if (fd >= 0)
		close(fd);

	/* an fd that is no event: EBADF everywhere */
	if (!pipe(pfd)) {
		sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
		fd = sys_open(&a, pfd[0], 0);
		check(fd < 0 && errno == EBADF, "group_fd a pipe: %d (%s)", fd,
		      strerror(errno));
		if (fd >= 0)
			close(fd);
		close(pfd[0]);
		close(pfd[1]);
	}

	if (mode == REFUSED) {
		close(sw);
		return;
	}
	kp = sys_open(&k, -1, 0);
	check(kp >= 0, "kprobe leader: %s", strerror(errno));
	if (kp < 0) {
		close(sw);
		return;
	}
	sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	fd = sys_open(&a, kp, 0);
	if (mode == NATIVE)
		check(fd >= 0, "page-faults in a kprobe's group: %s", strerror(errno));
	else
		check(fd < 0 && errno == EINVAL, "page-faults in a kprobe's group: %d (%s)",
		      fd, strerror(errno));
	if (fd >= 0)
		close(fd);
	if (mode == SHIM) {
		/* neither side takes the other's fd for its ring */
		check(ioctl(kp, PERF_EVENT_IOC_SET_OUTPUT, sw) < 0 && errno == EBADF,
		      "SET_OUTPUT kernel -> perfmon: %s", strerror(errno));
		check(ioctl(sw, PERF_EVENT_IOC_SET_OUTPUT, kp) < 0 && errno == EBADF,
		      "SET_OUTPUT perfmon -> kernel: %s", strerror(errno));
	}
	close(kp);
	close(sw);
}

int main(int argc, char **argv)
{
	static const char *const modes[] = { "native", "shim", "refused" };

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (mode = 0; mode < 3; mode++)
		if (argc == 2 && !strcmp(argv[1], modes[mode]))
			break;
	if (mode == 3) {
		fprintf(stderr, "usage: fallback native|shim|refused\n");
		return 2;
	}
	kprobe_type = (int)read_num("/sys/bus/event_source/devices/kprobe/type");
	if (kprobe_type < 0) {
		fprintf(stderr, "fallback: no kprobe PMU\n");
		return 2;
	}
	counting();
	sampling();
	groups();
	if (nfailed) {
		printf("fallback: %d of %d checks failed\n", nfailed, nchecks);
		return 1;
	}
	printf("fallback: ok (%d checks)\n", nchecks);
	return 0;
}
