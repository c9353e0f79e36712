// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: per-CPU statistics, summed in /sys/kernel/debug/perfmon/stats (writing
 * to the file resets them).  They measure the kernel's own work, such as what a set
 * switch costs, for `make bench`; the file also says whether the system call and
 * page fault probes, which cost every thread, are attached.  The debug kernel's
 * race windows (race.h) are set in the same directory.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "internal.h"
#include "env.h"
#include "race.h"
#include "stats.h"

DEFINE_PER_CPU(struct pfm_stats, pfm_stats);

static struct dentry *pfm_debugfs_dir;
static bool pfm_stats_hook_on[PFM_STATS_NR_HOOKS];

void pfm_stats_hook(enum pfm_stats_hook hook, bool on)
{
	WRITE_ONCE(pfm_stats_hook_on[hook], on);
}

static int pfm_stats_show(struct seq_file *m, void *v)
{
	struct pfm_stats sum = {};
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct pfm_stats *s = per_cpu_ptr(&pfm_stats, cpu);

		sum.set_switches += READ_ONCE(s->set_switches);
		sum.set_switch_ns += READ_ONCE(s->set_switch_ns);
		sum.set_switch_pmc_writes += READ_ONCE(s->set_switch_pmc_writes);
		sum.set_switch_pmd_writes += READ_ONCE(s->set_switch_pmd_writes);
		sum.overflows += READ_ONCE(s->overflows);
		sum.notifications += READ_ONCE(s->notifications);
	}
	seq_printf(m, "set_switches %llu\n", sum.set_switches);
	seq_printf(m, "set_switch_ns %llu\n", sum.set_switch_ns);
	seq_printf(m, "set_switch_pmc_writes %llu\n", sum.set_switch_pmc_writes);
	seq_printf(m, "set_switch_pmd_writes %llu\n", sum.set_switch_pmd_writes);
	seq_printf(m, "overflows %llu\n", sum.overflows);
	seq_printf(m, "notifications %llu\n", sum.notifications);
	/* not counts: whether every thread's system calls, faults go through our probes now */
	seq_printf(m, "syscall_hook_on %d\n",
		   READ_ONCE(pfm_stats_hook_on[PFM_STATS_HOOK_SYSCALL]));
	seq_printf(m, "fault_hook_on %d\n", READ_ONCE(pfm_stats_hook_on[PFM_STATS_HOOK_FAULT]));
	return 0;
}

static int pfm_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, pfm_stats_show, NULL);
}

static ssize_t pfm_stats_write(struct file *file, const char __user *buf, size_t n,
			       loff_t *pos)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&pfm_stats, cpu), 0, sizeof(struct pfm_stats));
	return n;
}

static const struct file_operations pfm_stats_fops = {
	.owner = THIS_MODULE,
	.open = pfm_stats_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = pfm_stats_write,
};

void pfm_stats_init(void)
{
	pfm_debugfs_dir = debugfs_create_dir("perfmon", NULL);
	debugfs_create_file("stats", 0600, pfm_debugfs_dir, NULL, &pfm_stats_fops);
	pfm_race_init(pfm_debugfs_dir);
}

void pfm_stats_exit(void)
{
	debugfs_remove_recursive(pfm_debugfs_dir);
}
