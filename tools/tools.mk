# SPDX-License-Identifier: GPL-2.0
#
# Guest tools: pfmon (count or sample events of a command, threads or CPUs) and
# workload (a program that makes a known number of each event).  Static, so that
# they run in the guest whatever its libc: elfutils' libdw (pfmon's sample
# report) links statically with its compression libraries.

TOOLS_HDRS := $(wildcard $(TOP)/libpfm-glue/*.h) \
	      $(wildcard $(TOP)/include/uapi/perfmon/*.h)

PFMON_SRCS := $(wildcard $(TOP)/tools/pfmon/*.c)
PFMON_SRCS := $(filter-out $(TOP)/tools/pfmon/workload.c,$(PFMON_SRCS))
PFMON_HDRS := $(wildcard $(TOP)/tools/pfmon/*.h)
PFMON_LIBS := -lpfm -ldw -lelf -lz -llzma -lbz2 -lzstd -lm

$(B)/guest/bin/pfmon: $(PFMON_SRCS) $(PFMON_HDRS) $(B)/lib/libperfmon.a $(TOOLS_HDRS)
	@mkdir -p $(@D)
	@# glibc warns that libdw's dlopen() (debuginfod) needs its own libc: it is unused
	$(CC) $(CFLAGS_USER) -static -pthread -o $@.tmp $(PFMON_SRCS) $(B)/lib/libperfmon.a \
		$(PFMON_LIBS) 2>$@.err; rc=$$?; \
		grep -v -e "statically linked applications requires" -e "__libdwfl_debuginfod_init" $@.err >&2; \
		rm -f $@.err; [ $$rc -eq 0 ] && mv $@.tmp $@

$(B)/guest/bin/workload: $(TOP)/tools/pfmon/workload.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -pthread -o $@ $<

# Helpers of the guest's pfmon tests (tests/guest/pfmon/pfmon-check.sh): a JSON checker
# for pfmon -j, and runas, to be refused as a user without capabilities.
$(B)/guest/bin/%: $(TOP)/tests/guest/pfmon/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -o $@ $<

# pfmon as installed (make install): dynamic, on libperfmon.so.
$(B)/bin/pfmon: $(PFMON_SRCS) $(PFMON_HDRS) $(B)/lib/libperfmon.so $(TOOLS_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -o $@ $(PFMON_SRCS) -L$(B)/lib -lperfmon -lpfm -ldw -lelf -lm
