// A context manager without asynchronous tracking: `with(context, fn)` makes `context` the active one
// while `fn` runs synchronously, and nothing more. The API's and the workers' spans are parented
// explicitly (a request's span is handed to the calls it makes: api/request-tracing.ts), and Temporal's
// interceptors read the active context synchronously when they start a call's span, so nothing needs a
// context to follow awaits. What that saves: OpenTelemetry's AsyncLocalStorage context manager, entered
// once per request, cost a request 13% on Node 20 (its promise hooks), more than every span it parents.
import { ROOT_CONTEXT, type Context, type ContextManager } from '@opentelemetry/api';

export class SyncContextManager implements ContextManager {
  private current: Context = ROOT_CONTEXT;

  active(): Context {
    return this.current;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    const previous = this.current;
    this.current = context;
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.current = previous;
    }
  }

  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const manager = this;
    return function (this: unknown, ...args: unknown[]) {
      return manager.with(context, () => (target as (...a: unknown[]) => unknown).apply(this, args));
    } as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.current = ROOT_CONTEXT;
    return this;
  }
}
