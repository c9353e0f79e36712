// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: when the counting contexts count (pfmon.h): perf stat's -D (--delay)
 * and --control.
 *
 * With -D the contexts are created stopped and the command released: after
 * the delay pfmon starts them (pfm_start() of an inherit context starts its
 * inheritors too); -D -1 leaves them stopped until --control says "enable".
 * As in perf stat, "Events disabled" and "Events enabled" go to stderr, and
 * the run's elapsed time, -I's intervals and --timeout begin once the delay
 * has passed.
 *
 * --control reads perf's commands, a line each, from a descriptor or a FIFO:
 * "enable" and "disable" start and stop every context, "evlist" lists the
 * events on stderr, "ping" and "stop" do nothing else (perf stat ignores
 * stop too); each of these is answered with perf's "ack\n" and its NUL on
 * the ack channel, "snapshot" and anything else are not.  -I's intervals go
 * on as they were (perf 6.1 prints none at an enable or a disable).
 *
 * "enable NAME" and "disable NAME" switch the groups whose leader is NAME (perf
 * switches group leaders) alone: a software event's PMC is written again with
 * its enable bit set or cleared (a write on an inherit context reaches its
 * inheritors), a cgroup event's fd enabled or disabled.  "enable NAME" while
 * nothing counts switches every other event off and starts the contexts, so
 * that NAME alone counts, as in perf; "enable" switches every event back on.
 * An event whose PMC pfmon cannot write again (a hardware event, a filtered
 * trace event) is answered "failed: ..." (acknowledged, as perf acknowledges
 * its failures).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pfmon.h"

static int delay_set;			/* -D given */
static int delay_ms;			/* -D: 0, -1, or milliseconds */
static int ctl_fd = -1, ack_fd = -1;	/* --control */
static int counting;			/* the contexts are started */
/* events switched off alone ("disable NAME", or others at "enable NAME") */
static unsigned char ev_off[PFMON_MAX_EVENTS];

int control_event_off(int ev)
{
	return ev_off[ev];
}

static void __attribute__((noreturn)) bad_spec(const char *spec, const char *why)
{
	fprintf(stderr, "pfmon: --control '%s': %s\n", spec, why);
	exit(2);
}

/* A descriptor number of fd:, up to end */
static int spec_fd(const char *spec, const char *s, const char *end)
{
	char *e;
	long v;

	errno = 0;
	v = strtol(s, &e, 10);
	if (s == end || e != end || errno || v < 0 || v > INT_MAX || *s == '+' || *s == ' ')
		bad_spec(spec, "fd:CTL[,ACK] takes descriptor numbers");
	return v;
}

/* perf polls a closed descriptor for ever: pfmon refuses it */
static void spec_open(const char *spec, int fd)
{
	char why[64];

	if (fd >= 0 && fcntl(fd, F_GETFD) < 0) {
		snprintf(why, sizeof(why), "descriptor %d: %s", fd, strerror(errno));
		bad_spec(spec, why);
	}
}

/* A FIFO of fifo:, opened as perf opens it: read and write, so that no writer's close ends it */
static int spec_fifo(const char *spec, const char *path)
{
	struct stat st;
	int fd;

	fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "pfmon: --control '%s': %s: %s\n", spec, path, strerror(errno));
		exit(2);
	}
	if (fstat(fd, &st) || !S_ISFIFO(st.st_mode)) {
		fprintf(stderr, "pfmon: --control '%s': %s: not a FIFO\n", spec, path);
		exit(2);
	}
	return fd;
}

