# SPDX-License-Identifier: GPL-2.0
#
# perfmon: one entry point for everything.
#   make deps     install the Debian packages and the guest kernel (idempotent)
#   make module   build perfmon.ko for the guest kernel
#   make lib      build libperfmon
#   make check    host unit tests, then the guest suite in QEMU
#   make demo     boot the guest and measure a workload with pfmon
#   make clean

TOP	:= $(abspath .)
B	:= $(TOP)/build
ifeq ($(origin KVER),undefined)
KVER	:= $(shell $(TOP)/scripts/kver.sh)
endif
KDIR	?= /lib/modules/$(KVER)/build
GUEST_KERNEL ?= $(B)/guest/vmlinuz-$(KVER)

CC	?= cc
CFLAGS_USER := -O2 -g -Wall -Wextra -Werror -I$(TOP)/include/uapi -I$(TOP)/libpfm-glue

.PHONY: all deps module lib check check-host check-guest demo demo-run clean
all: module lib

deps:
	$(TOP)/scripts/deps.sh

include libpfm-glue/lib.mk
include tools/tools.mk
include tests/host/host.mk
include tests/guest/guest.mk

PFM_KO	:= $(TOP)/kernel/perfmon/perfmon.ko
MKINITRAMFS := $(TOP)/scripts/guest/mkinitramfs.sh
RUN_GUEST := $(TOP)/scripts/guest/run.sh

module:
	$(MAKE) -C $(KDIR) M=$(TOP)/kernel/perfmon PFM_TOP=$(TOP) modules

# deps first, in its own step: the guest kernel version is known only after it.
check: deps
	$(MAKE) check-host check-guest

check-guest: module guest-bins
	$(MKINITRAMFS) $(B)/guest/check.cpio.gz $(TOP)/tests/guest/run-suite.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/pfm_tests:/bin/pfm_tests
	$(RUN_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/guest/check.cpio.gz \
		--log $(B)/guest/check.log

demo: deps
	$(MAKE) demo-run

demo-run: module guest-bins
	$(MKINITRAMFS) $(B)/guest/demo.cpio.gz $(TOP)/tools/pfmon/demo.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/pfmon:/bin/pfmon \
		$(B)/guest/bin/workload:/bin/workload
	$(RUN_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/guest/demo.cpio.gz \
		--log $(B)/guest/demo.log

clean:
	rm -rf $(B)
	-$(MAKE) -C $(KDIR) M=$(TOP)/kernel/perfmon clean >/dev/null 2>&1
