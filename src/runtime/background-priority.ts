// Reading documents is throughput work; answering an integrator (a create's ingest, a workflow task, a
// read) is latency work, and on a machine of few cores the two share the CPU. The threads and processes
// that read (pdf.js threads, native OCR) run at a lower scheduling priority, so that whatever else the
// machine does goes first and they take every cycle left over: an idle machine still reads at full speed.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

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
 * started afterwards inherit it from the thread that starts them. A worker that only analyses.
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
  lowerThisSessionsAutogroup();
}

/**
 * Where the kernel groups tasks by session (autogroup, on by default on desktop and many server kernels),
 * a process's nice value weighs only against the other tasks of its own session: a worker started as a
 * session of its own (a service manager's, the local stack's) would still take an equal share of the CPU
 * beside the API and the review worker, each a session of its own. The session's group then gets the
 * same nice value, but only when this process leads its session: a worker started from someone's shell
 * shares the shell's session, which is not its to lower. Where there are no autogroups the file is absent.
 */
function lowerThisSessionsAutogroup(): void {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command's closing parenthesis: state, ppid, pgrp, session, …
    const session = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
    if (session !== process.pid) return;
    writeFileSync('/proc/self/autogroup', String(BACKGROUND_NICE));
  } catch {
    // No autogroups here, or not permitted: the nice values above are all there is.
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
