// SPDX-License-Identifier: GPL-2.0
/*
 * runas: run a command as another user, without capabilities, for the guest's
 * shell tests of pfmon's refusals (busybox has no setpriv).
 *
 *   runas UID COMMAND [ARGS]     the uid is also the gid, no supplementary groups
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t id;

	if (argc < 3) {
		fprintf(stderr, "usage: runas UID COMMAND [ARGS]\n");
		return 2;
	}
	id = atoi(argv[1]);
	/* the group first: after setuid() there is no privilege left to change it */
	if (setgroups(0, NULL) || setresgid(id, id, id) || setresuid(id, id, id)) {
		perror("runas");
		return 1;
	}
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
