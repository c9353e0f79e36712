# SPDX-License-Identifier: GPL-2.0
#
# Sustained load with nothing lost (tests/guest/load/README.md): pfm_load, a static
# program, runs 64 monitored threads for LOAD_SECONDS in the guest, on the stock
# kernel with perfmon.ko (then rmmod, its refcount 0) and on the debug kernel
# (kmemleak scanned after it by the guest's init).
#
#   make check-load                 LOAD_SECONDS (600) on each kernel
#   make check-load-module          the stock kernel alone (check-load-debug: the debug one)
#   make check-load-short-module    the short form, 60 s at most with the boot
#   make check-load-short-debug     (LOAD_SHORT_SECONDS and LOAD_SHORT_WARMUP;
#                                   LOAD_SHORT_DEBUG_SECONDS and _WARMUP for the debug kernel)
#
# LOAD_WARMUP (default: a sixth of LOAD_SECONDS, at least 3) is the round of load
# before the slab snapshot; LOAD_SEED repeats a run's choices; PFM_LOAD_NATIVE=1 puts
# the samplers on the kernel's own perf_event_open (stock kernel), for comparison.

LOAD_SECONDS ?= 600
LOAD_WARMUP ?=
LOAD_SEED ?=
LOAD_SHORT_SECONDS ?= 12
LOAD_SHORT_WARMUP ?= 3
# The debug kernel boots in 20 to 55 s under TCG and its first round starts its
# threads slowly (tens of seconds): its short form is shorter still.
LOAD_SHORT_DEBUG_SECONDS ?= 6
LOAD_SHORT_DEBUG_WARMUP ?= 3

LOAD_SRCS := $(wildcard $(TOP)/tests/guest/load/*.c)
LOAD_OBJS := $(patsubst $(TOP)/tests/guest/load/%.c,$(B)/guest/obj/load/%.o,$(LOAD_SRCS))
LOAD_BIN := $(B)/guest/bin/pfm_load

$(LOAD_BIN): $(LOAD_OBJS) $(B)/lib/libperfmon.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -o $@ $(LOAD_OBJS) $(B)/lib/libperfmon.a -pthread

$(B)/guest/obj/load/%.o: $(TOP)/tests/guest/load/%.c $(TOP)/tests/guest/load/load.h \
			 $(GUEST_TEST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -c -o $@ $<

LOAD_FILES := $(LOAD_BIN):/bin/pfm_load \
	      $(TOP)/tests/guest/run/watchdog.sh:/bin/pfm-watchdog

# load_guest KERNEL,RUNSCRIPT,NAME,SECONDS,WARMUP,EXTRA_FILES,APPEND
define load_guest
	$(MKINITRAMFS) $(B)/guest/$(3).cpio.gz $(TOP)/tests/guest/load/$(2) \
		$(LOAD_FILES) $(6)
	$(RUN_GUEST) --kernel $(1) --initrd $(B)/guest/$(3).cpio.gz \
		--append "$(7) $(if $(PFM_LOAD_NATIVE),PFM_LOAD_NATIVE=1) PFM_LOAD_SECONDS=$(4) $(if $(5),PFM_LOAD_WARMUP=$(5)) \
			  $(if $(LOAD_SEED),PFM_LOAD_SEED=$(LOAD_SEED))" \
		--timeout $$(( $(4) + $(4) / 3 + 600 )) --log $(B)/guest/$(3).log
endef

.PHONY: check-load check-load-module check-load-debug check-load-short-module \
	check-load-short-debug
check-load: check-load-module check-load-debug

check-load-module: module $(LOAD_BIN)
	$(call load_guest,$(GUEST_KERNEL),run-load.sh,check-load,$(LOAD_SECONDS),$(LOAD_WARMUP),$(PFM_KO):/lib/perfmon.ko,)

check-load-debug: $(KERNEL_DEP) $(LOAD_BIN)
	$(call load_guest,$(DEBUG_KERNEL),run-load-intree.sh,check-load-debug,$(LOAD_SECONDS),$(LOAD_WARMUP),,$(DEBUG_APPEND))

check-load-short-module: module $(LOAD_BIN)
	$(call load_guest,$(GUEST_KERNEL),run-load.sh,check-load-short,$(LOAD_SHORT_SECONDS),$(LOAD_SHORT_WARMUP),$(PFM_KO):/lib/perfmon.ko,)

check-load-short-debug: $(KERNEL_DEP) $(LOAD_BIN)
	$(call load_guest,$(DEBUG_KERNEL),run-load-intree.sh,check-load-short-debug,$(LOAD_SHORT_DEBUG_SECONDS),$(LOAD_SHORT_DEBUG_WARMUP),,$(DEBUG_APPEND))
