/*
 * parse_scnode.c - the NODES kind from `scontrol -d -o show node` (one
 * line per node; -d adds GresUsed's indices) with `scontrol -o show
 * partition` (which partitions sinfo shows and which is the default), as
 * `sinfo -N -O <sq_cli_sinfo_fmt>` gave them (parse_sinfo.c): the same
 * long state (core/model/node_state.h), partitions (the default first with
 * its '*', then by name; hidden ones and nodes in no shown partition left
 * out), CPUsState's idle and "other", reasons with who set them and when.
 * sinfo -N is quadratic in its lines (tests/bench/RESULTS.md, issue 44);
 * scontrol is not. The line reader is shared with the GPUS kind
 * (parse_gpus.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "backends/cli/stream.h"
#include "core/base/gres.h"
#include "core/base/parse.h"
#include "core/base/strtab.h"
#include "core/model/node_state.h"

/* Does " Key=" start at p (just after a space), or the line end? */
static int
key_or_end(const char *p)
{
	size_t n = strcspn(p, "= ");

	return *p == '\0' || (p[n] == '=' && sq_is_key(p, n));
}

/*
 * Reason=<text> [<user>@<time>]: the text may hold anything, '=' too, so
 * it is cut out before the Key=Value split: it ends at the "]" followed
 * by the line's end or the next Key=. 0 when the line has none in that
 * shape.
 */
static int
cut_reason(char *line, struct sq_scnode *n, char **rest)
{
	char *r = strstr(line, " Reason="), *e, *open, *at;

	if (r == NULL)
		return 0;
	for (e = strchr(r, ']'); e != NULL; e = strchr(e + 1, ']')) {
		if (e[1] == '\0' || (e[1] == ' ' && key_or_end(e + 2)))
			break;
	}
	if (e == NULL)
		return 0;
	for (open = e; open > r && !(open[0] == '[' && open[-1] == ' ');)
		open--;
	at = open > r ? memchr(open, '@', (size_t)(e - open)) : NULL;
	if (at == NULL)
		return 0;
	*r = '\0';
	open[-1] = '\0';
	*at = '\0';
	*e = '\0';
	n->reason = r + 8;
	n->reason_by = open + 1;
	n->reason_stamp = at + 1;
	*rest = e[1] == ' ' ? e + 2 : e + 1;
	return 1;
}

static void
take(struct sq_scnode *n, const char *key, char *val)
{
#define K(k, f)                                                                \
	{                                                                      \
		k, sizeof(k) - 1, offsetof(struct sq_scnode, f)                \
	}
	static const struct {
		const char *key;
		size_t len, off;
	} keys[] = {
		K("NodeName", name),      K("Partitions", parts),
		K("Gres", gres),          K("GresUsed", used),
		K("State", state),        K("CPUAlloc", cpu_alloc),
		K("CPUTot", cpu_tot),     K("RealMemory", mem),
		K("AllocMem", mem_alloc), K("Reason", reason),
	};
#undef K
	char *e;
	size_t i;

	/* a line has some 50 keys, 10 of them read: the length and first
	 * letter rule most out before a compare (issue 44: 5,000 lines);
	 * sq_kv_next ended the key where the value starts */
	size_t kl = (size_t)(val - key) - 1;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (kl == keys[i].len && key[0] == keys[i].key[0] &&
		    memcmp(key, keys[i].key, kl) == 0)
			break;
	}
	if (i == sizeof(keys) / sizeof(keys[0]))
		return;
	/* scontrol pads some values ("Partitions=a,b  Boot") */
	e = val + strlen(val);
	while (e > val && e[-1] == ' ')
		*--e = '\0';
	*(const char **)((char *)n + keys[i].off) = val;
}

int
sq_scnode_line(char *line, struct sq_scnode *n)
{
	char *kp = line, *rest = NULL, *key, *val;

	memset(n, 0, sizeof(*n));
	n->parts = n->gres = n->used = n->state = "";
	n->reason = n->reason_by = n->reason_stamp = "";
	if (*line == '\0' || strncmp(line, "No nodes", 8) == 0)
		return 1;
	if (strncmp(line, "NodeName=", 9) != 0)
		return -1;
	cut_reason(line, n, &rest);
	while (sq_kv_next(&kp, &key, &val))
		take(n, key, val);
	kp = rest;
	while (kp != NULL && sq_kv_next(&kp, &key, &val))
		take(n, key, val);
	return n->name == NULL || *n->name == '\0' ? -1 : 0;
}

/* The partitions sinfo shows (scontrol show partition without -a: not the
 * hidden ones) and its default. */
struct shown {
	const struct sq_snapshot *parts;
	char last_raw[1024];
	const char *last; /* the list for last_raw */
};

static int
shown_part(const struct shown *sh, const char *name, size_t l, int *def)
{
	size_t i;

	for (i = 0; i < sh->parts->nrows; i++) {
		const struct sq_partition *p = sq_snapshot_row(sh->parts, i);

		if (strlen(p->name) == l && strncmp(p->name, name, l) == 0) {
			*def = p->is_default > 0;
			return 1;
		}
	}
	return 0;
}

/* Partitions=a,b as sinfo -N's lines give them: the shown ones, the
 * default marked '*' and first, then by name; "" for none. Consecutive
 * nodes mostly share the list: the last one is kept. */
