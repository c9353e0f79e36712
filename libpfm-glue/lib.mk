# SPDX-License-Identifier: LGPL-2.1
#
# libperfmon: the perfmon calls as C functions (static library).
# Included by the top Makefile, which defines TOP, B, CC and CFLAGS_USER.

LIBPFM_SRCS := $(wildcard $(TOP)/libpfm-glue/*.c)
LIBPFM_OBJS := $(patsubst $(TOP)/libpfm-glue/%.c,$(B)/lib/obj/%.o,$(LIBPFM_SRCS))
# every user of the library also depends on these
LIBPFM_HDRS := $(wildcard $(TOP)/libpfm-glue/*.h) \
		$(wildcard $(TOP)/include/uapi/perfmon/*.h)
LIBPFM_A    := $(B)/lib/libperfmon.a

.PHONY: lib
lib: $(B)/lib/libperfmon.a

$(LIBPFM_A): $(LIBPFM_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/lib/obj/%.o: $(TOP)/libpfm-glue/%.c $(LIBPFM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -c -o $@ $<
