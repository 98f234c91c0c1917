// The tracing context manager: a context is active while a function runs synchronously, nested ones
// restore the one outside, and a throw does not leave it set.
import test from 'ava';
import { createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { SyncContextManager } from '../../../src/telemetry/sync-context.js';

const key = createContextKey('test');

test('with() makes a context active for the call alone, nested calls included', (t) => {
  const manager = new SyncContextManager();
  const outer = ROOT_CONTEXT.setValue(key, 'outer');
  const inner = ROOT_CONTEXT.setValue(key, 'inner');
  const seen = manager.with(outer, () => [
    manager.active().getValue(key),
    manager.with(inner, () => manager.active().getValue(key)),
    manager.active().getValue(key),
  ]);
  t.deepEqual(seen, ['outer', 'inner', 'outer']);
  t.is(manager.active(), ROOT_CONTEXT);
  t.throws(() =>
    manager.with(outer, () => {
      throw new Error('boom');
    }),
  );
  t.is(manager.active(), ROOT_CONTEXT);
});

test('a bound function runs in its context wherever it is called', (t) => {
  const manager = new SyncContextManager();
  const bound = manager.bind(ROOT_CONTEXT.setValue(key, 'bound'), () => manager.active().getValue(key));
  t.is(bound(), 'bound');
  t.is(manager.active(), ROOT_CONTEXT);
});
