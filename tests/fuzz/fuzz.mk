# SPDX-License-Identifier: GPL-2.0
#
# The fuzzer (tests/fuzz/README.md):
#   make fuzz          FUZZ_SECONDS (600) on the in-tree debug kernel, coverage-guided
#   make fuzz-module   FUZZ_SECONDS on Debian's kernel with perfmon.ko, then rmmod
#   make fuzz-repro LOG=build/fuzz/fuzz-debug.log [ONLY=N]
#                      shrinks the failing program in the guest and writes
#                      build/fuzz/repro.c (and its binary build/fuzz/repro)
#   make check-fuzz    the 1-minute runs of make check (both kernels)
#   make check-fuzz-self  the fuzzer's own parts that need no perfmon (selftest.c),
#                      on this machine; make check runs it with its builds
#   make fuzz-long     FUZZ_LONG_SECONDS (1800) on the debug kernel, then as long on
#                      the module kernel (rmmod at its end; the debug guest's init
#                      ends with a kmemleak scan)
# FUZZ_SEED=N picks the seed (default: a new one each run, printed and logged);
# FUZZ_FRESH=1 forks a process per program instead of keeping the executor;
# FUZZ_PROCS=N runs N executors side by side (default: one more than the CPUs).
# FUZZ_TCG (multi): QEMU's TCG with a host thread per guest CPU (run.sh's
# PFM_TCG_THREAD), as a run of its own may; make check's runs share the host
# with another guest and keep one thread.

