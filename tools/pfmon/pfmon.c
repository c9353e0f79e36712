// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: count software events of a command.
 *
 *   pfmon [-u] [-k] [-P PERIOD] [-e EV[,EV...]] [--] COMMAND [ARGS]
 *
 * -u counts events at user level, -k at kernel level (which needs privilege
 * under the default paranoid setting); with neither, user level, as perfmon2's
 * pfmon did.  An event that is not a software one is a libpfm4 name, counted on
 * the hardware PMU (libpfm-glue/events.h).  -P samples the first event every PERIOD occurrences (smpl.c) and
 * reports the instruction pointers it was sampled at most.
 * One per-thread context with one software-PMU counter per event.  The child
 * attaches the context to itself and starts it before exec, so the counts
 * cover the command from its first instruction; the context stays attached
 * across exec and the kernel detaches it, keeping the final counts, when the
 * command exits.  The parent then reads and prints them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <perfmon/perfmon_x86.h>

#include "events.h"
#include "perfmon.h"
#include "smpl.h"

struct pfmon_event {
	const char *name;
	const char *label;	/* name as printed, with its unit */
	int code;
};

static const struct pfmon_event pfmon_events[] = {
	{ "task-clock",		"task-clock (ns)",	PFM_SW_EV_TASK_CLOCK },
	{ "context-switches",	"context-switches",	PFM_SW_EV_CTX_SWITCHES },
	{ "cpu-migrations",	"cpu-migrations",	PFM_SW_EV_CPU_MIGRATIONS },
	{ "page-faults",	"page-faults",		PFM_SW_EV_PAGE_FAULTS },
	{ "syscalls",		"syscalls",		PFM_SW_EV_SYSCALLS },
};
#define PFMON_NUM_EVENTS (sizeof(pfmon_events) / sizeof(pfmon_events[0]))

/* what the child tells the parent when it could not run the command */
struct child_fail {
	int err;
	char what[32];
};

/*
 * A selected event: a software one (sw set), or a hardware one named through
 * libpfm4, encoded once the levels are known.
 */
struct pfmon_sel {
	const char *name;
	const struct pfmon_event *sw;
	struct pfmg_event hw;
	uint16_t pmd;
};

#define PFMON_MAX_EVENTS (PFM_SW_NUM_COUNTERS + PFM_X86_MAX_GP + PFM_X86_MAX_FIXED)

static struct pfmon_sel sel[PFMON_MAX_EVENTS];
static int nsel;
static uint64_t levels;		/* PFM_SW_PMC_USR and/or PFM_SW_PMC_OS */
static uint64_t smpl_period;	/* 0: counting only */

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: pfmon [-u] [-k] [-P PERIOD] [-e EV[,EV...]] [--] COMMAND [ARGS]\n"
		   "  -u  count at user level (the default)\n"
		   "  -k  count at kernel level\n"
		   "  -P  sample the first event every PERIOD occurrences\n"
		   "software events (default: all):");
	for (i = 0; i < PFMON_NUM_EVENTS; i++)
		fprintf(f, " %s", pfmon_events[i].name);
	fprintf(f, "\nhardware events: libpfm4's names (INST_RETIRED:ANY_P, ...), "
		   "with a hardware PMU\n");
}

static void die(const char *what)
{
	int err = errno;

	/* these are what opening a missing or driverless /dev/perfmon gives */
	fprintf(stderr, "pfmon: %s: %s%s\n", what, strerror(err),
		err == ENOENT || err == ENODEV || err == ENXIO ?
		" (is perfmon.ko loaded?)" : "");
	exit(1);
}

static void select_events(char *list)
{
	char *tok, *save = NULL;
	size_t i;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (nsel == PFMON_MAX_EVENTS) {
			fprintf(stderr, "pfmon: at most %d events\n", PFMON_MAX_EVENTS);
			exit(2);
		}
		sel[nsel].name = tok;
		for (i = 0; i < PFMON_NUM_EVENTS; i++)
			if (!strcmp(tok, pfmon_events[i].name))
				sel[nsel].sw = &pfmon_events[i];
		nsel++;
	}
}

