/**
 * `GET|POST /site/v1/challenge`: form protection by proof of work
 * (other-upstream.md §4 [U], closest match ALTCHA).
 *
 * GET answers an ALTCHA v1 challenge, `Cache-Control: no-cache, no-store,
 * max-age=0`: `{algorithm: "SHA-256", challenge, maxnumber, salt, signature}`
 * where `salt` is `<hex>?expires=<unix seconds>`, `challenge` is
 * `sha256_hex(salt + number)` for a secret number in [0, maxnumber], and
 * `signature` is `hmac_sha256_hex(key, challenge)`. The key is the
 * `site_challenge_hmac_key` option (derived from the sandbox secret when unset).
 *
 * POST verifies a solution: `payload` is base64 of the JSON
 * `{algorithm, challenge, number, salt, signature}` the widget sends. The
 * answer is `{verified: bool}`; a payload that is not base64 JSON of that
 * shape is 400 `rest_invalid_param`. A solution verifies once: it is then
 * spent until it expires (replays answer `verified: false`).
 */
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { RestError } from '../../errors.ts';
import { RestResult, type RestRequest, type RouteDecl } from '../../rest/types.ts';
import type { Clock, Secrets, Storage } from '../../capabilities.ts';
import { OPTIONS, derivedKey } from './seed.ts';

const NS = 'site/v1';
/** ALTCHA's "medium" complexity. */
export const DEFAULT_MAXNUMBER = 20_000;
/** How long a challenge may be solved and verified, in seconds. */
export const CHALLENGE_TTL = 1200;

export interface Solution {
  algorithm: string;
  challenge: string;
  number: number;
  salt: string;
  signature: string;
}

function hmacKey(site: Storage & Secrets): string {
  return site.store.option<string>(OPTIONS.challengeKey, '') || derivedKey(site, 'site-challenge-hmac-key', 64);
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const sign = (site: Storage & Secrets, challenge: string) =>
  createHmac('sha256', hmacKey(site)).update(challenge).digest('hex');

function createChallenge(req: RestRequest): RestResult {
  const { site } = req;
  const maxnumber = site.store.option<number>(OPTIONS.challengeMaxNumber, DEFAULT_MAXNUMBER);
  const expires = Math.floor(site.now().getTime() / 1000) + CHALLENGE_TTL;
  const salt = `${randomBytes(12).toString('hex')}?expires=${expires}`;
  const challenge = sha256(`${salt}${randomInt(0, maxnumber + 1)}`);
  return new RestResult({ algorithm: 'SHA-256', challenge, maxnumber, salt, signature: sign(site, challenge) }, 200, {
    'Cache-Control': 'no-cache, no-store, max-age=0',
  });
}

/** The decoded payload, or null when it is not base64 JSON of a solution's shape. */
export function decodePayload(v: unknown): Solution | null {
  if (typeof v !== 'string' || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(v.trim())) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(v.trim(), 'base64').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const s = parsed as Record<string, unknown>;
  const { algorithm, challenge, salt, signature, number } = s;
  if (
    typeof algorithm !== 'string' ||
    typeof challenge !== 'string' ||
    typeof salt !== 'string' ||
    typeof signature !== 'string'
  )
    return null;
  if (typeof number !== 'number' || !Number.isInteger(number)) return null;
  return { ...s, algorithm, challenge, salt, signature, number } as Solution;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** altcha-lib verifySolution, plus single use. */
function verify(site: Clock & Storage & Secrets, s: Solution): boolean {
  const now = Math.floor(site.now().getTime() / 1000);
  const expires = Number(new URLSearchParams(s.salt.split('?')[1] ?? '').get('expires'));
  if (!expires || expires < now) return false;
  if (s.algorithm !== 'SHA-256') return false;
  if (!same(sha256(`${s.salt}${s.number}`), s.challenge)) return false;
  if (!same(sign(site, s.challenge), s.signature)) return false;
  const db = site.store.db;
  db.prepare('DELETE FROM challenge_spent WHERE expires < ?').run(now);
  return (
    db.prepare('INSERT OR IGNORE INTO challenge_spent (signature, expires) VALUES (?, ?)').run(s.signature, expires)
      .changes === 1
  );
}

export function challengeRoutes(): RouteDecl[] {
  return [
    {
      namespace: NS,
      path: `/${NS}/challenge`,
      endpoints: [
        {
          methods: ['GET'],
          summary: 'A new proof-of-work challenge (ALTCHA v1)',
          args: {},
          permission: () => true,
          handler: createChallenge,
        },
        {
          methods: ['POST'],
          summary: 'Verify a solved challenge',
          args: {
            payload: {
              type: 'string',
              required: true,
              description: 'Base64 of the JSON solution {algorithm, challenge, number, salt, signature}.',
              validate: (v) =>
                decodePayload(v) !== null ||
                new RestError(
                  'site_challenge_invalid_payload',
                  'The payload is not a base64-encoded challenge solution.',
                  400,
                ),
            },
          },
          permission: () => true,
          handler: (req) => ({ verified: verify(req.site, decodePayload(req.params.payload)!) }),
        },
      ],
    },
  ];
}
