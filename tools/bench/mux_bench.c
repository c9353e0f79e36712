// SPDX-License-Identifier: GPL-2.0
/*
 * mux_bench: accuracy and cost of kernel set multiplexing, in the guest.
 *
 * For 2, 4 and 8 sets and switch timeouts from 100 us to 10 ms, a workload with
 * known phases (exactly N1 getppid, then exactly N2 fresh pages touched, repeated)
 * is measured with every set counting system calls and page faults.  Each set's
 * count, scaled by total active time / its active time, is an estimate of the exact
 * total; the worst relative error over the sets is reported.  The kernel's own
 * statistics (/sys/kernel/debug/perfmon/stats) give the switches done, their time
 * and the register writes they made.
 *
 * Output: a table, then one line "BENCH-JSON: {...}" for the host to collect.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perfmon.h"

#define STATS	"/sys/kernel/debug/perfmon/stats"
#define N1	2000
#define N2	16
#define ROUNDS	80
#define REPEAT	3

struct stats {
	unsigned long long switches, ns, pmc_writes, pmd_writes;
};

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void read_stats(struct stats *s)
{
	char name[64];
	unsigned long long v;
	FILE *f = fopen(STATS, "r");

	memset(s, 0, sizeof(*s));
	if (!f)
		die(STATS);
	while (fscanf(f, "%63s %llu", name, &v) == 2) {
		if (!strcmp(name, "set_switches"))
			s->switches = v;
		else if (!strcmp(name, "set_switch_ns"))
			s->ns = v;
		else if (!strcmp(name, "set_switch_pmc_writes"))
			s->pmc_writes = v;
		else if (!strcmp(name, "set_switch_pmd_writes"))
			s->pmd_writes = v;
	}
	fclose(f);
}

static void counter(int fd, unsigned int set, int i, int event)
{
	struct pfarg_pmc pc;
	struct pfarg_pmd pd;

	memset(&pc, 0, sizeof(pc));
	memset(&pd, 0, sizeof(pd));
	pc.reg_num = PFM_SW_FIRST_PMC + i;
	pc.reg_set = set;
	pc.reg_value = PFM_SW_PMC(event);
	pd.reg_num = PFM_SW_FIRST_PMD + i;
	pd.reg_set = set;
	if (pfm_write_pmcs(fd, &pc, sizeof(pc)) || pfm_write_pmds(fd, &pd, sizeof(pd)))
		die("pfm_write_pmcs/pmds");
}

static unsigned long long read_pmd(int fd, unsigned int set, int i)
{
	struct pfarg_pmd pd;

	memset(&pd, 0, sizeof(pd));
	pd.reg_num = PFM_SW_FIRST_PMD + i;
	pd.reg_set = set;
	if (pfm_read_pmds(fd, &pd, sizeof(pd)))
		die("pfm_read_pmds");
	return pd.reg_value;
}

static double rel_err(double est, double exact)
{
	return est > exact ? est / exact - 1 : 1 - est / exact;
}

struct result {
	double err;			/* worst over sets, events and repeats */
	double mean_err;
	struct stats st;
};