/* Counters of the hardware PMU, as /sys/kernel/perfmon/pmu_desc lists them. */
static unsigned int count_regs(const char *kind, unsigned int first, unsigned int max)
{
	char path[96];
	unsigned int n = 0;

	while (n < max) {
		snprintf(path, sizeof(path), "/sys/kernel/perfmon/pmu_desc/%s%u", kind, first + n);
		if (access(path, F_OK))
			break;
		n++;
	}
	return n;
}

/*
 * Encodes the hardware events at the chosen levels, gives them counters, and
 * numbers the software ones: the registers to write, and each event's PMD.
 */
static unsigned int assign_events(struct pfarg_pmc *pc)
{
	struct pfmg_event hw[PFMON_MAX_EVENTS];
	uint16_t hw_pmd[PFMON_MAX_EVENTS];
	unsigned int plm = 0, nhw = 0, npc = 0, nsw = 0, k;
	int i;

	if (levels & PFM_SW_PMC_USR)
		plm |= PFMG_PLM_USR;
	if (levels & PFM_SW_PMC_OS)
		plm |= PFMG_PLM_OS;
	for (i = 0; i < nsel; i++) {
		if (sel[i].sw) {
			if (nsw == PFM_SW_NUM_COUNTERS) {
				fprintf(stderr, "pfmon: at most %d software events\n",
					PFM_SW_NUM_COUNTERS);
				exit(2);
			}
			pc[npc].reg_num = PFM_SW_FIRST_PMC + nsw;
			pc[npc++].reg_value = sel[i].sw->code | PFM_SW_PMC_EN | levels;
			sel[i].pmd = PFM_SW_FIRST_PMD + nsw++;
			continue;
		}
		if (pfmg_encode(sel[i].name, plm, &sel[i].hw)) {
			fprintf(stderr, "pfmon: event '%s': %s\n", sel[i].name,
				errno == ENOENT ? "unknown (not a software event, and not one "
				"libpfm4 knows on this machine's PMU)" : strerror(errno));
			usage(stderr);
			exit(2);
		}
		hw[nhw++] = sel[i].hw;
	}
	if (!nhw)
		return npc;
	if (pfmg_assign(hw, nhw, count_regs("pmc", PFM_X86_FIRST_GP_PMC, PFM_X86_MAX_GP),
			count_regs("pmd", PFM_X86_FIRST_FIXED_PMD, PFM_X86_MAX_FIXED),
			pc + npc, &k, hw_pmd)) {
		fprintf(stderr, "pfmon: %u hardware events: not enough counters "
			"(pmu_desc/model says which PMU perfmon drives)\n", nhw);
		exit(2);
	}
	npc += k;
	for (i = 0, k = 0; i < nsel; i++)
		if (!sel[i].sw)
			sel[i].pmd = hw_pmd[k++];
	return npc;
}

static int setup_context(void)
{
	struct pfarg_pmc pc[PFMON_MAX_EVENTS + 1];
	struct pfarg_pmd pd[PFMON_MAX_EVENTS];
	unsigned int npc;
	int fd, i;

	memset(pc, 0, sizeof(pc));
	memset(pd, 0, sizeof(pd));
	npc = assign_events(pc);
	fd = smpl_period ? smpl_create() : pfm_create_context(0);
	if (fd < 0)
		die("pfm_create_context");
	for (i = 0; i < nsel; i++)
		pd[i].reg_num = sel[i].pmd;
	if (smpl_period)
		smpl_pmd(&pd[0], smpl_period);
	if (pfm_write_pmcs(fd, pc, npc * sizeof(pc[0])))
		die("pfm_write_pmcs");
	if (pfm_write_pmds(fd, pd, nsel * sizeof(pd[0])))
		die("pfm_write_pmds");
	return fd;
}

