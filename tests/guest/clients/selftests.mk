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

# sigtrap_threads' two stress cases send 15000 SIGTRAPs each: 6-13 s on the
# debug kernel on a quiet host (KASAN and lockdep on every signal, natively as
# through the shim), twice that with the other lane's guest running, against
# the harness's 30 s a case.  The debug kernel runs a build with 150 s a case,
# at /selftests/debug/NAME; the stock kernel keeps the harness's 30.  The
# program defines its own siginfo_t before any libc header, so the harness
# cannot come first (-include): the build's copy of the source, in a directory
# of its own, finds a kselftest_harness.h there that puts selftest_limit.h
# before the real one.
#
# That copy also sends 600 SIGTRAPs a thread in each stress case, not 3000: on
# the debug kernel the two stress cases were nearly all of the clients' longest
# run, and what they prove there (KASAN, lockdep and UBSAN on the signal paths
# of inherited breakpoints, natively and through the shim) does not grow with
# the count.  Debian's kernel runs the program unchanged.
SELFTESTS_SLOW_DEBUG := sigtrap_threads
SELFTESTS_DEBUG_SRC := $(B)/selftests/debug
SELFTESTS_LIMIT_debug := -I$(SELFTESTS_SRC)/$(SELFTESTS_DIR) -DSELFTEST_CASE_LIMIT=150
SELFTESTS_DEBUG_SIGNALS := 600

# image.list: the programs as mkinitramfs.sh takes them, each with its shared
# libraries, at /selftests/NAME
$(SELFTESTS_BIN)/image.list: $(SELFTESTS_SRC)/.stamp $(TOP)/tests/guest/clients/selftest_limit.h \
		$(TOP)/tests/guest/clients/selftests.mk
	rm -rf $(SELFTESTS_BIN)
	mkdir -p $(SELFTESTS_BIN)
	for c in $(SELFTESTS_SRC)/$(SELFTESTS_DIR)/perf_events/*.c; do \
		n=$$(basename $$c .c); \
		case $$n in mmap) x="$(SELFTESTS_LIMIT_mmap)" ;; *) x= ;; esac; \
		$(CC) -O2 -Wl,-no-as-needed -Wall $$x -o $(SELFTESTS_BIN)/$$n $$c -lpthread || exit 1; \
		echo "+$(SELFTESTS_BIN)/$$n:/selftests/$$n" >> $@.tmp; \
	done
	rm -rf $(SELFTESTS_DEBUG_SRC)
	mkdir -p $(SELFTESTS_BIN)/debug $(SELFTESTS_DEBUG_SRC)/perf_events
	echo '#include "$(TOP)/tests/guest/clients/selftest_limit.h"' \
		> $(SELFTESTS_DEBUG_SRC)/kselftest_harness.h
	for n in $(SELFTESTS_SLOW_DEBUG); do \
		f=$(SELFTESTS_DEBUG_SRC)/perf_events/$$n.c; \
		sed 's/\<3000\>/$(SELFTESTS_DEBUG_SIGNALS)/' \
			$(SELFTESTS_SRC)/$(SELFTESTS_DIR)/perf_events/$$n.c > $$f || exit 1; \
		[ $$(grep -c '\<$(SELFTESTS_DEBUG_SIGNALS)\>' $$f) -eq 2 ] || \
			{ echo "$$f: the stress counts moved (3000)"; exit 1; }; \
		$(CC) -O2 -Wl,-no-as-needed -Wall $(SELFTESTS_LIMIT_debug) \
			-o $(SELFTESTS_BIN)/debug/$$n \
			$(SELFTESTS_DEBUG_SRC)/perf_events/$$n.c -lpthread || exit 1; \
		echo "+$(SELFTESTS_BIN)/debug/$$n:/selftests/debug/$$n" >> $@.tmp; \
	done
	mv $@.tmp $@

.PHONY: perf-selftests
perf-selftests: $(SELFTESTS_BIN)/image.list

# for the image's file list (a shell substitution: the list exists by then)
SELFTESTS_FILES = $$(cat $(SELFTESTS_BIN)/image.list) \
	$(TOP)/tests/guest/clients/perf-selftests.sh:/bin/perf-selftests.sh
