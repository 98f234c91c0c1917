// The helper process that starts the worker's child processes (spawner.ts says why). It holds each child
// it started until that child is gone, so a kill always reaches the process meant, never a reused pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { lowerProcessPriority } from './background-priority.js';
import type { SpawnerReply, SpawnerRequest } from './spawner.js';

const children = new Map<number, ChildProcess>();
// A reply the worker can no longer take is dropped: the worker is gone, and 'disconnect' stops this one.
const send = (reply: SpawnerReply) => process.send?.(reply, () => undefined);

process.on('message', (request: SpawnerRequest) => {
  if (request.type === 'kill') {
    children.get(request.id)?.kill('SIGKILL');
    return;
  }
  const { id, command, args, env, background } = request;
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.set(id, child);
  // Without a pid the spawn failed, and 'error' says why.
  if (child.pid !== undefined) {
    if (background) lowerProcessPriority(child.pid);
    send({ type: 'spawned', id, pid: child.pid });
  }
  child.stdout?.on('data', (data: Buffer) => send({ type: 'stdout', id, data }));
  child.stderr?.on('data', (data: Buffer) => send({ type: 'stderr', id, data }));
  child.on('error', (err: NodeJS.ErrnoException) => send({ type: 'error', id, message: err.message, code: err.code }));
  // 'close' comes after the output's last chunk, and after 'error' where the spawn failed.
  child.on('close', (code, signal) => {
    children.delete(id);
    send({ type: 'close', id, code, signal });
  });
});

// The process that started this one is gone (it exited or was killed), or this one is told to stop with
// it: what was asked for is of no use, and no run it started outlives it.
const stop = () => {
  for (const child of children.values()) child.kill('SIGKILL');
  process.exit(0);
};
process.on('disconnect', stop);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
