// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_load's failure report: every failed check is counted, the first ones are
 * printed whole (a broken invariant usually breaks thousands of times after).
 */
#include <stdarg.h>
#include <stdio.h>

#include "load.h"

#define PRINT_MAX	40

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static long failures;

static void vsay(const char *tag, const char *fmt, va_list ap)
{
	pthread_mutex_lock(&report_lock);
	printf("pfm_load: %s", tag);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	pthread_mutex_unlock(&report_lock);
}

void load_fail(const char *fmt, ...)
{
	va_list ap;
	long n = __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);

	if (n > PRINT_MAX)
		return;
	va_start(ap, fmt);
	vsay("FAIL: ", fmt, ap);
	va_end(ap);
}

long load_failures(void)
{
	return __atomic_load_n(&failures, __ATOMIC_RELAXED);
}

void load_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("", fmt, ap);
	va_end(ap);
}
