/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PERFMON_FILE_H
#define _PERFMON_FILE_H

#include "layer.h"

int pfm_ctx_install_fd(struct pfm_context *ctx, bool cloexec);

#endif
