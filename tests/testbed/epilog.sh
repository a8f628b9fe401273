#!/bin/sh
# epilog.sh - Slurm Epilog for the testbed: records that the epilog ran for a
# job, nothing else.  start copies it to $TB/etc/epilog.sh and slurm.conf
# names that absolute path, so the log lands in $TB/log/epilog.log.  It must
# always exit 0: a failing epilog drains the node.
log="$(dirname "$0")/../log/epilog.log"
echo "$(date +%s) epilog job=${SLURM_JOB_ID:-?} node=${SLURMD_NODENAME:-?} user=${SLURM_JOB_USER:-?}" >>"$log" 2>/dev/null
exit 0
