// SPDX-License-Identifier: GPL-2.0
/*
 * The real processors of tests/sim/cpuid/ (sim_dump.h) as the suites see them:
 * read once, before the suites are made, so that a loop test knows how many there
 * are and every forked test finds them in memory.  The core suites (count, sets,
 * emul, perf ...) loop over the built-in models and then every processor whose
 * PMU is found (a hybrid one as a two-CPU machine: CPU 0 a P core, CPU 1 an E
 * core); sim_real.c runs the probe on every one.
 *
 * The directory is tests/sim/cpuid/ of the tree built (PFM_SIM_CPUID_DIR), or the
 * environment's PFM_SIM_CPUID_DIR.
 */
#include "sim_test.h"
#include "sim_dump.h"

static struct sim_dump *dumps;
static unsigned int ndumps;
static char dumps_err[512];
static bool dumps_read;

/*
 * The models of the processors the core suites run on, built when read; a
 * hybrid one's E core in e_models[] at the same index.
 */
static struct sim_model core_models[128];
static struct sim_model e_models[128];
static bool core_hybrid[128];
static unsigned int ncore_models;

void sim_dumps_init(void)
{
	const char *dir = getenv("PFM_SIM_CPUID_DIR");
	unsigned int i;
	int n;

	if (dumps_read)
		return;
	dumps_read = true;
	n = sim_dumps_read_dir(dir && *dir ? dir : PFM_SIM_CPUID_DIR, &dumps, dumps_err,
			       sizeof(dumps_err));
	if (n < 0)
		return;
	dumps_err[0] = 0;
	ndumps = n;
	for (i = 0; i < ndumps; i++) {
		const struct sim_dump *d = &dumps[i];
		bool hybrid = d->ncores > 1;

		if (!(hybrid ? d->core[0].expect.pmu[0] : d->expect.pmu[0]))
			continue;
		if (ncore_models == ARRAY_SIZE(core_models)) {
			snprintf(dumps_err, sizeof(dumps_err), "more than %zu processors with a PMU",
				 ARRAY_SIZE(core_models));
			return;
		}
		if (hybrid)
			sim_dump_model(d, 1, &e_models[ncore_models]);
		core_hybrid[ncore_models] = hybrid;
		sim_dump_model(d, 0, &core_models[ncore_models++]);
	}
}

const char *sim_dumps_error(void)
{
	return dumps_read && !dumps_err[0] ? NULL : dumps_read ? dumps_err : "not read";
}

unsigned int sim_ndumps(void)
{
	return ndumps;
}

const struct sim_dump *sim_dump_nr(unsigned int i)
{
	return i < ndumps ? &dumps[i] : NULL;
}

unsigned int sim_nr_core_models(void)
{
	return SIM_NR_MODELS + ncore_models;
}

const struct sim_model *sim_model_of(unsigned int id)
{
	if (id < SIM_NR_MODELS)
		return &sim_models[id];
	return &core_models[id - SIM_NR_MODELS];
}

const struct sim_model *sim_model_e_of(unsigned int id)
{
	if (id < SIM_NR_MODELS || !core_hybrid[id - SIM_NR_MODELS])
		return NULL;
	return &e_models[id - SIM_NR_MODELS];
}
