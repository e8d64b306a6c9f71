/**
 * `site/v1/challenge`: an ALTCHA v1 challenge (GET), solved here by brute
 * force as the widget does, and verified (POST) once; tampered, expired,
 * replayed and garbled solutions (reference/other-upstream.md §4).
 */
import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const ROUTE = '/site/v1/challenge';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const encode = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64');

interface Challenge {
  algorithm: string;
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
}

/** What the ALTCHA widget does: try every number up to maxnumber. */
function solve(c: Challenge): number {
  for (let n = 0; n <= c.maxnumber; n++) if (sha256(`${c.salt}${n}`) === c.challenge) return n;
  throw new Error('unsolvable challenge');
}

describe('site/v1/challenge', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  const fresh = async () => (await api.get(ROUTE)).body as Challenge;
  const verify = (payload: unknown) => api.send('POST', ROUTE, { payload });

  beforeAll(async () => {
    sb = await testSandbox({ events: 0 });
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  it('answers an ALTCHA v1 challenge that nobody may cache, signed with the site key', async () => {
    const r = await api.get(ROUTE);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-cache, no-store, max-age=0');
    const c = r.body as Challenge;
    expect(Object.keys(c)).toEqual(['algorithm', 'challenge', 'maxnumber', 'salt', 'signature']);
    expect(c.algorithm).toBe('SHA-256');
    expect(c.maxnumber).toBe(20000);
    expect(c.challenge).toMatch(/^[0-9a-f]{64}$/);
    const m = /^[0-9a-f]{24}\?expires=(\d+)$/.exec(c.salt)!;
    expect(Number(m[1]) - Date.now() / 1000).toBeGreaterThan(1100);
    expect(Number(m[1]) - Date.now() / 1000).toBeLessThanOrEqual(1200);
    const key = sb.site.store.option<string>('site_challenge_hmac_key', '');
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(c.signature).toBe(createHmac('sha256', key).update(c.challenge).digest('hex'));
    expect((await fresh()).challenge).not.toBe(c.challenge);
  });

  it('verifies a solved challenge once; a replay is refused', async () => {
    const c = await fresh();
    const number = solve(c);
    const payload = encode({
      algorithm: c.algorithm,
      challenge: c.challenge,
      number,
      salt: c.salt,
      signature: c.signature,
    });
    const r = await verify(payload);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ verified: true });
    expect((await verify(payload)).body).toEqual({ verified: false });
  });

  it('accepts a form-encoded payload too', async () => {
    const c = await fresh();
    const payload = encode({ ...c, number: solve(c), maxnumber: undefined });
    const res = await fetch(`${sb.url}site/v1/challenge`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ payload }).toString(),
    });
    expect(await res.json()).toEqual({ verified: true });
  });

  it.each([
    ['a wrong number', (c: Challenge, n: number) => ({ ...c, number: n + 1 })],
    [
      'a forged signature',
      (c: Challenge, n: number) => ({
        ...c,
        number: n,
        signature: createHmac('sha256', 'guess').update(c.challenge).digest('hex'),
      }),
    ],
    ['another algorithm', (c: Challenge, n: number) => ({ ...c, number: n, algorithm: 'SHA-1' })],
    [
      'a salt with a later expiry',
      (c: Challenge, n: number) => ({ ...c, number: n, salt: c.salt.replace(/expires=\d+/, 'expires=9999999999') }),
    ],
  ])('answers verified false for %s', async (_what, tamper) => {
    const c = await fresh();
    const r = await verify(encode(tamper(c, solve(c))));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ verified: false });
  });

  it('answers verified false for an expired challenge, even correctly signed', async () => {
    const key = sb.site.store.option<string>('site_challenge_hmac_key', '');
    const salt = `abcdef?expires=${Math.floor(Date.now() / 1000) - 10}`;
    const challenge = sha256(`${salt}42`);
    const signature = createHmac('sha256', key).update(challenge).digest('hex');
    expect((await verify(encode({ algorithm: 'SHA-256', challenge, number: 42, salt, signature }))).body).toEqual({
      verified: false,
    });
    // The same, unexpired, verifies: only the expiry differed.
    const ok = `abcdef?expires=${Math.floor(Date.now() / 1000) + 60}`;
    const ch = sha256(`${ok}42`);
    expect(
      (
        await verify(
          encode({
            algorithm: 'SHA-256',
            challenge: ch,
            number: 42,
            salt: ok,
            signature: createHmac('sha256', key).update(ch).digest('hex'),
          }),
        )
      ).body,
    ).toEqual({ verified: true });
  });

  it('needs a payload', async () => {
    const r = await api.send('POST', ROUTE, {});
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): payload',
      data: { status: 400, params: ['payload'] },
    });
  });

  it.each([
    ['not base64', '%%%'],
    ['base64 of text', Buffer.from('hello').toString('base64')],
    ['a JSON array', encode([1, 2])],
    ['a solution without number', encode({ algorithm: 'SHA-256', challenge: 'a', salt: 'b', signature: 'c' })],
    ['a non-integer number', encode({ algorithm: 'SHA-256', challenge: 'a', salt: 'b', signature: 'c', number: '7' })],
    ['a number instead of a string', 12345],
  ])('refuses %s with 400 rest_invalid_param', async (_what, payload) => {
    const r = await verify(payload);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('rest_invalid_param');
    expect(['site_challenge_invalid_payload', 'rest_invalid_type']).toContain(r.body.data.details.payload.code);
  });
});