static void run(int nsets, unsigned long long timeout, struct result *res)
{
	long psz = sysconf(_SC_PAGESIZE);
	struct stats before, after;
	double sum_err = 0;
	int rep, s, n = 0;

	memset(res, 0, sizeof(*res));
	for (rep = 0; rep < REPEAT; rep++) {
		double exact[2] = { N1 * ROUNDS + 1, N2 * ROUNDS };
		unsigned long long total = 0, act[8];
		char *pages;
		long r;
		int fd = pfm_create_context(0);

		if (fd < 0)
			die("pfm_create_context");
		for (s = 0; s < nsets; s++) {
			struct pfarg_setdesc d;

			memset(&d, 0, sizeof(d));
			d.set_id = s;
			d.set_flags = PFM_SETFL_TIME_SWITCH;
			d.set_timeout = timeout;
			if (pfm_create_evtsets(fd, &d, sizeof(d)))
				die("pfm_create_evtsets");
			counter(fd, s, 0, PFM_SW_EV_SYSCALLS);
			counter(fd, s, 1, PFM_SW_EV_PAGE_FAULTS);
		}
		pages = mmap(NULL, N2 * ROUNDS * psz, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (pages == MAP_FAILED)
			die("mmap");
		madvise(pages, N2 * ROUNDS * psz, MADV_NOHUGEPAGE);
		if (pfm_load_context(fd, 0, syscall(SYS_gettid)))
			die("pfm_load_context");
		read_stats(&before);
		pfm_start(fd, 0);
		for (r = 0; r < ROUNDS; r++) {
			long k;

			for (k = 0; k < N1; k++)
				syscall(SYS_getppid);
			for (k = 0; k < N2; k++)
				pages[(r * N2 + k) * psz] = 1;
		}
		pfm_stop(fd, 0);
		read_stats(&after);
		res->st.switches += after.switches - before.switches;
		res->st.ns += after.ns - before.ns;
		res->st.pmc_writes += after.pmc_writes - before.pmc_writes;
		res->st.pmd_writes += after.pmd_writes - before.pmd_writes;

		for (s = 0; s < nsets; s++) {
			struct pfarg_setinfo si;

			memset(&si, 0, sizeof(si));
			si.set_id = s;
			if (pfm_getinfo_evtsets(fd, &si, sizeof(si)))
				die("pfm_getinfo_evtsets");
			act[s] = si.set_act_duration;
			total += act[s];
		}
		for (s = 0; s < nsets; s++) {
			int e;

			for (e = 0; e < 2; e++) {
				double est = act[s] ? read_pmd(fd, s, e) * (double)total / act[s] : 0;
				double err = rel_err(est, exact[e]);

				if (err > res->err)
					res->err = err;
				sum_err += err;
				n++;
			}
		}
		munmap(pages, N2 * ROUNDS * psz);
		close(fd);
	}
	res->mean_err = sum_err / n;
}

int main(void)
{
	static const int nsets[] = { 2, 4, 8 };
	static const unsigned long long timeouts[] = {
		100000, 250000, 1000000, 2500000, 10000000
	};
	char json[16384];
	size_t len = 0;
	unsigned int i, j;

	printf("perfmon set multiplexing: %d x (%d getppid + %d page faults), %d repeats\n",
	       ROUNDS, N1, N2, REPEAT);
	printf("scaled estimate = count x total active time / set active time\n\n");
	printf("%5s %10s %10s %10s %10s %12s %12s %12s\n", "sets", "timeout", "max err",
	       "mean err", "switches", "ns/switch", "PMC wr/sw", "PMD wr/sw");
	len += snprintf(json + len, sizeof(json) - len, "{\"mux\":[");
	for (i = 0; i < sizeof(nsets) / sizeof(nsets[0]); i++) {
		for (j = 0; j < sizeof(timeouts) / sizeof(timeouts[0]); j++) {
			struct result r;
			double sw;

			run(nsets[i], timeouts[j], &r);
			sw = r.st.switches ? r.st.switches : 1;
			printf("%5d %8lluus %9.1f%% %9.1f%% %10llu %12.0f %12.2f %12.2f\n",
			       nsets[i], timeouts[j] / 1000, r.err * 100, r.mean_err * 100,
			       r.st.switches, r.st.ns / sw, r.st.pmc_writes / sw,
			       r.st.pmd_writes / sw);
			len += snprintf(json + len, sizeof(json) - len,
					"%s{\"sets\":%d,\"timeout_ns\":%llu,\"max_err\":%.4f,"
					"\"mean_err\":%.4f,\"switches\":%llu,\"ns_per_switch\":%.0f,"
					"\"pmc_writes_per_switch\":%.2f,"
					"\"pmd_writes_per_switch\":%.2f}",
					(i || j) ? "," : "", nsets[i], timeouts[j], r.err,
					r.mean_err, r.st.switches, r.st.ns / sw,
					r.st.pmc_writes / sw, r.st.pmd_writes / sw);
		}
	}
	len += snprintf(json + len, sizeof(json) - len, "]}");
	printf("\nBENCH-JSON: %s\n", json);
	return 0;
}
