// Outbound HTTPS to integrator-supplied URLs (source documents, webhook deliveries). The target was vetted
// by the address guard; here the connection is pinned to the addresses that were checked, so a DNS answer
// that changes between check and connect (rebinding) cannot steer us to an internal host. TLS is still
// verified against the URL's host name. Redirects are never followed: the response is returned as is.
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { CheckedTarget } from './address-guard.js';

export interface PinnedRequest {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Ends the whole exchange, response body included (the caller's total timeout). */
  signal: AbortSignal;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for the socket that answers only with the checked addresses, whatever DNS says now. */
export function pinnedLookup(addresses: CheckedTarget['addresses']) {
  return (_hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const usable = addresses.filter((a) => !options.family || options.family === a.family);
    if (usable.length === 0) {
      callback(Object.assign(new Error('no checked address of the requested family'), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if (options.all) callback(null, usable);
    else callback(null, usable[0]!.address, usable[0]!.family);
  };
}

/** Sends one request to a checked target and resolves with the response head; the body is the caller's to read. */
export function pinnedRequest(target: CheckedTarget, r: PinnedRequest): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(target.url, {
      method: r.method,
      headers: r.headers,
      signal: r.signal,
      lookup: pinnedLookup(target.addresses),
      // A fresh connection per request: a pooled socket could have been opened for another check.
      agent: false,
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end(r.body);
  });
}
