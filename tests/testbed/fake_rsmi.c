/*
 * fake_rsmi.c - squall's stand-in for AMD's librocm_smi64.so on the 24.11
 * and 26.05 testbeds: fake GPUs that Slurm's own gpu/rsmi plugin detects
 * and whose per-process use it measures (see FAKE-GPUS.md, README).
 * tests/testbed/start builds it into $TB/lib/librocm_smi64.so:
 *   gcc -shared -fPIC -O2 -o librocm_smi64.so fake_rsmi.c
 *
 * The devices come from the environment of the slurmd that loads it
 * (slurmstepd inherits it): SQ_FAKE_GPU_COUNT (0..16), SQ_FAKE_GPU_BRAND
 * (the GRES type, e.g. a100) and SQ_FAKE_GPU_MINOR (the first render
 * minor: /dev/dri/renderD<minor>, one per device).
 *
 * What a process "uses" comes from its own environment at exec
 * (/proc/<pid>/environ, readable by slurmstepd, which polls as root):
 *   SQ_FAKE_GPU_USE=<percent>:<bytes>   a fixed use
 *   SQ_FAKE_GPU_FILE=<path>             a file holding "<percent> <bytes>",
 *                                       read again at every poll
 * A process with neither (or an unreadable file) gives
 * RSMI_STATUS_NOT_FOUND, which Slurm skips.  Only the 17 functions that
 * gpu_rsmi.so imports exist; the layouts are rocm_smi.h's (6.1.2, 6.4.1).
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int rsmi_status_t; /* an enum in rocm_smi.h: int-sized */
enum {
	RSMI_STATUS_SUCCESS = 0,
	RSMI_STATUS_INVALID_ARGS = 1,
	RSMI_STATUS_NOT_SUPPORTED = 2,
	RSMI_STATUS_FILE_ERROR = 3,
	RSMI_STATUS_NOT_FOUND = 10,
	RSMI_STATUS_INSUFFICIENT_SIZE = 11,
};

typedef struct {
	uint32_t major;
	uint32_t minor;
	uint32_t patch;
	const char *build;
} rsmi_version_t;

#define RSMI_MAX_NUM_FREQUENCIES 33
typedef struct {
	bool has_deep_sleep;
	uint32_t num_supported;
	uint32_t current;
	uint64_t frequency[RSMI_MAX_NUM_FREQUENCIES];
} rsmi_frequencies_t;

typedef struct {
	uint32_t process_id;
	uint32_t pasid;
	uint64_t vram_usage;
	uint64_t sdma_usage;
	uint32_t cu_occupancy;
} rsmi_process_info_t;

_Static_assert(sizeof(rsmi_version_t) == 24, "rsmi_version_t layout");
_Static_assert(offsetof(rsmi_frequencies_t, frequency) == 16,
	       "rsmi_frequencies_t layout");
_Static_assert(sizeof(rsmi_frequencies_t) == 16 + 8 * 33,
	       "rsmi_frequencies_t size");
_Static_assert(sizeof(rsmi_process_info_t) == 32, "rsmi_process_info_t size");
_Static_assert(offsetof(rsmi_process_info_t, cu_occupancy) == 24,
	       "rsmi_process_info_t layout");

#define MAX_DEVICES 16

/* fake_env_u: the unsigned value of the environment variable NAME, or DEF */
static unsigned
fake_env_u(const char *name, unsigned def)
{
	const char *s = getenv(name);
	char *end;
	unsigned long v;

	if (!s || !*s)
		return def;
	v = strtoul(s, &end, 10);
	return *end ? def : (unsigned)v;
}

static uint32_t
fake_count(void)
{
	unsigned n = fake_env_u("SQ_FAKE_GPU_COUNT", 0);

	return n > MAX_DEVICES ? MAX_DEVICES : n;
}

static const char *
fake_brand(void)
{
	const char *b = getenv("SQ_FAKE_GPU_BRAND");

	return b && *b ? b : "fakegpu";
}