/*
 * In the child: attach, start, exec.  A failure is reported to the parent
 * through the close-on-exec pipe 'errfd' (a successful exec closes it empty),
 * so that the parent prints no counts for a command that never ran.
 */
static void run_child(int fd, int errfd, char **argv)
{
	struct child_fail fail;
	ssize_t n;

	memset(&fail, 0, sizeof(fail));
	if (pfm_load_context(fd, 0, gettid())) {
		strcpy(fail.what, "pfm_load_context");
	} else if (pfm_start(fd, 0)) {
		strcpy(fail.what, "pfm_start");
	} else {
		execvp(argv[0], argv);
		snprintf(fail.what, sizeof(fail.what), "exec");
	}
	fail.err = errno;
	/* if the parent cannot hear it, it sees no report and an exit 127 */
	n = write(errfd, &fail, sizeof(fail));
	(void)n;
	_exit(127);
}

static void print_counts(int fd)
{
	struct pfarg_pmd pd[PFMON_MAX_EVENTS];
	int i;

	memset(pd, 0, sizeof(pd));
	for (i = 0; i < nsel; i++)
		pd[i].reg_num = sel[i].pmd;
	if (pfm_read_pmds(fd, pd, nsel * sizeof(pd[0])))
		die("pfm_read_pmds");
	/*
	 * The sampled counter restarts from -period at each sample: its events are
	 * the whole periods sampled and what it counted since the last reset.
	 */
	if (smpl_period)
		pd[0].reg_value = smpl_finish() * smpl_period + pd[0].reg_value + smpl_period;
	for (i = 0; i < nsel; i++)
		printf("%20" PRIu64 "  %s\n", (uint64_t)pd[i].reg_value,
		       sel[i].sw ? sel[i].sw->label : sel[i].name);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct child_fail fail;
	int fd, opt, status, pfd[2];
	char *end;
	ssize_t n;
	pid_t pid;
	size_t i;

	/* '+': options end at the command, whose own options are its own */
	while ((opt = getopt(argc, argv, "+e:hkuP:")) != -1) {
		switch (opt) {
		case 'P':
			smpl_period = strtoull(optarg, &end, 0);
			if (!*optarg || *end || !smpl_period) {
				fprintf(stderr, "pfmon: bad period '%s'\n", optarg);
				return 2;
			}
			break;
		case 'e':
			select_events(optarg);
			break;
		case 'k':
			levels |= PFM_SW_PMC_OS;
			break;
		case 'u':
			levels |= PFM_SW_PMC_USR;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	if (!levels)
		levels = PFM_SW_PMC_USR;
	if (!nsel)
		for (i = 0; i < PFMON_NUM_EVENTS; i++) {
			sel[nsel].name = pfmon_events[i].name;
			sel[nsel++].sw = &pfmon_events[i];
		}

	fd = setup_context();
	if (smpl_period)
		smpl_map(fd);

	if (pipe2(pfd, O_CLOEXEC))
		die("pipe2");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(pfd[0]);
		run_child(fd, pfd[1], argv + optind);
	}
	close(pfd[1]);

	/* like a shell: ^C and ^\ are for the command; we still print */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);

	do
		n = read(pfd[0], &fail, sizeof(fail));
	while (n < 0 && errno == EINTR);
	close(pfd[0]);
	/* the command runs: drain the samples until it exits */
	if (smpl_period && n == 0)
		smpl_service(fd);

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid");

	if (n == (ssize_t)sizeof(fail)) {
		fail.what[sizeof(fail.what) - 1] = '\0';
		errno = fail.err;
		if (!strcmp(fail.what, "exec")) {
			fprintf(stderr, "pfmon: %s: %s\n", argv[optind],
				strerror(errno));
			return 127;
		}
		die(fail.what);
	}

	print_counts(fd);
	if (smpl_period)
		smpl_report(smpl_period, sel[0].name);
	close(fd);

	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
