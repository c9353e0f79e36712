# SPDX-License-Identifier: GPL-2.0
#
# Guest tools: pfmon (count software events of a command) and workload (a
# program that makes a known number of each event).  Static, so that they run
# in the guest whatever its libc.

TOOLS_HDRS := $(wildcard $(TOP)/libpfm-glue/*.h) \
	      $(wildcard $(TOP)/include/uapi/perfmon/*.h)

PFMON_SRCS := $(TOP)/tools/pfmon/pfmon.c $(TOP)/tools/pfmon/smpl.c

$(B)/guest/bin/pfmon: $(PFMON_SRCS) $(TOP)/tools/pfmon/smpl.h $(B)/lib/libperfmon.a $(TOOLS_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -pthread -o $@ $(PFMON_SRCS) $(B)/lib/libperfmon.a -lpfm

$(B)/guest/bin/workload: $(TOP)/tools/pfmon/workload.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -o $@ $<
