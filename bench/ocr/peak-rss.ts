import fs from 'node:fs';

/** A process's peak resident memory in bytes (`VmHWM`, every thread included); 0 once it has exited. */
export function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
