// SPDX-License-Identifier: GPL-2.0
/*
 * The example program of perf_event_open(2), as a user would copy it, with a
 * software event in place of the instruction count (the guest has no PMU): user
 * page faults around a loop that touches FAULT_PAGES fresh pages.  Dynamically
 * linked and calling syscall(), so that the preload (pfm-perf) can answer it.
 * Prints "Used N page faults"; perf-clients.sh compares N natively and through the
 * shim, and N must be FAULT_PAGES both ways.
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FAULT_PAGES	256

static long perf_event_open(struct perf_event_attr *hw_event, pid_t pid, int cpu,
			    int group_fd, unsigned long flags)
{
	return syscall(__NR_perf_event_open, hw_event, pid, cpu, group_fd, flags);
}

int main(void)
{
	long psz = sysconf(_SC_PAGESIZE), i;
	struct perf_event_attr pe;
	long long count;
	char *p;
	int fd;

	p = mmap(NULL, FAULT_PAGES * psz, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return EXIT_FAILURE;
	}

	memset(&pe, 0, sizeof(pe));
	pe.type = PERF_TYPE_SOFTWARE;
	pe.size = sizeof(pe);
	pe.config = PERF_COUNT_SW_PAGE_FAULTS;
	pe.disabled = 1;
	pe.exclude_kernel = 1;
	pe.exclude_hv = 1;

	fd = perf_event_open(&pe, 0, -1, -1, 0);
	if (fd == -1) {
		fprintf(stderr, "Error opening leader %llx\n", (unsigned long long)pe.config);
		return EXIT_FAILURE;
	}

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < FAULT_PAGES; i++)
		p[i * psz] = 1;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != sizeof(count)) {
		perror("read");
		return EXIT_FAILURE;
	}

	printf("Used %lld page faults\n", count);
	close(fd);
	return EXIT_SUCCESS;
}
