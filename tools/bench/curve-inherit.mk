# SPDX-License-Identifier: GPL-2.0
#
# make bench-inherit: the cost of counting a process's children and threads, per
# child or thread, perfmon against perf_events in the same guest boot, interleaved
# round by round (tools/bench/inherit_bench.c): fork + exit + wait and fork + exec
# of a tiny static program + exit + wait for INHERIT_CHILDREN children
# (1,10,100,1000), thread create + join for INHERIT_THREADS threads
# (1,2,4,8,16,32,64); the shim's attr.inherit against perf_events' and pfmon
# against perf stat, each less the unmonitored run.  INHERIT_ROUNDS rounds (7), at
# points of 1000 tasks or more INHERIT_BIG_ROUNDS (3); each run sleeps
# INHERIT_SETTLE_MS (20) before its timed part, for the deferred work of the last,
# and starts it just after a timer tick.
# INHERIT_NEV=1..4: the shim and perf_events count the first n of the four events.
# A threads run makes its n threads as many times as makes INHERIT_THREAD_TASKS (64).
# build/bench/inherit.json (its goals and ratios for goals.py) and inherit.png.
BENCH_CURVES += bench-inherit
.PHONY: bench-inherit

INHERIT_ENV := $(if $(INHERIT_ROUNDS),INHERIT_ROUNDS=$(INHERIT_ROUNDS)) \
	       $(if $(INHERIT_CHILDREN),INHERIT_CHILDREN=$(INHERIT_CHILDREN)) \
	       $(if $(INHERIT_THREADS),INHERIT_THREADS=$(INHERIT_THREADS)) \
	       $(if $(INHERIT_BIG_ROUNDS),INHERIT_BIG_ROUNDS=$(INHERIT_BIG_ROUNDS)) \
	       $(if $(INHERIT_SETTLE_MS),INHERIT_SETTLE_MS=$(INHERIT_SETTLE_MS)) \
	       $(if $(INHERIT_NEV),INHERIT_NEV=$(INHERIT_NEV)) \
	       $(if $(INHERIT_THREAD_TASKS),INHERIT_THREAD_TASKS=$(INHERIT_THREAD_TASKS))
INHERIT_SRCS := $(addprefix $(TOP)/tools/bench/,inherit_bench.c inherit_report.c \
		inherit_work.c bench_common.c)
INHERIT_HDRS := $(addprefix $(TOP)/tools/bench/,inherit_bench.h inherit_work.h \
		bench_common.h)

# Dynamic, so that the shim's preload answers its perf_event_open.
$(B)/guest/bin/inherit_bench: $(INHERIT_SRCS) $(INHERIT_HDRS) $(B)/lib/libperfmon.a $(TOOLS_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -pthread -o $@ $(INHERIT_SRCS) $(B)/lib/libperfmon.a

$(B)/guest/bin/inherit_exit: $(TOP)/tools/bench/inherit_exit.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -nostdlib -o $@ $<

bench-inherit: module $(B)/guest/bin/inherit_bench $(B)/guest/bin/inherit_exit \
	       $(B)/guest/bin/pfmon $(LIBPFM_PERF_SO)
	@mkdir -p $(B)/bench
	$(MKINITRAMFS) $(B)/bench/inherit.cpio.gz $(TOP)/tools/bench/run-inherit.sh \
		$(PFM_KO):/lib/perfmon.ko +$(B)/guest/bin/inherit_bench:/bin/inherit_bench \
		$(B)/guest/bin/inherit_exit:/bin/inherit_exit $(B)/guest/bin/pfmon:/bin/pfmon \
		+$(LIBPFM_PERF_SO):/lib/perfmon/libperfmon-perf.so +/usr/bin/perf:/usr/bin/perf
	$(BENCH_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/bench/inherit.cpio.gz \
		$(if $(strip $(BENCH_APPEND) $(INHERIT_ENV)),--append "$(strip $(BENCH_APPEND) $(INHERIT_ENV))") \
		--timeout 2400 --log $(B)/bench/inherit.log
	@sed -n 's/^BENCH-INHERIT-JSON: //p' $(B)/bench/inherit.log | tr -d '\r' > $(B)/bench/inherit.json
	@echo "bench: $(B)/bench/inherit.json"
	python3 $(TOP)/tools/bench/plot-inherit.py $(B)/bench/inherit.json $(B)/bench/inherit.png
