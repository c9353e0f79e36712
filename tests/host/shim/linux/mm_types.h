/* SPDX-License-Identifier: GPL-2.0 */
/* Host test shim: see ../kshim.h.  Only the name the sampling headers use. */
#include <kshim.h>

struct vm_area_struct;
