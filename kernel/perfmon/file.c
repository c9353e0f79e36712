// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the context file descriptor: read() of messages, poll(), mmap() of the
 * sampling buffer (offset 0) or of the counts page (PFM_MMAP_COUNTS_OFFSET), the
 * vector calls by ioctl, close().
 */
#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/poll.h>

#include "internal.h"
#include "ctx.h"
#include "entry.h"
#include "file.h"
#include "flag_ops.h"
#include "msg.h"
#include "rw_user.h"
#include "smpl.h"
#include "state.h"
#include "upage_map.h"

/*
 * Whole messages only: as many as fit in the buffer, at least one (or EAGAIN).  One
 * that cannot be copied out stays queued.
 */
static ssize_t pfm_read(struct file *file, char __user *buf, size_t size, loff_t *pos)
{
	struct pfm_context *ctx = file->private_data;
	union pfarg_msg msg;
	ssize_t done = 0;
	int ret;

	if (size < sizeof(msg))
		return -EINVAL;
	while (done + sizeof(msg) <= size) {
		if (!pfm_msg_pop(ctx, &msg)) {
			if (done)
				break;
			if (file->f_flags & O_NONBLOCK)
				return -EAGAIN;
			ret = wait_event_interruptible(ctx->msgq_wait, pfm_msg_pending(ctx));
			if (ret)
				return ret;
			continue;
		}
		if (copy_to_user(buf + done, &msg, sizeof(msg))) {
			pfm_msg_unpop(ctx, &msg);
			return done ? done : -EFAULT;
		}
		done += sizeof(msg);
	}
	return done;
}

static __poll_t pfm_poll(struct file *file, poll_table *wait)
{
	struct pfm_context *ctx = file->private_data;

	poll_wait(file, &ctx->msgq_wait, wait);
	return pfm_msg_pending(ctx) ? EPOLLIN | EPOLLRDNORM : 0;
}

/* O_ASYNC: SIGIO (or F_SETSIG's signal) when a message is queued. */
static int pfm_fasync(int fd, struct file *file, int on)
{
	struct pfm_context *ctx = file->private_data;

	return fasync_helper(fd, file, on, &ctx->fasync);
}

static int pfm_release(struct inode *inode, struct file *file)
{
	struct pfm_context *ctx = file->private_data;

	pfm_fasync(-1, file, 0);

	/* Closing detaches; the context lives on until its hooks are off the thread. */
	mutex_lock(&ctx->mutex);
	if (ctx->state == PFM_CTX_LOADED)
		pfm_unload(ctx, 0);
	pfm_flag_ops_close(ctx);
	/* No mapping is left (each holds the file) and, detached, no overflow writes. */
	pfm_smpl_release(&ctx->smpl);
	mutex_unlock(&ctx->mutex);
	pfm_context_put(ctx);
	return 0;
}

/*
 * No ctx->mutex here: mmap_lock is held, and the buffer cannot change under an open
 * file (set before the fd existed, freed at its release).  The offset tells the
 * counts page from the buffer, which is only ever mapped from offset 0.
 */
static int pfm_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct pfm_context *ctx = file->private_data;

	if (vma->vm_pgoff == PFM_UPAGE_PGOFF)
		return pfm_upage_mmap(ctx, vma);
	return pfm_smpl_buf_mmap(&ctx->smpl, vma);
}

/*
 * ioctl(fd, PFM_IOC_VEC_CTX(call, size), req): the vector call on this context, with
 * its rules from the size on, in either kernel.  The file is the context, so no
 * second file is looked up and no argument structure copied in: the cheapest way to
 * a read.  ENOTTY for any other command, as from a file that is not a context.
 */
static noinline long pfm_ioctl_vec(struct file *file, unsigned int cmd, unsigned long arg)
{
	const struct pfm_entry *e = pfm_entry(_IOC_NR(cmd));

	if (!e || e->kind != PFM_ENTRY_VEC ||
	    cmd != PFM_IOC_VEC_CTX(_IOC_NR(cmd), _IOC_SIZE(cmd)))
		return -ENOTTY;
	return pfm_vec_run(e, file->private_data, (void __user *)arg, _IOC_SIZE(cmd));
}

/* The call a self-monitoring program makes most goes straight to its row's, with no frame. */
static long pfm_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd == PFM_IOC_VEC_CTX(PFM_CALL_READ_PMDS, _IOC_SIZE(cmd)))
		return pfm_read_pmds_user(file->private_data, (void __user *)arg,
					  _IOC_SIZE(cmd));
	return pfm_ioctl_vec(file, cmd, arg);
}

static const struct file_operations pfm_file_ops = {
	.owner = THIS_MODULE,
	.read = pfm_read,
	.poll = pfm_poll,
	.mmap = pfm_mmap,
	.unlocked_ioctl = pfm_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.fasync = pfm_fasync,
	.release = pfm_release,
	.llseek = no_llseek,
};

int pfm_ctx_install_fd(struct pfm_context *ctx, bool cloexec)
{
	return anon_inode_getfd("[pfmfd]", &pfm_file_ops, ctx,
				O_RDONLY | (cloexec ? O_CLOEXEC : 0));
}

/*
 * The context behind fd, its file held in *f until the caller's fdput(), as
 * any system call holds the file it works on: the context's release cannot
 * begin before the call ends.  A reference on the context alone would let a
 * call that raced with the last close load, start or program a context whose
 * release had already run (which unloads it, ends what the layers hold, frees
 * the sampling buffer), and nothing would end that attachment but the thread.
 */
struct pfm_context *pfm_ctx_fdget(int fd, struct fd *f)
{
	*f = fdget(fd);
	if (!f->file)
		return ERR_PTR(-EBADF);
	if (f->file->f_op != &pfm_file_ops) {
		fdput(*f);
		return ERR_PTR(-EBADF);
	}
	return f->file->private_data;
}
