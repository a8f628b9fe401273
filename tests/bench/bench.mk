# bench.mk - builds the make bench drivers with the main Makefile's
# compiler, flags and libraries, without adding rules to Makefile.in:
#   make -f Makefile -f tests/bench/bench.mk BENCH_OUT=DIR bench-drivers
# Each tests/bench/*.c is one program; DIR gets the binaries.
BENCH_OUT ?= tests/bench/out
BENCH_SRC = $(wildcard tests/bench/*.c)
BENCH_BIN = $(patsubst tests/bench/%.c,$(BENCH_OUT)/%,$(BENCH_SRC))

.PHONY: bench-drivers
bench-drivers: $(BENCH_BIN)

$(BENCH_OUT)/%: tests/bench/%.c libsquall.a config.h
	@mkdir -p $(BENCH_OUT)
	$(CC) -I. $(LIBCFLAGS) $(CFLAGS) -o $@ $< libsquall.a $(LIBS)
