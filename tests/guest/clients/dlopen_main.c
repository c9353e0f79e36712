// SPDX-License-Identifier: GPL-2.0
/*
 * dlopen_main LIB MS: loads LIB with dlopen() after it started (so its mapping
 * is made at run time, not at exec) and spins MS ms of CPU time in its
 * pfm_dl_spin(): perf report must name the library and the function.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	void (*spin)(long ms);
	void *lib;

	if (argc != 3) {
		fprintf(stderr, "usage: dlopen_main LIB MS\n");
		return 2;
	}
	lib = dlopen(argv[1], RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "dlopen_main: %s\n", dlerror());
		return 1;
	}
	spin = (void (*)(long))dlsym(lib, "pfm_dl_spin");
	if (!spin) {
		fprintf(stderr, "dlopen_main: %s\n", dlerror());
		return 1;
	}
	spin(atol(argv[2]));
	dlclose(lib);
	return 0;
}