static void parse_control(const char *spec)
{
	const char *comma = strchr(spec, ',');
	char *path;

	if (ctl_fd >= 0)
		options_refuse("--control: give it once");
	if (!strncmp(spec, "fd:", 3)) {
		ctl_fd = spec_fd(spec, spec + 3, comma ? comma : spec + strlen(spec));
		if (comma)
			ack_fd = spec_fd(spec, comma + 1, comma + 1 + strlen(comma + 1));
		spec_open(spec, ctl_fd);
		spec_open(spec, ack_fd);
	} else if (!strncmp(spec, "fifo:", 5)) {
		if (!spec[5] || spec[5] == ',')
			bad_spec(spec, "fifo:CTL[,ACK] takes FIFO paths");
		path = strndup(spec + 5, comma ? (size_t)(comma - spec - 5) : strlen(spec + 5));
		if (!path)
			pfmon_fail("strndup", ENOMEM, -1);
		ctl_fd = spec_fifo(spec, path);
		free(path);
		/* "fifo:CTL," has no ack FIFO, as in perf */
		if (comma && comma[1])
			ack_fd = spec_fifo(spec, comma + 1);
	} else {
		bad_spec(spec, "give fd:CTL[,ACK] or fifo:CTL[,ACK]");
	}
}

/* 1 when opt is one of this file's */
int control_option(int opt, const char *arg)
{
	char *end;
	long v;

	switch (opt) {
	case 'D':
		errno = 0;
		v = strtol(arg, &end, 0);
		if (!*arg || *end || errno || v < -1 || v > INT_MAX) {
			fprintf(stderr, "pfmon: bad delay '%s': milliseconds, or -1\n", arg);
			exit(2);
		}
		delay_set = 1;
		delay_ms = v;
		break;
	case OPT_CONTROL:
		parse_control(arg);
		break;
	default:
		return 0;
	}
	return 1;
}

/* sampling: -P or -F was given */
void control_check(int sampling)
{
	if ((delay_set || ctl_fd >= 0) && sampling)
		options_refuse("-D and --control start and stop counting contexts: not with -P or -F");
	if ((delay_set || ctl_fd >= 0) && opts.null_run)
		options_refuse("-n counts nothing: not with -D or --control");
}

int control_fd(void)
{
	return ctl_fd;
}

/* A run begins: counting from the start, but with -D. */
void control_run_begin(void)
{
	counting = !delay_ms;
}

int control_counting(void)
{
	return counting;
}

/* The contexts are made, the command not released yet: 1 when -D delays counting */
int control_delayed(void)
{
	if (!delay_ms)
		return 0;
	fputs("Events disabled\n", stderr);
	return 1;
}

/* -D's delay in ns: 0 for -1 (only --control starts the contexts) */
uint64_t control_delay_ns(void)
{
	return delay_ms > 0 ? (uint64_t)delay_ms * 1000000ULL : 0;
}

/* -D's delay has passed: every context started */
void control_enable(void (*set)(int on))
{
	set(1);
	counting = 1;
	fputs("Events enabled\n", stderr);
}

static void ack(void)
{
	/* perf writes its tag with the NUL */
	if (ack_fd >= 0 && write(ack_fd, "ack\n", 5) < 0)
		fprintf(stderr, "pfmon: --control: the ack: %s\n", strerror(errno));
}

/* perf's "cmd" or "cmd ARG": 0, 1 with *arg, -1 when malformed */
static int cmd_arg(const char *line, const char *cmd, const char **arg)
{
	const char *p = line + strlen(cmd);

	if (!*p)
		return 0;
	if (*p != ' ')
		return -1;
	*arg = p + 1;
	return 1;
}

/* whether event i can be switched alone: a cgroup event, or a PMC pfmon can write */
static int switchable(int i)
{
	struct pfarg_pmc pc;

	return opts.ev[i].cgroup || !evsel_event_pmc(i, 1, &pc);
}

/* event i of a group whose leader is named name (perf switches group leaders) */
static int led_by(int i, const char *name)
{
	int l = i;

	while (l > 0 && opts.ev[l - 1].group == opts.ev[i].group)
		l--;
	return !strcmp(opts.ev[l].name, name);
}

static void switch_event(int i, int on, void (*set_event)(int ev, int on))
{
	if (ev_off[i] == !on)
		return;
	ev_off[i] = !on;
	set_event(i, on);
}

