// SPDX-License-Identifier: GPL-2.0
/*
 * The CPUs the simulator can be (sim.h, struct sim_model): what CPUID reports and
 * which PMU registers exist.
 */
#include "sim.h"

/*
 * The models.  The first two are the current generation of each vendor: Intel
 * architectural perfmon v5 with 8 GP and 4 fixed counters of 48 bits (a Sapphire
 * Rapids core), and AMD PerfMonV2 with 6 counters of 48 bits (Zen 4).  The others
 * cover the driver's other paths: v4 with AnyThread (Skylake), v2 without
 * full-width writes and an architectural event missing (Core 2), v1 (Core Duo),
 * PerfCtrExtCore without PerfMonV2 (Zen 2), and the four legacy counters of family
 * 0Fh (what QEMU's TCG CPU claims to be).
 */
const struct sim_model sim_models[SIM_NR_MODELS] = {
	[SIM_INTEL_V5] = {
		.name = "intel_v5", .driver_model = "intel_arch_v5", .vendor = SIM_INTEL,
		.family = 6, .model = 0x8f, .version = 5, .num_gp = 8, .num_fixed = 4,
		.fixed_bitmap = 0xf, .width = 48, .fixed_width = 48, .pdcm = true,
		.fw_write = true, .anythread_deprecated = true, .events_len = 8,
	},
	[SIM_AMD_V2] = {
		.name = "amd_v2", .driver_model = "amd64_perfmon_v2", .vendor = SIM_AMD,
		.family = 0x19, .model = 0x11, .version = 2, .num_gp = 6, .width = 48,
	},
	[SIM_INTEL_V4] = {
		.name = "intel_v4", .driver_model = "intel_arch_v4", .vendor = SIM_INTEL,
		.family = 6, .model = 0x55, .version = 4, .num_gp = 4, .num_fixed = 3,
		.width = 48, .fixed_width = 48, .pdcm = true, .fw_write = true,
		.events_len = 7,
	},
	[SIM_INTEL_V2] = {
		.name = "intel_v2", .driver_model = "intel_arch_v2", .vendor = SIM_INTEL,
		.family = 6, .model = 0x17, .version = 2, .num_gp = 2, .num_fixed = 3,
		.width = 40, .fixed_width = 40, .events_len = 7,
		.events_unavail = 1U << 6,	/* no Branch Misses Retired */
	},
	[SIM_INTEL_V1] = {
		.name = "intel_v1", .driver_model = "intel_arch_v1", .vendor = SIM_INTEL,
		.family = 6, .model = 0x0e, .version = 1, .num_gp = 2, .width = 40,
		.events_len = 7,
	},
	[SIM_AMD_CORE] = {
		.name = "amd_core", .driver_model = "amd64_core", .vendor = SIM_AMD,
		.family = 0x17, .model = 0x31, .version = 1, .num_gp = 6, .width = 48,
	},
	[SIM_AMD_LEGACY] = {
		.name = "amd_legacy", .driver_model = "amd64", .vendor = SIM_AMD,
		.family = 0xf, .model = 0x6b, .version = 0, .num_gp = 4, .width = 48,
	},
};