/* fake_copy: copy S into BUF of LEN bytes, NUL-terminated */
static rsmi_status_t
fake_copy(char *buf, size_t len, const char *s)
{
	if (!buf || len == 0)
		return RSMI_STATUS_INVALID_ARGS;
	snprintf(buf, len, "%s", s);
	return strlen(s) < len ? RSMI_STATUS_SUCCESS
			       : RSMI_STATUS_INSUFFICIENT_SIZE;
}

#define CHECK_DEV(i)                                                           \
	do {                                                                   \
		if ((i) >= fake_count())                                       \
			return RSMI_STATUS_INVALID_ARGS;                       \
	} while (0)

rsmi_status_t
rsmi_init(uint64_t flags)
{
	(void)flags;
	return RSMI_STATUS_SUCCESS;
}

rsmi_status_t
rsmi_shut_down(void)
{
	return RSMI_STATUS_SUCCESS;
}

rsmi_status_t
rsmi_version_get(rsmi_version_t *v)
{
	if (!v)
		return RSMI_STATUS_INVALID_ARGS;
	/* >= 6: usage accounting is off with an older library (24.05+) */
	v->major = 6;
	v->minor = 1;
	v->patch = 2;
	v->build = "squall-fake";
	return RSMI_STATUS_SUCCESS;
}

rsmi_status_t
rsmi_version_str_get(int component, char *buf, uint32_t len)
{
	(void)component;
	return fake_copy(buf, len, "6.1.2-squall-fake");
}

rsmi_status_t
rsmi_status_string(rsmi_status_t st, const char **out)
{
	if (!out)
		return RSMI_STATUS_INVALID_ARGS;
	switch (st) {
	case RSMI_STATUS_SUCCESS:
		*out = "RSMI_STATUS_SUCCESS: fake GPU";
		break;
	case RSMI_STATUS_INVALID_ARGS:
		*out = "RSMI_STATUS_INVALID_ARGS: no such fake GPU";
		break;
	case RSMI_STATUS_NOT_SUPPORTED:
		*out = "RSMI_STATUS_NOT_SUPPORTED: not on a fake GPU";
		break;
	case RSMI_STATUS_NOT_FOUND:
		*out = "RSMI_STATUS_NOT_FOUND: process not using a fake GPU";
		break;
	default:
		*out = "RSMI_STATUS_UNKNOWN_ERROR: fake GPU";
		break;
	}
	return RSMI_STATUS_SUCCESS;
}

rsmi_status_t
rsmi_num_monitor_devices(uint32_t *n)
{
	if (!n)
		return RSMI_STATUS_INVALID_ARGS;
	*n = fake_count();
	return RSMI_STATUS_SUCCESS;
}

rsmi_status_t
rsmi_topo_get_numa_node_number(uint32_t i, uint32_t *numa)
{
	CHECK_DEV(i);
	if (!numa)
		return RSMI_STATUS_INVALID_ARGS;
	*numa = 0;
	return RSMI_STATUS_SUCCESS;
}

rsmi_status_t
rsmi_dev_name_get(uint32_t i, char *buf, size_t len)
{
	char name[96];

	CHECK_DEV(i);
	snprintf(name, sizeof(name), "squall fake %s", fake_brand());
	return fake_copy(buf, len, name);
}

rsmi_status_t
rsmi_dev_brand_get(uint32_t i, char *buf, uint32_t len)
{
	CHECK_DEV(i);
	return fake_copy(buf, len, fake_brand());
}

static uint32_t
fake_minor(uint32_t i)
{
	return fake_env_u("SQ_FAKE_GPU_MINOR", 128) + i;
}

rsmi_status_t
rsmi_dev_drm_render_minor_get(uint32_t i, uint32_t *minor)
{
	CHECK_DEV(i);
	if (!minor)
		return RSMI_STATUS_INVALID_ARGS;
	*minor = fake_minor(i);
	return RSMI_STATUS_SUCCESS;
}

rsmi_status_t
rsmi_dev_pci_id_get(uint32_t i, uint64_t *bdfid)
{
	CHECK_DEV(i);
	if (!bdfid)
		return RSMI_STATUS_INVALID_ARGS;
	/* domain 0, bus = the render minor (distinct per node and release) */
	*bdfid = (uint64_t)(fake_minor(i) & 0xff) << 8;
	return RSMI_STATUS_SUCCESS;
}

