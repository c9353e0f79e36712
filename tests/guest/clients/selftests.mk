# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own perf_events selftests (tools/testing/selftests/perf_events of
# Debian's linux-source-6.1, the package scripts/deps.sh installs for the in-tree
# kernel), built for the guest: the client `selftests` of perf-clients.sh runs each
# natively and through the shim and compares their TAP results case by case.
#
# Only that directory and the two harness headers it includes are taken from the
# tarball, into $(SELFTESTS_SRC); every program of the directory is built (6.1:
# sigtrap_threads, remove_on_exec, mmap), dynamic as perf is, so that the preload
# answers their syscall(SYS_perf_event_open), with the flags of its Makefile
# (-Wl,-no-as-needed -Wall, -lpthread) and the uapi headers of the build host.
# Both steps do nothing when up to date.

LSRC_TAR ?= /usr/src/linux-source-6.1.tar.xz
SELFTESTS_SRC := $(B)/selftests/src
SELFTESTS_BIN := $(B)/guest/selftests
SELFTESTS_DIR := tools/testing/selftests

$(SELFTESTS_SRC)/.stamp: $(LSRC_TAR)
	@[ -r $< ] || { echo "$<: not found (make deps)"; exit 1; }
	rm -rf $(SELFTESTS_SRC) $(SELFTESTS_SRC).tmp
	mkdir -p $(SELFTESTS_SRC).tmp
	tar -xJf $< -C $(SELFTESTS_SRC).tmp --strip-components=1 --wildcards \
		'*/$(SELFTESTS_DIR)/perf_events' '*/$(SELFTESTS_DIR)/kselftest.h' \
		'*/$(SELFTESTS_DIR)/kselftest_harness.h'
	touch $(SELFTESTS_SRC).tmp/.stamp
	mv $(SELFTESTS_SRC).tmp $(SELFTESTS_SRC)

# mmap's cases are a few system calls each: 3 s a case is plenty, and its aux
# variant costs 3 s a case instead of 30 where it cannot run (selftest_limit.h)
SELFTESTS_LIMIT_mmap := -I$(SELFTESTS_SRC)/$(SELFTESTS_DIR) -DSELFTEST_CASE_LIMIT=3 \
	-include $(TOP)/tests/guest/clients/selftest_limit.h

# image.list: the programs as mkinitramfs.sh takes them, each with its shared
# libraries, at /selftests/NAME
$(SELFTESTS_BIN)/image.list: $(SELFTESTS_SRC)/.stamp $(TOP)/tests/guest/clients/selftest_limit.h
	rm -rf $(SELFTESTS_BIN)
	mkdir -p $(SELFTESTS_BIN)
	for c in $(SELFTESTS_SRC)/$(SELFTESTS_DIR)/perf_events/*.c; do \
		n=$$(basename $$c .c); \
		case $$n in mmap) x="$(SELFTESTS_LIMIT_mmap)" ;; *) x= ;; esac; \
		$(CC) -O2 -Wl,-no-as-needed -Wall $$x -o $(SELFTESTS_BIN)/$$n $$c -lpthread || exit 1; \
		echo "+$(SELFTESTS_BIN)/$$n:/selftests/$$n" >> $@.tmp; \
	done
	mv $@.tmp $@

.PHONY: perf-selftests
perf-selftests: $(SELFTESTS_BIN)/image.list

# for the image's file list (a shell substitution: the list exists by then)
SELFTESTS_FILES = $$(cat $(SELFTESTS_BIN)/image.list) \
	$(TOP)/tests/guest/clients/perf-selftests.sh:/bin/perf-selftests.sh
