#!/bin/sh
# prolog.sh - Slurm Prolog for the testbed: records that the prolog ran for a
# job, nothing else.  start copies it to $TB/etc/prolog.sh and slurm.conf
# names that absolute path, so the log lands in $TB/log/prolog.log.  It must
# always exit 0: a failing prolog drains the node and requeues the job.
log="$(dirname "$0")/../log/prolog.log"
echo "$(date +%s) prolog job=${SLURM_JOB_ID:-?} node=${SLURMD_NODENAME:-?} user=${SLURM_JOB_USER:-?}" >>"$log" 2>/dev/null
exit 0
