// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection as syzkaller's executor drives it (fail_nth.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fail_nth.h"

#define DEBUGFS "/sys/kernel/debug"

static const struct {
	const char *path;
	const char *value;
} fail_nth_knobs[] = {
	{ DEBUGFS "/failslab/ignore-gfp-wait", "N" },
	{ DEBUGFS "/failslab/verbose", "0" },
	{ DEBUGFS "/failslab/probability", "0" },
	{ DEBUGFS "/fail_page_alloc/ignore-gfp-wait", "N" },
	{ DEBUGFS "/fail_page_alloc/ignore-gfp-highmem", "N" },
	{ DEBUGFS "/fail_page_alloc/min-order", "0" },
	{ DEBUGFS "/fail_page_alloc/verbose", "0" },
	{ DEBUGFS "/fail_page_alloc/probability", "0" },
	{ DEBUGFS "/fail_usercopy/verbose", "0" },
	{ DEBUGFS "/fail_usercopy/probability", "0" },
};

static int write_knob(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;
	size_t len = strlen(value);

	if (fd < 0)
		return -1;
	if (write(fd, value, len) != (ssize_t)len)
		ret = -1;
	close(fd);
	return ret;
}

int fail_nth_setup(const char **bad)
{
	unsigned int i;

	for (i = 0; i < sizeof(fail_nth_knobs) / sizeof(fail_nth_knobs[0]); i++)
		if (write_knob(fail_nth_knobs[i].path, fail_nth_knobs[i].value)) {
			*bad = fail_nth_knobs[i].path;
			return -1;
		}
	return 0;
}

int fail_nth_open(void)
{
	return open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
}

int fail_nth_arm(int fd, unsigned int n)
{
	char b[16];
	int len = snprintf(b, sizeof(b), "%u", n);

	return write(fd, b, len) == len ? 0 : -1;
}

/*
 * The read and the write copy from and to user space, each a fault site too: a
 * read that fails with EFAULT found 1 left, not injected, and took it; the
 * write may take the last one the same way, so it is made again.
 */
int fail_nth_disarm(int fd, unsigned int *left)
{
	char b[16];
	ssize_t r = pread(fd, b, sizeof(b) - 1, 0);
	unsigned long v = 1;
	int injected = 0;

	if (r > 0) {
		b[r] = '\0';
		v = strtoul(b, NULL, 10);
		injected = v == 0;
	}
	if (left)
		*left = (unsigned int)v;
	if (write(fd, "0", 1) != 1 && write(fd, "0", 1) != 1)
		return -1;
	return injected;
}
