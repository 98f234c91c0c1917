// `npm run admin -- <command>`: organizations, API keys, operator holds, and webhook secrets after a key
// rotation. A key is printed once, at creation; only its SHA-256 is stored. Against the local stack it
// finds the database by itself; elsewhere set DATABASE_URL.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfigOrExit } from '../src/config.js';
import { createSql } from '../src/db/client.js';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord } from '../src/db/keys.js';
import { findReviewRecord } from '../src/db/reviews.js';
import { resealSecrets } from '../src/db/webhook-endpoints.js';
import { decryptSecret, encryptSecret } from '../src/webhooks/secret.js';
import { createTemporalClient } from '../src/temporal/connection.js';
import { ReviewWorkflows } from '../api/review-workflow.js';
import {
  createOrganization,
  getOrganization,
  listOrganizations,
  updateOrganizationPolicy,
} from '../src/db/organizations.js';
import { REPO_ROOT } from './stack/stack.js';
import { rolePolicy, SERVICE_USERS, STORAGE_ROLES } from '../src/storage/service-users.js';

const USAGE = `usage: npm run admin -- <command> [options] [--json]
  org create --name <name>                          create an organization
  org list                                          list organizations
  org set <id> [--release-policy auto|hold] [--max-analyses N] [--awaiting-seconds N] [--rate-limit N]
              [--retention-days N|none]             operator settings (a number or "default"); retention:
                                                    reviews deleted N days after they come to rest
  key create --org <id> --mode live|sandbox [--label <text>] [--expires-at <ISO time>]
  key create --unbound [--mode live|sandbox]        a valid key bound to no organization (403 org_unbound)
  key list [--org <id>]                             list keys (prefix, mode, state; never the key)
  key revoke <key id | key prefix>                  revoke a key at once
  review hold <review id>                           hold the review's next release at the release gate
                                                    (for a review whose run has completed: released)
  webhook-secrets reseal [--org <id>]               seal every stored webhook signing secret (or one
                                                    organization's) with the current WEBHOOK_SECRET_KEY
  storage policies                                  the IAM policy of each object-store user of the service
                                                    (api, worker, reports) for S3_BUCKET, for S3 and its IAM`;

class UsageError extends Error {}

/** A numeric setting: undefined leaves it, "default" clears the override, else a positive whole number. */
function setting(raw: string | undefined, flag: string): number | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'default') return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} takes a positive whole number or "default"`);
  return n;
}

/** The retention in days: undefined leaves it, "none" keeps reviews until deleted, else a positive whole number. */
function retention(raw: string | undefined): number | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'none') return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError('--retention-days takes a positive whole number or "none"');
  return n;
}

/** The local stack's database when DATABASE_URL is not given (`npm start` keeps its password in .data/). */
function environment(): NodeJS.ProcessEnv {
  if (process.env.DATABASE_URL) return process.env;
  const secrets = join(process.env.DATA_DIR ?? join(REPO_ROOT, '.data'), 'secrets.json');
  if (!existsSync(secrets)) return process.env;
  const { postgresPassword } = JSON.parse(readFileSync(secrets, 'utf8')) as { postgresPassword: string };
  const port = process.env.POSTGRES_PORT ?? '54320';
  return {
    ...process.env,
    DATABASE_URL: `postgres://review:${encodeURIComponent(postgresPassword)}@127.0.0.1:${port}/review`,
  };
}

