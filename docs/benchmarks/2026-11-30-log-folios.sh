#!/usr/bin/env bash
# What the meta replicas' write_bytes during bench ior are (issue 67 part 3). First, without
# Tessera: a 4 MiB file written in 1 MiB writes (as Ratis preallocates a log segment) or in 4 KiB
# writes, then 2,000 writes of 200 bytes, each followed by fdatasync; the writer's write_bytes
# against the sectors the disk wrote (/sys/block/DEV/stat). Then on a fresh tessera local
# --data-servers 9: one replica's Raft log worker thread, its write_bytes, write calls and
# fdatasyncs (strace -c) over one 1 GiB bench ior pass. Results in
# docs/benchmarks/2026-11-30-same-policy.md.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/log-folios
dev=$(lsblk -no pkname "$(df --output=source /tmp | tail -1)" 2>/dev/null || true)
dev=${dev:-$(basename "$(df --output=source /tmp | tail -1)")}
python3 - "$dev" <<'PY'
import os, sys
stat = '/sys/block/%s/stat' % sys.argv[1]
def written():
  return int(open(stat).read().split()[6]) * 512
def charged():
  return int([l for l in open('/proc/self/io') if l.startswith('write_bytes')][0].split()[1])
for chunk in (1 << 20, 4096):
  path = '/tmp/log-folios.file'
  fd = os.open(path, os.O_CREAT | os.O_TRUNC | os.O_WRONLY)
  for _ in range((4 << 20) // chunk):
    os.write(fd, bytes(chunk))
  os.fsync(fd)
  os.lseek(fd, 0, 0)
  d0, c0 = written(), charged()
  for _ in range(2000):
    os.write(fd, b'x' * 200)
    os.fdatasync(fd)
  d1, c1 = written(), charged()
  os.close(fd)
  os.unlink(path)
  print('file preallocated in %7d-byte writes: 2,000 synced 200-byte writes charged %6.1f MiB'
        ' to write_bytes; the disk wrote %.1f MiB' % (chunk, (c1 - c0) / 2**20, (d1 - d0) / 2**20))
PY
trap 'stop_cluster 2>/dev/null || true' EXIT
start_cluster $D
pid=$(python3 -c "import json;print(json.load(open('$D/cluster.json'))['meta'][0]['pid'])")
tid=$((16#$(jcmd "$pid" Thread.print | grep SegmentedRaftLogWorker | grep -o "nid=0x[0-9a-f]*" | cut -dx -f2)))
io() { awk '/^(write_bytes|syscw)/{printf "%s %s ", $1, $2}' /proc/$pid/task/$tid/io; echo; }
echo "Raft log worker of replica pid $pid (thread $tid), before: $(io)"
strace -qq -p $tid -c -e trace=fdatasync,fsync -o $D/strace.txt &
S=$!
sleep 1
./tessera bench ior --meta "$META" --credentials $D/admin.credentials --ec 6+3 --block 1G \
  --transfer 4M --warmup 0 --runs 1 --no-verify 2>&1 | grep -E "^(write|read)"
kill -INT $S
wait $S || true
echo "after: $(io)"
grep -E "fdatasync|fsync" $D/strace.txt || echo "no fsyncs traced"
ls -la $D/meta/m1/raft/*/current | grep log_
stop_cluster
rm -rf $D $D.out
