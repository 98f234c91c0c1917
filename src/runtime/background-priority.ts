// Reading documents is throughput work; answering an integrator (a create's ingest, a workflow task, a
// read) is latency work, and on a machine of few cores the two share the CPU. The threads and processes
// that read (pdf.js threads, native OCR) run at a lower scheduling priority, so that whatever else the
// machine does goes first and they take every cycle left over: an idle machine still reads at full speed.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { statFieldsAfterCommand } from './proc-stat.js';

/** The nice value of reading threads and processes (0 is normal, 19 the lowest). */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the calling thread's priority. On Linux a priority is a thread's own (setpriority(2) with pid 0
 * names the calling thread), so a worker thread lowers itself alone; elsewhere the same call would lower
 * the whole process, so it does nothing there. Never fails: a priority is advice.
 */
export function lowerThisThreadsPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(BACKGROUND_NICE);
  } catch {
    // Not permitted (an unusual sandbox): the thread reads at normal priority.
  }
}

/**
 * Lowers this whole process's priority: every thread it has (on Linux a priority is a thread's own, and
 * the runtime's compiler and garbage-collector threads are started before any code of ours runs); threads
 * started afterwards inherit it from the thread that starts them. A worker that only analyses. A process
 * that leads a session of its own lowers that session's scheduling group too (lowerSessionGroup).
 */
export function lowerThisProcessPriority(): void {
  if (process.platform !== 'linux') {
    lowerProcessPriority(process.pid);
    return;
  }
  let threads: string[] = [];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    threads = [String(process.pid)];
  }
  for (const tid of threads) lowerProcessPriority(Number(tid));
  lowerSessionGroup(process.pid);
}

/**
 * Lowers the scheduling group of the session `pid` leads. Linux shares the CPU between sessions before it
 * weighs the nice values of threads within one (an "autogroup" per session, sched(7)): a process in a
 * session of its own, as the stack's supervisor starts every service, competes with the API and Temporal
 * as a group whatever its threads' nice values, and takes as large a share as each of them. Its group's
 * own nice value lowers the group. Only a session leader's is lowered: in a session shared with other
 * work (a shell's) it would lower that work too. Where a CPU cgroup holds the process (a container, a
 * systemd service) the cgroup's weight decides instead and the write changes nothing. The worker calls it
 * on itself; a launcher on a service it has just started, so that its start already yields.
 */
export function lowerSessionGroup(pid: number): void {
  if (process.platform !== 'linux') return;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const session = Number(statFieldsAfterCommand(stat)[3]);
    if (session === pid) writeFileSync(`/proc/${pid}/autogroup`, String(BACKGROUND_NICE));
  } catch {
    // No autogroups in this kernel, gone, or not permitted: the threads' own nice values are what there is.
  }
}

/** Lowers a child process's priority (a native OCR engine), before it has done much. */
export function lowerProcessPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, BACKGROUND_NICE);
  } catch {
    // The process has already exited, or it is not permitted: nothing to lower.
  }
}