FUZZ_SECONDS ?= 600
FUZZ_LONG_SECONDS ?= 1800
FUZZ_SEED ?=
FUZZ_TCG ?= multi
FUZZ_SRCS := $(wildcard $(TOP)/tests/fuzz/*.c) $(TOP)/tests/guest/harness/fail_nth.c
FUZZ_HDRS := $(wildcard $(TOP)/tests/fuzz/*.h) $(TOP)/tests/guest/harness/fail_nth.h
FUZZ_BIN  := $(B)/guest/bin/pfm_fuzz
FUZZ_PCS  := $(B)/fuzz/pcs.txt
FUZZ_RUN  := $(TOP)/tests/fuzz/run-fuzz.sh
# the kernel command line hands these to the guest's init, and so to run-fuzz.sh
FUZZ_ENV   = FUZZ_SECONDS=$(FUZZ_SECONDS) $(if $(FUZZ_SEED),FUZZ_SEED=$(FUZZ_SEED)) \
	     $(if $(FUZZ_FRESH),FUZZ_FRESH=1) $(if $(FUZZ_PROCS),FUZZ_PROCS=$(FUZZ_PROCS))
# boot, the last program's checks, kmemleak's scan: on top of FUZZ_SECONDS
FUZZ_SLACK := 400
# The log goes into memory the guest shares with a file here (ivshmem-plain;
# logring.c), written before each program without waiting for a serial port;
# once the region is full, on through the third serial port (ttyS2).
# $(call fuzz_log_opts,STEM): the QEMU options, a fresh region of zeroes first;
# $(call fuzz_log_text,STEM): STEM.log, the region's text then the port's.
FUZZ_RING_SIZE := 128M
fuzz_log_opts = -object memory-backend-file,id=fzlog,size=$(FUZZ_RING_SIZE),mem-path=$(1).ring,share=on \
	-device ivshmem-plain,memdev=fzlog -serial file:$(1).serial
fuzz_log_prep = rm -f $(1).ring $(1).serial && truncate -s $(FUZZ_RING_SIZE) $(1).ring
fuzz_log_text = { tr -d '\000' < $(1).ring; cat $(1).serial; } > $(1).log; rm -f $(1).ring
# The debug kernel has no PCI, so no ivshmem device: there the guest's whole RAM
# (run.sh's -m) is a file here, in /dev/shm where there is one (a file on disk
# would be written back as the guest runs), and the log goes into the
# FUZZ_RAM_LOG_MB above the first FUZZ_RAM_LOG_AT, which mem= keeps from the
# kernel (the BIOS's tables at the top of RAM stay out of it); the guest maps it
# through /dev/mem.  The same three steps: fuzz_ram_opts (and fuzz_ram_append on
# the kernel's command line), fuzz_ram_prep, fuzz_ram_text.
FUZZ_RAM_MB := 1024
FUZZ_RAM_LOG_AT := 896
FUZZ_RAM_LOG_MB := 64
FUZZ_SHM := $(if $(wildcard /dev/shm/.),/dev/shm,$(B)/fuzz)
FUZZ_TREE_ID := $(shell printf %s '$(B)' | cksum | cut -d' ' -f1)
fuzz_ram_file = $(FUZZ_SHM)/pfm-$(notdir $(1))-$(FUZZ_TREE_ID).ram
fuzz_ram_opts = -machine memory-backend=fzram -serial file:$(1).serial \
	-object memory-backend-file,id=fzram,size=$(FUZZ_RAM_MB)M,share=on,mem-path=$(call fuzz_ram_file,$(1))
fuzz_ram_append = mem=$(FUZZ_RAM_LOG_AT)M \
	FUZZ_LOG_RAM=$$(($(FUZZ_RAM_LOG_AT) << 20)),$$(($(FUZZ_RAM_LOG_MB) << 20))
fuzz_ram_prep = rm -f $(1).serial $(call fuzz_ram_file,$(1)) && \
	truncate -s $(FUZZ_RAM_MB)M $(call fuzz_ram_file,$(1))
fuzz_ram_text = { dd if=$(call fuzz_ram_file,$(1)) bs=1M skip=$(FUZZ_RAM_LOG_AT) \
	count=$(FUZZ_RAM_LOG_MB) status=none | tr -d '\000'; cat $(1).serial; } > $(1).log; \
	rm -f $(call fuzz_ram_file,$(1))

.PHONY: fuzz fuzz-module fuzz-long fuzz-repro check-fuzz fuzz-bin
fuzz-bin: $(FUZZ_BIN)

$(FUZZ_BIN): $(FUZZ_SRCS) $(FUZZ_HDRS) $(LIBPFM_A) $(LIBPFM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -I$(TOP)/tests/guest/harness -static -pthread -o $@ $(FUZZ_SRCS) \
		$(LIBPFM_A)

# The PCs of perfmon's code in the debug kernel, for KCOV (pcs.sh).
$(FUZZ_PCS): $(DEBUG_KERNEL) $(TOP)/tests/fuzz/pcs.sh
	@mkdir -p $(@D)
	$(TOP)/tests/fuzz/pcs.sh $(B)/intree/obj > $@.tmp
	mv $@.tmp $@

# The log leaves the guest through the RAM file (fuzz_ram_*), then the third
# serial port (ttyS2), written before each program runs: a crash cannot take it
# along.
fuzz: $(KERNEL_DEP) $(FUZZ_BIN) $(COV_PLUGIN)
	$(MAKE) $(FUZZ_PCS) $(COV_RANGES)
	$(MKINITRAMFS) $(B)/fuzz/fuzz-debug.cpio.gz $(FUZZ_RUN) \
		$(FUZZ_BIN):/bin/pfm_fuzz $(FUZZ_PCS):/fuzz/pcs.txt
	$(call fuzz_ram_prep,$(B)/fuzz/fuzz-debug)
	PFM_TCG_THREAD=$(FUZZ_TCG) PFM_QEMU_OPTS="$(call fuzz_ram_opts,$(B)/fuzz/fuzz-debug) \
		$(call cov_qemu_opts,$(B)/fuzz/fuzz-debug.hits)" \
	$(RUN_GUEST) --kernel $(DEBUG_KERNEL) --initrd $(B)/fuzz/fuzz-debug.cpio.gz \
		--append "$(DEBUG_APPEND) $(FUZZ_ENV) $(fuzz_ram_append)" \
		--timeout $$(($(FUZZ_SECONDS) + $(FUZZ_SLACK))) \
		--log $(B)/fuzz/fuzz-debug.console; rc=$$?; \
	$(call fuzz_ram_text,$(B)/fuzz/fuzz-debug); \
	$(COV_PY) guest $(DEBUG_VMLINUX) $(B)/fuzz/fuzz-debug.hits $(B)/fuzz/lines.tsv \
		$(B)/fuzz/uncovered.txt && \
	$(COV_PY) table "lines reached by the fuzzer=$(B)/fuzz/lines.tsv" | tail -n 3; \
	[ $$rc -eq 0 ] || \
		{ echo "fuzz: FAILED; log $(B)/fuzz/fuzz-debug.log, console" \
		       "$(B)/fuzz/fuzz-debug.console; reproduce with" \
		       "make fuzz-repro LOG=$(B)/fuzz/fuzz-debug.log"; exit 1; }

fuzz-module: module $(FUZZ_BIN)
	@mkdir -p $(B)/fuzz
	$(MKINITRAMFS) $(B)/fuzz/fuzz-module.cpio.gz $(FUZZ_RUN) \
		$(FUZZ_BIN):/bin/pfm_fuzz $(PFM_KO):/lib/perfmon.ko
	$(call fuzz_log_prep,$(B)/fuzz/fuzz-module)
	PFM_TCG_THREAD=$(FUZZ_TCG) PFM_QEMU_OPTS="$(call fuzz_log_opts,$(B)/fuzz/fuzz-module)" \
	$(RUN_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/fuzz/fuzz-module.cpio.gz \
		--append "$(FUZZ_ENV)" --timeout $$(($(FUZZ_SECONDS) + $(FUZZ_SLACK))) \
		--log $(B)/fuzz/fuzz-module.console; rc=$$?; \
	$(call fuzz_log_text,$(B)/fuzz/fuzz-module); \
	[ $$rc -eq 0 ] || \
		{ echo "fuzz-module: FAILED; log $(B)/fuzz/fuzz-module.log, console" \
		       "$(B)/fuzz/fuzz-module.console; reproduce with" \
		       "make fuzz-repro LOG=$(B)/fuzz/fuzz-module.log"; exit 1; }

# The fuzzer's own parts that need no perfmon, on this machine (selftest.c).
.PHONY: check-fuzz-self
check-fuzz-self: $(FUZZ_BIN)
	$(FUZZ_BIN) --selftest

# Both kernels, half a minute each: what make check runs (a smoke run within its time
# budget; the searching is fuzz-long's).
FUZZ_CHECK_SECONDS ?= 30
.PHONY: check-fuzz-module check-fuzz-debug
check-fuzz: check-fuzz-module check-fuzz-debug
check-fuzz-module:
	$(MAKE) fuzz-module FUZZ_SECONDS=$(FUZZ_CHECK_SECONDS) FUZZ_TCG=single
check-fuzz-debug:
	$(MAKE) fuzz FUZZ_SECONDS=$(FUZZ_CHECK_SECONDS) FUZZ_TCG=single

# Long runs: both kernels one after the other, each failing on its own.
fuzz-long:
	$(MAKE) fuzz FUZZ_SECONDS=$(FUZZ_LONG_SECONDS)
	$(MAKE) fuzz-module FUZZ_SECONDS=$(FUZZ_LONG_SECONDS)

# Which kernel the log came from is in its first line (door=syscall: the debug
# kernel); repro.sh boots that one for each shrinking step.
fuzz-repro: $(FUZZ_BIN) $(LIBPFM_A)
	@test -n "$(LOG)" || { echo "usage: make fuzz-repro LOG=FILE [ONLY=N]"; exit 2; }
	if grep -q '^# pfm_fuzz .*door=syscall' $(LOG); then \
		$(MAKE) kernel $(FUZZ_PCS); else $(MAKE) module; fi
	TOP=$(TOP) B=$(B) CC="$(CC)" CFLAGS_USER="$(CFLAGS_USER)" \
	DEBUG_KERNEL=$(DEBUG_KERNEL) GUEST_KERNEL=$(GUEST_KERNEL) \
	DEBUG_APPEND="$(DEBUG_APPEND)" PFM_KO=$(PFM_KO) LIBPFM_A=$(LIBPFM_A) \
		$(TOP)/tests/fuzz/repro.sh $(LOG) $(ONLY)
