// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: keyed hits and the core's timers: what this CPU is inside (hold.h).
 */
#include "hold.h"

DEFINE_PER_CPU(unsigned int, pfm_timer_hold);
DEFINE_PER_CPU(bool, pfm_timer_busy);
