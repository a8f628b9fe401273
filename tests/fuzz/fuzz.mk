# fuzz.mk - builds the libFuzzer harnesses (clang, -fsanitize=fuzzer,
# address,undefined) into tests/fuzz/build/. Run from the source root by
# tests/fuzz/run: make -f tests/fuzz/fuzz.mk FUZZ_BINS="..."
#
# It includes the configured Makefile for the source lists and library
# flags, and compiles its own copy of the library objects (instrumented
# for coverage) so the normal build is left alone.

include Makefile

FUZZ_CC ?= clang
FB = tests/fuzz/build
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
FUZZ_CFLAGS = -std=c11 -g -O1 -Wall -Wextra -Wno-unused-parameter \
	-Wmissing-prototypes $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_CPPFLAGS = -I. $(LIBCFLAGS) -MMD -MP

# the library without the console (tui/): the parsers, the backends,
# core/ and the front ends at the root (batch, exec, spec_*)
FUZZ_LIB_SRC = $(CORE_SRC) $(BACKEND_SRC) $(APP_SRC)
FUZZ_LIB_OBJ = $(FUZZ_LIB_SRC:%.c=$(FB)/obj/%.o)
FUZZ_LIB = $(FB)/libsquall-fuzz.a
FUZZ_LIBS = $(filter-out -lncursesw -ltinfo,$(LIBS))
FUZZ_UTIL = $(FB)/obj/tests/fuzz/fuzz_util.o

.DEFAULT_GOAL := fuzz-bins
.PHONY: fuzz-bins
fuzz-bins: $(FUZZ_BINS:%=$(FB)/bin/%)

$(FB)/obj/%.o: %.c config.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_LIB): $(FUZZ_LIB_OBJ)
	rm -f $@
	ar rcs $@ $(FUZZ_LIB_OBJ)

# bin/GROUP_NAME comes from fuzz_GROUP.c with SQ_FUZZ_NAME="NAME"
define fuzz_group
$(FB)/bin/$(1)_%: tests/fuzz/fuzz_$(1).c tests/fuzz/fuzz.h $(FUZZ_UTIL) \
		$(FUZZ_LIB) config.h
	@mkdir -p $$(@D)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer \
		-DSQ_FUZZ_NAME='"$$*"' -o $$@ $$< $(FUZZ_UTIL) $(FUZZ_LIB) \
		$(FUZZ_LIBS)
endef
$(foreach g,cli json conf core action rest spec,$(eval $(call fuzz_group,$(g))))

-include $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_UTIL:.o=.d)
