# SPDX-License-Identifier: LGPL-2.1
#
# libperfmon: the perfmon calls as C functions (static and shared library), and
# libperfmon-perf.so, the LD_PRELOAD library that answers perf_event_open(2)
# with them (preload/syscall.c).
# Included by the top Makefile, which defines TOP, B, CC and CFLAGS_USER.

LIBPFM_SRCS := $(wildcard $(TOP)/libpfm-glue/*.c)
LIBPFM_OBJS := $(patsubst $(TOP)/libpfm-glue/%.c,$(B)/lib/obj/%.o,$(LIBPFM_SRCS))
# every user of the library also depends on these
LIBPFM_HDRS := $(wildcard $(TOP)/libpfm-glue/*.h) \
		$(wildcard $(TOP)/include/uapi/perfmon/*.h)
LIBPFM_A    := $(B)/lib/libperfmon.a

.PHONY: lib
lib: $(B)/lib/libperfmon.a $(B)/lib/libperfmon-perf.so $(B)/lib/libperfmon.so

$(LIBPFM_A): $(LIBPFM_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/lib/obj/%.o: $(TOP)/libpfm-glue/%.c $(LIBPFM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -c -o $@ $<

# The preload is a shared object: the library again, position-independent, in an
# archive so that the link takes only the members it needs (not events.c and its
# libpfm4).  --exclude-libs hides them: the .so exports syscall() and execve()
# alone (preload/syscall.c; fallback.c: the events it hands to the kernel), and a
# preloaded program that has its own libperfmon keeps its own.
LIBPFM_PIC_OBJS := $(patsubst $(TOP)/libpfm-glue/%.c,$(B)/lib/pic/%.o,$(LIBPFM_SRCS))
LIBPFM_PIC_A    := $(B)/lib/libperfmon_pic.a
LIBPFM_PERF_SO  := $(B)/lib/libperfmon-perf.so

$(LIBPFM_PIC_A): $(LIBPFM_PIC_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/lib/pic/%.o: $(TOP)/libpfm-glue/%.c $(LIBPFM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -fPIC -c -o $@ $<

LIBPFM_PRELOAD_SRCS := $(TOP)/libpfm-glue/preload/syscall.c $(TOP)/libpfm-glue/preload/fallback.c

$(LIBPFM_PERF_SO): $(LIBPFM_PRELOAD_SRCS) $(TOP)/libpfm-glue/preload/fallback.h \
		$(LIBPFM_PIC_A) $(LIBPFM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -fPIC -shared -Wl,-z,defs -Wl,--exclude-libs,ALL -o $@ \
		$(LIBPFM_PRELOAD_SRCS) $(LIBPFM_PIC_A)

# libperfmon.so.1: the same objects, the symbols of libperfmon.map only.  The
# major number changes when a call changes incompatibly (never so far).
LIBPFM_MAJOR := 1
LIBPFM_VERSION := $(LIBPFM_MAJOR).0.0
LIBPFM_SO_REAL := $(B)/lib/libperfmon.so.$(LIBPFM_VERSION)
LIBPFM_MAP := $(TOP)/libpfm-glue/libperfmon.map

$(LIBPFM_SO_REAL): $(LIBPFM_PIC_OBJS) $(LIBPFM_MAP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -fPIC -shared -Wl,-z,defs -Wl,-soname,libperfmon.so.$(LIBPFM_MAJOR) \
		-Wl,--version-script=$(LIBPFM_MAP) -o $@ $(LIBPFM_PIC_OBJS) -lpfm -lm -pthread

$(B)/lib/libperfmon.so: $(LIBPFM_SO_REAL)
	ln -sf $(notdir $<) $(B)/lib/libperfmon.so.$(LIBPFM_MAJOR)
	ln -sf libperfmon.so.$(LIBPFM_MAJOR) $@
