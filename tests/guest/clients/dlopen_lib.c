// SPDX-License-Identifier: GPL-2.0
/* The library dlopen_main loads: a spin of ms milliseconds of CPU time. */
#include <time.h>

void pfm_dl_spin(long ms);

__attribute__((noinline)) void pfm_dl_spin(long ms)
{
	struct timespec ts;
	volatile unsigned long x = 0;
	long long end, now;
	long i;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	end = ts.tv_sec * 1000000000LL + ts.tv_nsec + ms * 1000000LL;
	do {
		for (i = 0; i < 100000; i++)
			x++;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
		now = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	} while (now < end);
}