function describeKey(k: ApiKeyRecord) {
  const state = k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt <= new Date() ? 'expired' : 'active';
  return {
    id: k.id,
    prefix: k.prefix,
    mode: k.sandbox ? 'sandbox' : 'live',
    organization_id: k.organizationId,
    label: k.label,
    state,
    created_at: k.createdAt.toISOString(),
    expires_at: k.expiresAt?.toISOString() ?? null,
  };
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      org: { type: 'string' },
      mode: { type: 'string' },
      label: { type: 'string' },
      'expires-at': { type: 'string' },
      unbound: { type: 'boolean' },
      'release-policy': { type: 'string' },
      'max-analyses': { type: 'string' },
      'awaiting-seconds': { type: 'string' },
      'rate-limit': { type: 'string' },
      'retention-days': { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [noun, verb, arg] = positionals;
  if (values.help || !noun) {
    console.log(USAGE);
    return;
  }
  const print = (human: string, data: unknown) => console.log(values.json ? JSON.stringify(data) : human);
  const mode = values.mode ?? 'live';
  if (mode !== 'live' && mode !== 'sandbox') throw new UsageError('--mode is live or sandbox');

  const config = loadConfigOrExit(environment());
  if (noun === 'storage' && verb === 'policies') {
    // Needs no database: what to give the users an operator makes in the store's own IAM.
    const policies = Object.fromEntries(
      STORAGE_ROLES.map((role) => [SERVICE_USERS[role], rolePolicy(role, config.minio.bucket)]),
    );
    print(JSON.stringify(policies, null, 2), policies);
    return;
  }
  const sql = createSql(config, { max: 1 });
  try {
    if (noun === 'org' && verb === 'create') {
      if (!values.name) throw new UsageError('org create needs --name');
      const org = await createOrganization(sql, values.name);
      print(`organization ${org.id} "${org.name}"`, { id: org.id, name: org.name });
    } else if (noun === 'org' && verb === 'list') {
      const orgs = await listOrganizations(sql);
      print(
        orgs.map((o) => `${o.id}  ${o.name}`).join('\n') || '(none)',
        orgs.map((o) => ({ id: o.id, name: o.name })),
      );
    } else if (noun === 'org' && verb === 'set') {
      if (!arg || !(await getOrganization(sql, arg).catch(() => undefined)))
        throw new UsageError(`no organization ${arg ?? ''}`.trim());
      const policy = values['release-policy'];
      if (policy !== undefined && policy !== 'auto' && policy !== 'hold')
        throw new UsageError('--release-policy is auto or hold');
      await updateOrganizationPolicy(sql, arg, {
        releasePolicy: policy,
        maxConcurrentAnalyses: setting(values['max-analyses'], '--max-analyses'),
        awaitingDocumentsSeconds: setting(values['awaiting-seconds'], '--awaiting-seconds'),
        rateLimitPerMinute: setting(values['rate-limit'], '--rate-limit'),
        retentionDays: retention(values['retention-days']),
      });
      const org = (await getOrganization(sql, arg))!;
      const shown = {
        id: org.id,
        release_policy: org.releasePolicy,
        max_concurrent_analyses: org.maxConcurrentAnalyses,
        awaiting_documents_seconds: org.awaitingDocumentsSeconds,
        rate_limit_per_minute: org.rateLimitPerMinute,
        retention_days: org.retentionDays,
      };
      print(
        Object.entries(shown)
          .map(([k, v]) => `${k}: ${v ?? (k === 'retention_days' ? 'none (kept until deleted)' : 'default')}`)
          .join('\n'),
        shown,
      );
    } else if (noun === 'key' && verb === 'create') {
      if (!!values.unbound === !!values.org)
        throw new UsageError('key create needs exactly one of --org <id> or --unbound');
      if (values.org && !(await getOrganization(sql, values.org).catch(() => undefined))) {
        throw new UsageError(`no organization ${values.org}`);
      }
      const expiresAt = values['expires-at'] ? new Date(values['expires-at']) : null;
      if (expiresAt && Number.isNaN(expiresAt.getTime())) throw new UsageError('--expires-at must be an ISO 8601 time');
      const { key, record } = await createApiKey(sql, {
        organizationId: values.org ?? null,
        sandbox: mode === 'sandbox',
        label: values.label ?? '',
        expiresAt,
      });
      print(`${key}\n(shown once; id ${record.id}, prefix ${record.prefix}, ${mode})`, { key, ...describeKey(record) });
    } else if (noun === 'key' && verb === 'list') {
      const keys = (await listApiKeys(sql, values.org)).map(describeKey);
      print(
        keys
          .map(
            (k) =>
              `${k.id}  ${k.prefix}…  ${k.mode.padEnd(7)}  ${k.state.padEnd(7)}  org ` +
              `${k.organization_id ?? '(unbound)'}  ${k.label}`,
          )
          .join('\n') || '(none)',
        keys,
      );
    } else if (noun === 'key' && verb === 'revoke') {
      if (!arg) throw new UsageError('key revoke needs a key id or prefix');
      const revoked = await revokeApiKey(sql, arg);
      if (!revoked) throw new UsageError(`no single key matches ${arg}`);
      print(`revoked ${revoked.id} (${revoked.prefix}…)`, describeKey(revoked));
    } else if (noun === 'review' && verb === 'hold') {
      if (!arg || !z.uuid().safeParse(arg).success) throw new UsageError('review hold needs a review id');
      const found = await findReviewRecord(sql, arg);
      if (!found) throw new UsageError(`no review ${arg}`);
      const temporal = createTemporalClient(config);
      try {
        const answer = await new ReviewWorkflows(temporal, config.temporal.taskQueue).hold(
          found.organizationId,
          found.record,
        );
        print(answer, { review_id: arg, answer });
      } finally {
        await temporal.connection.close();
      }
    } else if (noun === 'webhook-secrets' && verb === 'reseal') {
      const { webhookKey, webhookKeysAccepted } = config.secrets;
      const count = await resealSecrets(
        sql,
        (sealed, id) => encryptSecret(decryptSecret(sealed, webhookKeysAccepted, id), webhookKey, id),
        values.org,
      );
      print(`${count} webhook signing secret(s) sealed with the current WEBHOOK_SECRET_KEY`, { resealed: count });
    } else {
      throw new UsageError(`unknown command: ${positionals.join(' ')}`);
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

main(process.argv.slice(2)).catch((err) => {
  if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(`admin: ${(err as Error).message}`);
  process.exit(1);
});
