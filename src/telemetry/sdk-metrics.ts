// The Temporal SDK's own metrics (task slots, poll and schedule-to-start latency, the sticky cache,
// workflow task failures) come from its native core, which serves them in Prometheus's format on an address
// of its own. A worker has it listen on a loopback port no one else is told of and serves its text after
// the application's at /metrics on the operations port: one scrape target per process.
import { createServer } from 'node:net';

/** A port free on the loopback interface now, for the core's exporter to bind next. */
export function loopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The core's metrics text; a comment saying why when it cannot be read (the scrape still answers). */
export async function sdkMetricsText(port: number): Promise<string> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(2_000) });
    if (!res.ok) return `# the Temporal SDK's metrics answered HTTP ${res.status}\n`;
    return await res.text();
  } catch (err) {
    return `# the Temporal SDK's metrics could not be read: ${(err as Error).message.replace(/\s+/g, ' ')}\n`;
  }
}
