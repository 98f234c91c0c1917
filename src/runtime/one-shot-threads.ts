// Work that would hold the event loop, run in threads that each take one request and end with its answer,
// under a budget of time and heap: a thread that overruns is terminated, so one caller's file never stalls
// what the process's other work shares, and nothing is kept from one request to the next. The threads of
// one pool are bounded: at most `max` at once, later requests waiting for one, so that many heavy requests
// at once cost the process that many heaps at most.
import type { Worker } from 'node:worker_threads';
import { Semaphore } from 'async-mutex';
import { startThread } from './thread-entry.js';

export interface ThreadBudget {
  /** From the thread's start (loading its modules included) to its answer. */
  timeoutMs: number;
  /** The thread's heap ceiling. */
  heapMb: number;
}

/** What became of a request: the thread's answer, or why there is none (overrun, out of heap, crashed). */
export type ThreadOutcome<Reply> = { answered: true; reply: Reply } | { answered: false; reason: string };

export class OneShotThreads<Request, Reply> {
  private readonly slots: Semaphore;
  private running = 0;
  private started = 0;

  /**
   * `name` and `source`: the thread's entry (thread-entry.ts), which answers the one message it is sent
   * with one message.
   */
  constructor(
    private readonly name: string,
    private readonly source: URL,
    private budget: ThreadBudget,
    readonly max: number,
  ) {
    this.slots = new Semaphore(max);
  }

  /** Changes the budget and returns the previous one (tests shorten it). */
  configure(changes: Partial<ThreadBudget>): ThreadBudget {
    const previous = this.budget;
    this.budget = { ...this.budget, ...changes };
    return previous;
  }

  /** Threads running now (for tests). */
  get runningNow(): number {
    return this.running;
  }

  /** Threads started so far (for tests). */
  get startedSoFar(): number {
    return this.started;
  }

  /**
   * Runs `request` in a fresh thread once one of the pool's `max` is free (its time budget starts then);
   * never rejects.
   */
  run(request: Request): Promise<ThreadOutcome<Reply>> {
    return this.slots.runExclusive(async () => {
      this.running++;
      try {
        return await this.runInNewThread(request);
      } finally {
        this.running--;
      }
    });
  }

  private async runInNewThread(request: Request): Promise<ThreadOutcome<Reply>> {
    const { timeoutMs, heapMb } = this.budget;
    let thread: Worker;
    try {
      thread = await startThread(this.name, this.source, { resourceLimits: { maxOldGenerationSizeMb: heapMb } });
      this.started++;
    } catch (err) {
      return { answered: false, reason: `its thread could not start: ${(err as Error).message}` };
    }
    return new Promise((resolve) => {
      let done = false;
      const finish = (outcome: ThreadOutcome<Reply>) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        void thread.terminate();
        resolve(outcome);
      };
      const timer = setTimeout(
        () => finish({ answered: false, reason: `it took longer than ${timeoutMs} ms` }),
        timeoutMs,
      );
      thread.once('message', (reply: Reply) => finish({ answered: true, reply }));
      // Out of heap (ERR_WORKER_OUT_OF_MEMORY) or a crash.
      thread.once('error', (err) => finish({ answered: false, reason: `its thread failed: ${err.message}` }));
      thread.once('exit', (code) => finish({ answered: false, reason: `its thread exited with ${code}` }));
      thread.postMessage(request);
    });
  }
}
