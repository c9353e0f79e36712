# SPDX-License-Identifier: GPL-2.0
#
# The fuzzer (tests/fuzz/README.md):
#   make fuzz          FUZZ_SECONDS (600) on the in-tree debug kernel, coverage-guided
#   make fuzz-module   FUZZ_SECONDS on Debian's kernel with perfmon.ko, then rmmod
#   make fuzz-repro LOG=build/fuzz/fuzz-debug.log [ONLY=N]
#                      shrinks the failing program in the guest and writes
#                      build/fuzz/repro.c (and its binary build/fuzz/repro)
#   make check-fuzz    the 2-minute runs of make check (both kernels)
# FUZZ_SEED=N picks the seed (default: a new one each run, printed and logged).

FUZZ_SECONDS ?= 600
FUZZ_SEED ?=
FUZZ_SRCS := $(wildcard $(TOP)/tests/fuzz/*.c)
FUZZ_HDRS := $(wildcard $(TOP)/tests/fuzz/*.h)
FUZZ_BIN  := $(B)/guest/bin/pfm_fuzz
FUZZ_PCS  := $(B)/fuzz/pcs.txt
FUZZ_RUN  := $(TOP)/tests/fuzz/run-fuzz.sh
# the kernel command line hands these to the guest's init, and so to run-fuzz.sh
FUZZ_ENV   = FUZZ_SECONDS=$(FUZZ_SECONDS) $(if $(FUZZ_SEED),FUZZ_SEED=$(FUZZ_SEED))
# boot, the last program's checks, kmemleak's scan: on top of FUZZ_SECONDS
FUZZ_SLACK := 400

.PHONY: fuzz fuzz-module fuzz-repro check-fuzz fuzz-bin
fuzz-bin: $(FUZZ_BIN)

$(FUZZ_BIN): $(FUZZ_SRCS) $(FUZZ_HDRS) $(LIBPFM_A) $(LIBPFM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -pthread -o $@ $(FUZZ_SRCS) $(LIBPFM_A)

# The PCs of perfmon's code in the debug kernel, for KCOV (pcs.sh).
$(FUZZ_PCS): $(DEBUG_KERNEL) $(TOP)/tests/fuzz/pcs.sh
	@mkdir -p $(@D)
	$(TOP)/tests/fuzz/pcs.sh $(B)/intree/obj > $@.tmp
	mv $@.tmp $@

# The log leaves the guest on a third serial port (ttyS2), written before each
# program runs: a crash cannot take it along.
fuzz: $(KERNEL_DEP) $(FUZZ_BIN) $(COV_PLUGIN)
	$(MAKE) $(FUZZ_PCS) $(COV_RANGES)
	$(MKINITRAMFS) $(B)/fuzz/fuzz-debug.cpio.gz $(FUZZ_RUN) \
		$(FUZZ_BIN):/bin/pfm_fuzz $(FUZZ_PCS):/fuzz/pcs.txt
	PFM_QEMU_OPTS="-serial file:$(B)/fuzz/fuzz-debug.log \
		$(call cov_qemu_opts,$(B)/fuzz/fuzz-debug.hits)" \
	$(RUN_GUEST) --kernel $(DEBUG_KERNEL) --initrd $(B)/fuzz/fuzz-debug.cpio.gz \
		--append "$(DEBUG_APPEND) $(FUZZ_ENV)" \
		--timeout $$(($(FUZZ_SECONDS) + $(FUZZ_SLACK))) \
		--log $(B)/fuzz/fuzz-debug.console; rc=$$?; \
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
	PFM_QEMU_OPTS="-serial file:$(B)/fuzz/fuzz-module.log" \
	$(RUN_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/fuzz/fuzz-module.cpio.gz \
		--append "$(FUZZ_ENV)" --timeout $$(($(FUZZ_SECONDS) + $(FUZZ_SLACK))) \
		--log $(B)/fuzz/fuzz-module.console || \
		{ echo "fuzz-module: FAILED; log $(B)/fuzz/fuzz-module.log, console" \
		       "$(B)/fuzz/fuzz-module.console; reproduce with" \
		       "make fuzz-repro LOG=$(B)/fuzz/fuzz-module.log"; exit 1; }

# Both kernels, 2 minutes each: what make check runs.
.PHONY: check-fuzz-module check-fuzz-debug
check-fuzz: check-fuzz-module check-fuzz-debug
check-fuzz-module:
	$(MAKE) fuzz-module FUZZ_SECONDS=120
check-fuzz-debug:
	$(MAKE) fuzz FUZZ_SECONDS=120

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
