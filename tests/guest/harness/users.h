/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a check as another user: a forked child gives up root, takes one of
 * the identities below, runs a function that checks with child_expect(), and
 * the test process reads its verdict with ck_run().
 */
#ifndef PFM_TESTS_USERS_H
#define PFM_TESTS_USERS_H

#include <sys/types.h>

#define NOBODY			65534
#define OTHER_UID		1000
#define GROUP			1234

enum who {
	ROOT,			/* unchanged */
	USER_NOBODY,		/* uid/gid 65534, no capability */
	USER_NOBODY_GROUP,	/* the same, in group 1234 too */
	USER_PERFMON,		/* uid/gid 1000 with CAP_PERFMON only */
	USER_PTRACE,		/* uid/gid 1000 with CAP_SYS_PTRACE only */
	USER_ADMIN,		/* uid/gid 1000 with CAP_SYS_ADMIN only */
	USER_IPC_LOCK,		/* uid/gid 1000 with CAP_IPC_LOCK only */
};

extern const char *const who_name[];

/* What a child found: its wait status and report. */
struct run {
	int status;
	enum who who;
	char msg[512];
};

/* Forks; the child becomes 'who', runs fn(arg) and exits 0. */
void as_user(struct run *r, enum who who, void (*fn)(void *), void *arg);
/* Fails the test unless the child of 'r' exited 0. */
void ck_run(const struct run *r);

#endif /* PFM_TESTS_USERS_H */
