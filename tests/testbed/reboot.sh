#!/bin/sh
# reboot.sh - the testbed's RebootProgram: records that slurmd was asked to
# reboot (when, its arguments, the node) and reboots nothing.  start copies
# it to $TB/etc/reboot.sh and slurm.conf names that path, so the record
# lands in $TB/log/reboot.log.  The node is not rebooted, so slurmctld waits
# ResumeTimeout and then sets it DOWN ("reboot timed out"): whoever lets a
# reboot be issued resumes the node (test_maint.sh cancels its request
# before that; its cleanup resumes the node if it was issued).
log="$(dirname "$0")/../log/reboot.log"
echo "$(date +%s) reboot node=${SLURMD_NODENAME:-?} args=$*" >>"$log" 2>/dev/null
exit 0
