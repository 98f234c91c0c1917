// Wall-clock bounds in tests are for a machine that is free. On a shared one (CI beside another suite,
// two cores and a load average of 15) the same work takes as many times longer as there are runnable
// processes per core. A bound is stretched by that factor, read when it is checked: it still catches
// what it is there for (a hang, a quadratic parse, a missing deadline), which costs far more than any
// slowdown, and a free machine keeps the bound as written.
import { spawn } from 'node:child_process';
import { availableParallelism, cpus, loadavg, setPriority } from 'node:os';
import { BACKGROUND_NICE } from '../../src/runtime/background-priority.js';

/** Runnable processes per core over the last minute, at least 1. */
export function slowdown(): number {
  return Math.max(1, loadavg()[0]! / cpus().length);
}

/** `ms` as measured on a free machine, stretched by this machine's current slowdown. */
export function onThisMachine(ms: number): number {
  return Math.round(ms * slowdown());
}

/**
 * `work` while every core spins a process at the readers' own priority (src/runtime/background-priority.ts):
 * they saturate what the readers get, as at a lender's month-end, while whatever runs at normal priority
 * beside them (the rest of a test suite) keeps its share of the machine.
 */
export async function withCoresSaturated<T>(work: () => Promise<T>): Promise<T> {
  const busy = Array.from({ length: availableParallelism() }, () => {
    const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    setPriority(child.pid!, BACKGROUND_NICE);
    return child;
  });
  try {
    return await work();
  } finally {
    for (const child of busy) child.kill('SIGKILL');
  }
}
