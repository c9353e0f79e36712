// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the "default" sampling format (uapi/perfmon/perfmon_dfl_smpl.h): a header,
 * then fixed entries each followed by the sampled PMD values.
 */
#include <uapi/perfmon/perfmon_dfl_smpl.h>

#include "internal.h"
#include "smpl.h"

/* The largest entry: every PMD recorded. */
#define PFM_DFL_SMPL_MAX_ENTRY \
	(sizeof(struct pfm_dfl_smpl_entry) + PFM_MAX_PMDS * sizeof(u64))

static int pfm_dfl_smpl_validate(u32 ctx_flags, const void *data)
{
	const struct pfm_dfl_smpl_arg *arg = data;
	unsigned int i;

	if (arg->buf_flags || arg->reserved1)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(arg->reserved); i++)
		if (arg->reserved[i])
			return -EINVAL;
	/* Room for the header and one entry, whatever it records. */
	if (arg->buf_size < sizeof(struct pfm_dfl_smpl_hdr) + PFM_DFL_SMPL_MAX_ENTRY)
		return -EINVAL;
	return 0;
}

static u64 pfm_dfl_smpl_getsize(const void *data)
{
	return ((const struct pfm_dfl_smpl_arg *)data)->buf_size;
}

static void pfm_dfl_smpl_init_buf(void *buf, size_t size, const void *data)
{
	const struct pfm_dfl_smpl_arg *arg = data;
	struct pfm_dfl_smpl_hdr *hdr = buf;

	hdr->hdr_cur_offs = sizeof(*hdr);
	hdr->hdr_buf_size = size;
	hdr->hdr_min_buf_space = PFM_DFL_SMPL_MAX_ENTRY;
	hdr->hdr_version = PFM_DFL_SMPL_VERSION;
	hdr->hdr_buf_flags = arg->buf_flags;
}

static struct pfm_smpl_fmt pfm_dfl_smpl_fmt = {
	.name = PFM_DFL_SMPL_NAME,
	.version = PFM_DFL_SMPL_VERSION,
	.arg_size = sizeof(struct pfm_dfl_smpl_arg),
	.validate = pfm_dfl_smpl_validate,
	.getsize = pfm_dfl_smpl_getsize,
	.init = pfm_dfl_smpl_init_buf,
	.owner = THIS_MODULE,
};

int pfm_dfl_smpl_init(void)
{
	return pfm_smpl_fmt_register(&pfm_dfl_smpl_fmt);
}

void pfm_dfl_smpl_exit(void)
{
	pfm_smpl_fmt_unregister(&pfm_dfl_smpl_fmt);
}