rsmi_status_t
rsmi_dev_unique_id_get(uint32_t i, uint64_t *id)
{
	CHECK_DEV(i);
	if (!id)
		return RSMI_STATUS_INVALID_ARGS;
	*id = 0x5a5a000000000000ULL | fake_minor(i);
	return RSMI_STATUS_SUCCESS;
}

rsmi_status_t
rsmi_dev_gpu_clk_freq_get(uint32_t i, int type, rsmi_frequencies_t *f)
{
	(void)type;
	CHECK_DEV(i);
	if (!f)
		return RSMI_STATUS_INVALID_ARGS;
	memset(f, 0, sizeof(*f));
	f->num_supported = 3;
	f->current = 2;
	f->frequency[0] = 500000000ULL;
	f->frequency[1] = 1000000000ULL;
	f->frequency[2] = 1500000000ULL;
	return RSMI_STATUS_SUCCESS;
}

rsmi_status_t
rsmi_dev_gpu_clk_freq_set(uint32_t i, int type, uint64_t mask)
{
	(void)type;
	(void)mask;
	CHECK_DEV(i);
	return RSMI_STATUS_SUCCESS;
}

rsmi_status_t
rsmi_dev_perf_level_set(uint32_t i, int level)
{
	(void)level;
	CHECK_DEV(i);
	return RSMI_STATUS_SUCCESS;
}

rsmi_status_t
rsmi_dev_power_ave_get(uint32_t i, uint32_t sensor, uint64_t *power)
{
	(void)sensor;
	CHECK_DEV(i);
	if (!power)
		return RSMI_STATUS_INVALID_ARGS;
	*power = 50000000ULL; /* microwatts */
	return RSMI_STATUS_SUCCESS;
}

/* fake_environ: the value of NAME in /proc/PID/environ into VAL */
static bool
fake_environ(uint32_t pid, const char *name, char *val, size_t len)
{
	char path[64], buf[65536];
	size_t n, nlen = strlen(name), off = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/environ", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (off < n) {
		const char *e = buf + off;
		size_t el = strlen(e);

		if (el > nlen && strncmp(e, name, nlen) == 0 &&
		    e[nlen] == '=') {
			snprintf(val, len, "%s", e + nlen + 1);
			return true;
		}
		off += el + 1;
	}
	return false;
}

/* fake_use: parse "<percent><sep><bytes>" into INFO */
static bool
fake_use(const char *s, rsmi_process_info_t *info)
{
	unsigned long pct;
	unsigned long long bytes;
	char *end;

	pct = strtoul(s, &end, 10);
	if (end == s || (*end != ':' && *end != ' ' && *end != '\t'))
		return false;
	s = end + 1;
	while (*s == ' ' || *s == '\t')
		s++;
	bytes = strtoull(s, &end, 10);
	if (end == s)
		return false;
	info->cu_occupancy = (uint32_t)pct;
	info->vram_usage = bytes;
	return true;
}

rsmi_status_t
rsmi_compute_process_info_by_pid_get(uint32_t pid, rsmi_process_info_t *info)
{
	char val[4096], line[128];
	FILE *f;

	if (!info)
		return RSMI_STATUS_INVALID_ARGS;
	memset(info, 0, sizeof(*info));
	info->process_id = pid;
	if (fake_environ(pid, "SQ_FAKE_GPU_USE", val, sizeof(val)))
		return fake_use(val, info) ? RSMI_STATUS_SUCCESS
					   : RSMI_STATUS_NOT_FOUND;
	if (!fake_environ(pid, "SQ_FAKE_GPU_FILE", val, sizeof(val)))
		return RSMI_STATUS_NOT_FOUND;
	f = fopen(val, "re");
	if (!f)
		return RSMI_STATUS_NOT_FOUND;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	return fake_use(line, info) ? RSMI_STATUS_SUCCESS
				    : RSMI_STATUS_NOT_FOUND;
}