static const char *
node_parts(struct shown *sh, struct sq_strtab *st, const char *raw)
{
	char list[1024] = "", one[260], out[1024];
	const char *p = raw;

	if (sh->last != NULL && strcmp(raw, sh->last_raw) == 0)
		return sh->last;
	while (*p != '\0') {
		size_t l = strcspn(p, ",");
		int def = 0;

		if (l > 0 && l < 256 && shown_part(sh, p, l, &def)) {
			snprintf(one, sizeof(one), "%.*s%s", (int)l, p,
				 def ? "*" : "");
			sq_cli_parts_join(out, sizeof(out), list, one);
			memcpy(list, out, sizeof(list));
		}
		p += l;
		if (*p == ',')
			p++;
	}
	snprintf(sh->last_raw, sizeof(sh->last_raw), "%s", raw);
	sh->last = sq_strtab_str(st, list);
	return sh->last;
}

static int
count(const char *v, int64_t *out)
{
	return v != NULL && sq_parse_int(v, out) == 0 ? 0 : -1;
}

/* One node's row from its line's fields. */
static int
fill(struct sq_snapshot *s, struct sq_strtab *st, const struct sq_scnode *n,
     const char *parts, int planned_mark, int lineno, struct sq_err *err)
{
	struct sq_node *nd = sq_snapshot_add(s);
	struct sq_node_state ns;
	char state[64];

	if (nd == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	sq_node_state_init(&ns);
	ns.planned_mark = planned_mark;
	sq_node_state_parse(&ns, n->state);
	sq_node_state_long(&ns, state, sizeof(state));
	nd->name = sq_snapshot_str(s, n->name);
	nd->state = sq_strtab_str(st, state);
	nd->partitions = parts;
	if (count(n->cpu_alloc, &nd->cpus_alloc) == -1 ||
	    count(n->cpu_tot, &nd->cpus_total) == -1)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "scontrol line %d: bad CPU counts", lineno);
	/* sinfo's CPUsState: a drained or down node's free CPUs are
	 * "other", not idle */
	nd->cpus_idle =
	    sq_node_state_cpus_other(&ns) ? 0 : nd->cpus_total - nd->cpus_alloc;
	if (n->mem == NULL || n->mem_alloc == NULL ||
	    sq_parse_mem_mb(n->mem, &nd->mem_total) == -1 ||
	    sq_parse_mem_mb(n->mem_alloc, &nd->mem_alloc) == -1)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "scontrol line %d: bad memory size", lineno);
	nd->gres = sq_is_none(n->gres) ? "" : sq_strtab_str(st, n->gres);
	nd->gres_used = sq_is_none(n->used) ? "" : sq_strtab_str(st, n->used);
	nd->gpus_total = sq_gres_count(nd->gres, "gpu");
	nd->gpus_alloc = sq_gres_count(nd->gres_used, "gpu");
	nd->reason = sq_is_none(n->reason) || strcmp(n->reason, "none") == 0
			 ? ""
			 : sq_strtab_str(st, n->reason);
	sq_cli_reason_by_at(s, nd, n->reason_by, n->reason_stamp);
	return 0;
}

/* A parse under way: the partitions shown, the strings the nodes share,
 * the lines read. */
struct scnode_st {
	struct sq_snapshot *s;
	struct sq_strtab st;
	struct shown sh;
	int planned_mark, lineno;
};

static void *
scnode_begin(struct sq_snapshot *s, const void *ctx)
{
	const struct sq_scnode_ctx *c = ctx;
	struct scnode_st *p = calloc(1, sizeof(*p));

	if (p == NULL)
		return NULL;
	p->s = s;
	p->sh.parts = c->parts;
	p->planned_mark = c->planned_mark;
	/* states, partitions, GRES and reasons repeat over thousands of
	 * nodes: stored once */
	sq_strtab_init(&p->st, &s->arena, 0);
	return p;
}

static void
scnode_end(void *st)
{
	struct scnode_st *p = st;

	sq_strtab_free(&p->st);
	free(p);
}

static int
scnode_lines(void *st, char *text, int last, struct sq_err *err)
{
	struct scnode_st *p = st;
	char *pos = text, *line;

	(void)last;
	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_scnode n;
		const char *pl;
		int r;

		p->lineno++;
		r = sq_scnode_line(line, &n);
		if (r == 1)
			continue;
		if (r == -1)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "scontrol line %d: not a node",
					  p->lineno);
		pl = node_parts(&p->sh, &p->st, n.parts);
		if (pl == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		/* sinfo -N shows a node in each shown partition only */
		if (*pl == '\0')
			continue;
		if (fill(p->s, &p->st, &n, pl, p->planned_mark, p->lineno,
			 err) == -1)
			return -1;
	}
	return 0;
}

const struct sq_cli_lines sq_scnode_lines = { scnode_begin, scnode_lines,
					      scnode_end };

int
sq_parse_scontrol_nodes(char *text, const struct sq_snapshot *parts,
			int planned_mark, struct sq_snapshot *s,
			struct sq_err *err)
{
	struct sq_scnode_ctx c = { parts, planned_mark };

	return sq_cli_lines_all(&sq_scnode_lines, &c, text, s, err);
}
