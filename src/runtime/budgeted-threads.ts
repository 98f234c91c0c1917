// Work that would hold the event loop, run in threads under a budget of time and heap: a thread that
// overruns is terminated, so one caller's file never stalls what the process's other work shares. The
// threads of one pool are bounded: at most `max` at once, later requests waiting for one, so that many
// heavy requests at once cost the process that many heaps at most.
//
// A thread that has answered waits for the next request and ends once it has been idle for `idleMs`. Ending
// each thread at its answer made the process abort now and then on Node 20: V8 may still be compiling a
// thread's hot code in the background while Node takes the thread's isolate off its platform, and the
// compile job's call back into the platform fails an assertion (`NodePlatform::ForIsolate`: Node 20 takes
// an isolate off the platform before disposing of it, which v8/node#208 reverses for later lines). An idle
// thread has nothing compiling, so threads end idle, and a busy one only when it overruns or fails. What a
// request leaves in a thread's heap is garbage once it has answered.
import type { Worker } from 'node:worker_threads';
import { Semaphore } from 'async-mutex';
import { startThread } from './thread-entry.js';

export interface ThreadBudget {
  /** From the request's hand-over to its answer (a fresh thread's start, loading its modules, included). */
  timeoutMs: number;
  /** The thread's heap ceiling. */
  heapMb: number;
  /** How long a thread that has answered waits for the next request before it ends. */
  idleMs: number;
}

/** What became of a request: the thread's answer, or why there is none (overrun, out of heap, crashed). */
export type ThreadOutcome<Reply> = { answered: true; reply: Reply } | { answered: false; reason: string };

/** An answered thread waiting for the next request, and the timer that ends it. */
interface IdleThread {
  thread: Worker;
  timer: NodeJS.Timeout;
  gone: () => void;
}

export class BudgetedThreads<Request, Reply> {
  private readonly slots: Semaphore;
  private readonly idle: IdleThread[] = [];
  private running = 0;
  private started = 0;
  private requests = 0;

  /**
   * `name` and `source`: the thread's entry (thread-entry.ts), which answers each message it is sent with
   * one message, one at a time.
   */
  constructor(
    private readonly name: string,
    private readonly source: URL,
    private budget: ThreadBudget,
    readonly max: number,
  ) {
    this.slots = new Semaphore(max);
  }

  /**
   * Changes the budget and returns the previous one (tests shorten it). Idle threads end, so every idle
   * thread was started under the budget in force.
   */
  configure(changes: Partial<ThreadBudget>): ThreadBudget {
    const previous = this.budget;
    this.budget = { ...this.budget, ...changes };
    this.endIdle();
    return previous;
  }

  /** Requests running now (for tests). */
  get runningNow(): number {
    return this.running;
  }

  /** Threads started so far (for tests). */
  get startedSoFar(): number {
    return this.started;
  }

  /** Requests handed to a thread so far (for tests). */
  get requestsSoFar(): number {
    return this.requests;
  }

  /** Threads waiting for a request now (for tests). */
  get idleNow(): number {
    return this.idle.length;
  }

  /** Ends the threads waiting for a request (tests; a process's end does not wait for them). */
  endIdle(): void {
    for (const entry of this.idle.splice(0)) {
      this.unwatch(entry);
      stop(entry.thread);
    }
  }

  /**
   * Runs `request` in a thread once one of the pool's `max` is free (its time budget starts then): an
   * idle one, or a fresh one. Never rejects.
   */
  run(request: Request): Promise<ThreadOutcome<Reply>> {
    return this.slots.runExclusive(async () => {
      this.running++;
      try {
        return await this.runInThread(request);
      } finally {
        this.running--;
      }
    });
  }

  private async runInThread(request: Request): Promise<ThreadOutcome<Reply>> {
    const { timeoutMs, heapMb } = this.budget;
    const begun = Date.now();
    let thread = this.takeIdle();
    if (!thread) {
      try {
        thread = await startThread(this.name, this.source, { resourceLimits: { maxOldGenerationSizeMb: heapMb } });
        this.started++;
      } catch (err) {
        return { answered: false, reason: `its thread could not start: ${(err as Error).message}` };
      }
    }
    this.requests++;
    const worker = thread;
    return new Promise((resolve) => {
      let done = false;
      const finish = (outcome: ThreadOutcome<Reply>, keep: boolean) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (keep) this.keepIdle(worker);
        else stop(worker);
        resolve(outcome);
      };
      const onMessage = (reply: Reply) => finish({ answered: true, reply }, true);
      // Out of heap (ERR_WORKER_OUT_OF_MEMORY) or a crash.
      const onError = (err: Error) => finish({ answered: false, reason: `its thread failed: ${err.message}` }, false);
      const onExit = (code: number) => finish({ answered: false, reason: `its thread exited with ${code}` }, false);
      const timer = setTimeout(
        () => finish({ answered: false, reason: `it took longer than ${timeoutMs} ms` }, false),
        Math.max(0, begun + timeoutMs - Date.now()),
      );
      worker.on('message', onMessage).once('error', onError).once('exit', onExit);
      worker.ref();
      worker.postMessage(request);
    });
  }

  /** An idle thread, no longer idle; none when there is none. */
  private takeIdle(): Worker | undefined {
    const entry = this.idle.pop();
    if (entry) this.unwatch(entry);
    return entry?.thread;
  }

  /** Keeps an answered thread for the next request, for `idleMs`; it keeps no process alive meanwhile. */
  private keepIdle(thread: Worker): void {
    const entry: IdleThread = {
      thread,
      timer: setTimeout(() => {
        if (this.forget(entry)) stop(thread);
      }, this.budget.idleMs).unref(),
      // A thread that fails or dies while idle is not used again.
      gone: () => this.forget(entry),
    };
    thread.unref();
    thread.on('error', entry.gone).on('exit', entry.gone);
    this.idle.push(entry);
  }

  private forget(entry: IdleThread): boolean {
    const i = this.idle.indexOf(entry);
    if (i < 0) return false;
    this.idle.splice(i, 1);
    this.unwatch(entry);
    return true;
  }

  private unwatch({ thread, timer, gone }: IdleThread): void {
    clearTimeout(timer);
    thread.off('error', gone).off('exit', gone);
  }
}

/** Terminates a thread no request waits on: an error it may still report is no one's, and must not throw. */
function stop(thread: Worker): void {
  thread.on('error', () => {});
  void thread.terminate();
}
