#!/usr/bin/env bash
# A throwaway single-node Slurm on this machine, for the Slurm recipe test (tests/slurm.rs).
#
#   .ci/slurm.sh up      install slurm-wlm and munge (apt-get) if missing, start them, wait
#                        until the node is idle; prints the line to eval: export SLURM_CONF=...
#   .ci/slurm.sh down    cancel its jobs, stop its daemons by their PIDs, remove its folder
#
# Everything lives in one folder, SLURM_DIR (default /tmp/sudoku-enum-slurm): a fresh munge key,
# slurm.conf, state, spool, logs, pid files and munge's socket. Nothing is written to /etc and no
# system service is started: munged, slurmctld and slurmd run as root, on 127.0.0.1 (ports
# SLURM_PORT, default 6817, and the next one); the machine's own hostname is the controller and
# the only node (CPUs = nproc), in one partition `debug`, cluster name sudoku-enum-test (the only
# cluster tests/slurm.rs submits to). The scheduler looks at the queue every second (defaults:
# 60 s, and 30 s for backfill) so that short jobs do not wait on it; a cancelled or timed-out
# job gets 2 s between SIGTERM and SIGKILL. Needs root (slurmd starts jobs as their user).
# Tested with Slurm 22.05.8 (Debian 12's slurm-wlm).
#
# Local use (as root):
#   eval "$(.ci/slurm.sh up)"
#   SUDOKU_ENUM_REQUIRE_SLURM=1 cargo test --release --locked slurm -- --nocapture
#   .ci/slurm.sh down
set -euo pipefail

dir=${SLURM_DIR:-/tmp/sudoku-enum-slurm}
port=${SLURM_PORT:-6817}
conf=$dir/slurm.conf
export SLURM_CONF=$conf
daemons=(munged slurmctld slurmd)

log() { echo "slurm.sh: $*" >&2; }

# The PID in $dir/$1.pid if that process is alive and is $1 (not a reused PID).
pid_of() {
    local pid
    pid=$(cat "$dir/$1.pid" 2>/dev/null) || return 1
    [[ $pid =~ ^[0-9]+$ ]] && [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$1" ]] && echo "$pid"
}

# Stop daemon $1 by its PID: SIGTERM, then SIGKILL after 10 s.
stop() {
    local pid
    pid=$(pid_of "$1") || return 0
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        log "$1 ($pid) still running after 10 s: SIGKILL"
        kill -9 "$pid" 2>/dev/null || true
    fi
    log "stopped $1 ($pid)"
}

down() {
    [[ -d $dir ]] || return 0
    if pid_of slurmctld >/dev/null && scancel --user="$(id -un)" 2>/dev/null; then
        # Jobs of this throwaway cluster only (SLURM_CONF points at it): let their steps end.
        for _ in $(seq 50); do
            [[ -z $(squeue -h 2>/dev/null) ]] && break
            sleep 0.2
        done
    fi
    stop slurmd
    stop slurmctld
    stop munged
    rm -rf "$dir"
}

# Start the daemons; fails (without cleaning up) at the first step that does.
launch() {
    local host cpus
    host=$(hostname -s)
    cpus=$(nproc)
    mkdir -p "$dir"/{state,spool} || return 1
    chmod 755 "$dir" || return 1 # munged wants its socket's folder searchable by all
    chmod 700 "$dir/state" || return 1
    mungekey --create --keyfile="$dir/munge.key" || return 1
    munged --key-file="$dir/munge.key" --socket="$dir/munge.socket" \
        --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
        --seed-file="$dir/munged.seed" || return 1
    cat >"$conf" <<EOF || return 1
# Written by .ci/slurm.sh: a throwaway single-node Slurm for tests.
ClusterName=sudoku-enum-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1,bf_interval=1,sched_min_interval=100000
MessageTimeout=5
KillWait=2
MinJobAge=3600
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    slurmctld -c || return 1
    slurmd || return 1
    local d died
    for _ in $(seq 150); do
        # A daemon whose PID file is written and whose process is gone died (port taken?); one
        # that has not written it yet is still starting (a busy machine took longer than the
        # first check, and a CI run stopped a Slurm that was coming up).
        died=
        for d in slurmctld slurmd; do
            [[ -s $dir/$d.pid ]] && ! pid_of "$d" >/dev/null && died=$d
        done
        [[ -n $died ]] && break
        if [[ $(sinfo -h -o %T 2>/dev/null) == idle ]]; then
            log "up: $(sinfo -V), node $host with $cpus CPUs idle; PIDs: munged $(pid_of munged)," \
                "slurmctld $(pid_of slurmctld), slurmd $(pid_of slurmd)"
            return 0
        fi
        sleep 0.2
    done
    log "the node is not idle (after up to 30 s), or a daemon died:"
    sinfo >&2 || true
    return 1
}

up() {
    local name
    for name in "${daemons[@]}"; do
        if pid_of "$name" >/dev/null; then
            log "a Slurm from $dir is already running ($name); stop it first: $0 down"
            return 1
        fi
    done
    rm -rf "$dir" # leftovers of a run that could not clean up
    if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
        log "installing slurm-wlm and munge"
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
    fi
    if ! launch; then
        log "could not start Slurm; the logs, then stopping what was started:"
        tail -n 20 "$dir"/*.log >&2 || true
        down
        return 1
    fi
    echo "export SLURM_CONF=$conf"
}

case ${1:-} in
up) up ;;
down) down ;;
*)
    echo "usage: $0 up|down" >&2
    exit 2
    ;;
esac
