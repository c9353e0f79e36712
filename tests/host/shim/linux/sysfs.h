/* SPDX-License-Identifier: GPL-2.0 */
/* Host test shim: see ../kshim.h. */
#include <kshim.h>
