/*
 * parse_gpus.c - the inputs of the GPUS kind: nodes from `scontrol -d -o
 * show node` (Gres, GresUsed with indices, Partitions) and running jobs
 * from `squeue -h -a -t R,S,CG -O <sq_cli_gpujobs_fmt>` (allocated TRES,
 * which carry the GPU type when AccountingStorageTRES lists it; else
 * the job's nodes say it: NodeList, core/analysis/gpus.c).
 * Pending demand from `squeue -h -a -r -t PD -O <sq_cli_gpupend_fmt>`
 * (one line per array task; what each asks for per node, job and task).
 * Rows go through core/analysis/gpus.c; the caller runs sq_gpus_finish().
 */
#include <string.h>

#include "backends/cli/cli.h"
#include "backends/cli/cli_admin.h"
#include "core/analysis/gpus.h"
#include "core/base/parse.h"

const char sq_cli_gpujobs_fmt[] =
    "JobID:|,UserName:|,Account:|,Partition:|,NodeList:|,tres-alloc:";
const char sq_cli_gpupend_fmt[] =
    "JobID:|,UserName:|,Account:|,Partition:|,NumNodes:|,NumTasks:|,"
    "tres-per-node:|,tres-per-job:|,tres-per-task:|,SubmitTime:";
/* The format before NodeList (recordings made with it replay). */
const char sq_cli_gpujobs_fmt_v1[] =
    "JobID:|,UserName:|,Account:|,Partition:|,tres-alloc:";

int
sq_parse_gpu_nodes(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line;
	int lineno = 0;

	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_scnode n;
		int r;

		lineno++;
		r = sq_scnode_line(line, &n);
		if (r == 1)
			continue;
		if (r == -1)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "scontrol line %d: not a node",
					  lineno);
		if (sq_gpus_add_node(s, n.name, n.parts, n.gres, n.used) == -1)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	return 0;
}

enum { J_ID, J_USER, J_ACCOUNT, J_PART, J_NODES, J_TRES, J_COUNT };

int
sq_parse_gpu_jobs(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[J_COUNT];
	int lineno = 0, n;

	while ((line = sq_next_line(&pos)) != NULL) {
		lineno++;
		if (*line == '\0')
			continue;
		n = sq_split(line, '|', f, J_COUNT);
		if (n == J_COUNT - 1) { /* recorded without NodeList */
			f[J_TRES] = f[J_NODES];
			f[J_NODES] = "";
			n = J_COUNT;
		}
		if (n != J_COUNT)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "squeue line %d: %d fields, expected "
					  "%d (truncated output?)",
					  lineno, n, J_COUNT);
		if (sq_gpus_add_job_on(s, f[J_USER], f[J_ACCOUNT], f[J_PART],
				       f[J_NODES], f[J_TRES]) == -1)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	return 0;
}

enum {
	P_ID,
	P_USER,
	P_ACCOUNT,
	P_PART,
	P_NODES,
	P_TASKS,
	P_PER_NODE,
	P_PER_JOB,
	P_PER_TASK,
	P_SUBMIT,
	P_COUNT
};

/* A count squeue prints ("2", "N/A"): 0 when not a number. */
static int64_t
count_field(const char *f)
{
	int64_t v;

	return sq_parse_int(f, &v) == 0 && v > 0 ? v : 0;
}

int
sq_parse_gpu_pending(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[P_COUNT];
	int lineno = 0;

	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_gpu_pend p;

		lineno++;
		if (*line == '\0')
			continue;
		if (sq_split(line, '|', f, P_COUNT) != P_COUNT)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "squeue line %d: expected %d fields "
					  "(truncated output?)",
					  lineno, P_COUNT);
		memset(&p, 0, sizeof(p));
		p.user = f[P_USER];
		p.account = f[P_ACCOUNT];
		p.partition = f[P_PART];
		p.nodes = count_field(f[P_NODES]);
		p.tasks = count_field(f[P_TASKS]);
		p.per_node = f[P_PER_NODE];
		p.per_job = f[P_PER_JOB];
		p.per_task = f[P_PER_TASK];
		if (sq_parse_time(f[P_SUBMIT], &p.submit) == -1)
			p.submit = SQ_NONE;
		p.now = s->fetched;
		if (sq_gpus_add_pending(s, &p) == -1)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	return 0;
}