/* "enable NAME", "disable NAME": 0, or -1 (said why) */
static int enable_name(const char *name, int on, void (*set)(int on),
		       void (*set_event)(int ev, int on))
{
	int i, shown = -1;

	for (i = 0; i < opts.nev; i++)
		if (!opts.ev[i].hidden && !strcmp(opts.ev[i].name, name))
			shown = i;
	if (shown < 0) {
		fprintf(stderr, "failed: can't find '%s' event\n", name);
		return -1;
	}
	/* those it switches, and at an enable while nothing counts every other one */
	for (i = 0; i < opts.nev; i++) {
		if ((led_by(i, name) || (on && !counting)) && !opts.ev[i].unsupported &&
		    !switchable(i)) {
			fprintf(stderr, "failed: pfmon switches software events alone, not "
				"'%s'\n", opts.ev[i].name);
			return -1;
		}
	}
	for (i = 0; i < opts.nev; i++) {
		if (opts.ev[i].unsupported)
			continue;
		if (led_by(i, name))
			switch_event(i, on, set_event);
		else if (on && !counting)
			switch_event(i, 0, set_event);
	}
	if (on && !counting) {
		set(1);
		counting = 1;
	}
	fprintf(stderr, "Event %s %s\n", opts.ev[shown].name, on ? "enabled" : "disabled");
	return 0;
}

static void enable(const char *line, int on, void (*set)(int on),
		   void (*set_event)(int ev, int on))
{
	const char *arg = NULL;
	int r = cmd_arg(line, on ? "enable" : "disable", &arg), i;

	if (r < 0) {
		fputs("failed: wrong command\n", stderr);
		return;
	}
	if (r) {
		enable_name(arg, on, set, set_event);
		return;
	}
	/* "enable": every event back on, those switched off alone too */
	for (i = 0; on && i < opts.nev; i++)
		if (!opts.ev[i].unsupported)
			switch_event(i, 1, set_event);
	if (on != counting)
		set(on);
	counting = on;
	fputs(on ? "Events enabled\n" : "Events disabled\n", stderr);
}

static void evlist(const char *line)
{
	const char *arg = NULL;
	int r = cmd_arg(line, "evlist", &arg), i;

	if (r < 0 || (r && strcmp(arg, "-v") && strcmp(arg, "-g") && strcmp(arg, "-F"))) {
		fputs("failed: wrong command\n", stderr);
		return;
	}
	/* -v: pfmon's own detail, that of its -v */
	if (r && !strcmp(arg, "-v")) {
		perfopts_verbose();
		return;
	}
	for (i = 0; i < opts.nev; i++)
		if (!opts.ev[i].hidden)
			fprintf(stderr, "%s\n", opts.ev[i].name);
}

/*
 * revents of the control descriptor: one command read and done, as perf reads
 * one per wake-up; set(on) starts or stops every context, set_event(ev, on)
 * switches event ev alone in every context.
 */
void control_process(short revents, void (*set)(int on), void (*set_event)(int ev, int on))
{
	char line[64];
	size_t n = 0;
	ssize_t r;
	char c;

	if (revents & POLLIN) {
		while (n < sizeof(line) - 1) {
			r = read(ctl_fd, &c, 1);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0 || c == '\n' || c == '\0')
				break;
			line[n++] = c;
		}
		line[n] = '\0';
	}
	/* the writer of a descriptor is gone: no more commands */
	if (revents & (POLLHUP | POLLERR | POLLNVAL) && !n) {
		ctl_fd = -1;
		return;
	}
	if (!n)
		return;
	if (!strncmp(line, "enable", 6) || !strncmp(line, "disable", 7))
		enable(line, line[0] == 'e', set, set_event);
	else if (!strncmp(line, "evlist", 6))
		evlist(line);
	else if (strncmp(line, "stop", 4) && strncmp(line, "ping", 4))
		return;		/* "snapshot" and the unknown: no ack */
	ack();
}
