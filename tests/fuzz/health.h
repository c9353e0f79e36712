/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfm_fuzz: the checks after each program (health.c).  Each returns 0, or -1
 * after writing an "F <program> <what>" line to the log.
 */
#ifndef PFM_FUZZ_HEALTH_H
#define PFM_FUZZ_HEALTH_H

#include <stdio.h>
#include <sys/types.h>

/*
 * saves the sysfs knobs, starts reading the kernel log from its end; log: where
 * a long wait for the counts is noted ("# leftovers ...")
 */
void fz_check_init(FILE *log);
/*
 * reaps the zombies the manager has (a child subreaper: orphans come to it);
 * reaped(pid, wait status) hears of each, if not NULL
 */
void fz_check_reap(void (*reaped)(pid_t pid, int status));
/* SIGKILL to the program's process group: every process must be gone in 30 s */
int fz_check_group_dies(pid_t pgid, FILE *log, long id);
/*
 * a program that outlived its time: what each of its threads is doing, to the
 * log ("T <program>: pid tid state", then its kernel stack), before it is killed
 */
void fz_dump_timeout(pid_t pgid, FILE *log, long id);
/* a process of a group, from its /proc/PID/stat */
struct fz_proc {
	int pid, ppid;
	char state;
	char comm[32];
};
/* fn on each process of group pgid (zombies included); how many */
int fz_group_each(pid_t pgid, void (*fn)(const struct fz_proc *p, void *arg), void *arg);
/* the knobs marked (fz_mark_global()) as they were; if marked, every CPU online */
void fz_check_restore(unsigned int marked);
/*
 * no context, session, hook or sampling buffer memory left after at most
 * wait_ms; log NULL: no F line (a "# leftovers" note instead)
 */
int fz_check_nothing_left(FILE *log, long id, int wait_ms);
/* what fz_check_nothing_left() waited for: per count, how often and how long */
void fz_check_report(FILE *out);
/* no kernel report since the last call */
int fz_check_kmsg(FILE *log, long id);

/* a small file (sysfs, /proc) into buf as a string: 0, or -1 */
int fz_file_read(const char *path, char *buf, size_t len);

/* ops_proc.c: the writable knobs, by index from 0; NULL past the last */
const char *fz_knob_file(int i);

#endif /* PFM_FUZZ_HEALTH_H */
