// SPDX-License-Identifier: GPL-2.0
/*
 * users: checks run as another user (users.h).
 */
#define _GNU_SOURCE
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "users.h"
#include "util.h"

const char *const who_name[] = {
	"root", "nobody", "nobody in group 1234", "uid 1000 with CAP_PERFMON",
	"uid 1000 with CAP_SYS_PTRACE", "uid 1000 with CAP_SYS_ADMIN",
	"uid 1000 with CAP_IPC_LOCK",
};

static void keep_only_cap(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};

	data[cap / 32].effective = 1U << (cap % 32);
	data[cap / 32].permitted = 1U << (cap % 32);
	if (syscall(SYS_capset, &hdr, data))
		child_fail("capset(cap %d): %s", cap, strerror(errno));
}

/* In the child: take the identity 'who'. */
static void become(enum who who)
{
	static const int only_cap[] = {
		[USER_PERFMON] = CAP_PERFMON, [USER_PTRACE] = CAP_SYS_PTRACE,
		[USER_ADMIN] = CAP_SYS_ADMIN, [USER_IPC_LOCK] = CAP_IPC_LOCK,
	};
	gid_t group = GROUP;
	uid_t uid;

	if (who == ROOT)
		return;
	uid = (who == USER_NOBODY || who == USER_NOBODY_GROUP) ? NOBODY : OTHER_UID;
	/* keep the permitted capabilities across the change of uid */
	if (uid == OTHER_UID && prctl(PR_SET_KEEPCAPS, 1))
		child_fail("PR_SET_KEEPCAPS: %s", strerror(errno));
	if (setgroups(who == USER_NOBODY_GROUP, &group) ||
	    setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		child_fail("becoming %s: %s", who_name[who], strerror(errno));
	if (uid == OTHER_UID)
		keep_only_cap(only_cap[who]);
	/*
	 * The change of user made the process undumpable; its own children
	 * would inherit that and be refused to it as they are to ptrace.
	 */
	if (prctl(PR_SET_DUMPABLE, 1))
		child_fail("PR_SET_DUMPABLE: %s", strerror(errno));
	if (geteuid() != uid)
		child_fail("still uid %d", geteuid());
}

void as_user(struct run *r, enum who who, void (*fn)(void *), void *arg)
{
	pid_t pid;

	child_report_init();
	r->who = who;
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		become(who);
		fn(arg);
		_exit(0);
	}
	if (waitpid(pid, &r->status, 0) != pid)
		r->status = -1;
	snprintf(r->msg, sizeof(r->msg), "%s", child_report());
}

void ck_run(const struct run *r)
{
	ck_assert_msg(r->status != -1, "as %s: wait failed", who_name[r->who]);
	if (WIFEXITED(r->status) && WEXITSTATUS(r->status) == 1)
		ck_abort_msg("as %s: %s", who_name[r->who], r->msg);
	ck_assert_msg(WIFEXITED(r->status) && !WEXITSTATUS(r->status),
		      "as %s: wait status %#x", who_name[r->who], r->status);
}

