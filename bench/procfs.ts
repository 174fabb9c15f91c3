// CPU accounting from procfs (proc(5)): how busy the server, the generator and the rest of
// the machine were while a benchmark ran.
import fs from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime of a process, in seconds (/proc/<pid>/stat fields 14 and 15). */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Busy time of all cores together, in seconds (the `cpu` line of /proc/stat). */
export function machineBusySeconds(): number | null {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = fields as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Machine-wide CPU use over `ms` milliseconds, as a share of one core (200% = two busy cores). */
export async function sampleMachineCpuPercent(ms: number): Promise<number | null> {
  const before = machineBusySeconds();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = machineBusySeconds();
  return before === null || after === null ? null : ((after - before) / (ms / 1000)) * 100;
}

/** The PostgreSQL server's processes on this machine (all of them: its backends are shared). */
export function postgresPids(): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

export function totalCpuSeconds(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0);
}
