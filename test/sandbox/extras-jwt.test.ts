/**
 * The connectors' HS256 tokens (jwt.ts): php-jwt's encoding and its checks,
 * in its order and with its messages, which reach callers as `invalid_token`.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JwtError, decodeJwt, encodeJwt } from '../../packages/sandbox/src/namespaces/extras/jwt.ts';

const SECRET = 'test-secret';
const NOW = 1_800_000_000;
const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const signed = (header: unknown, payload: unknown) => {
  const head = `${b64(header)}.${b64(payload)}`;
  return `${head}.${createHmac('sha256', SECRET).update(head).digest('base64url')}`;
};
const failure = (token: string) => {
  try {
    decodeJwt(token, SECRET, NOW);
  } catch (err) {
    expect(err).toBeInstanceOf(JwtError);
    return (err as Error).message;
  }
  return 'no error';
};

describe('connector JWTs', () => {
  it('round-trips the claims, signed with HMAC-SHA256 over the two first segments', () => {
    const claims = {
      iss: 'http://site.example',
      iat: NOW,
      nbf: NOW,
      data: { consumer_id: 'ci_1', consumer_secret: 'ck_1', app_name: '' },
    };
    const token = encodeJwt(claims, SECRET);
    expect(token.split('.')[0]).toBe(b64({ typ: 'JWT', alg: 'HS256' }));
    expect(token).toBe(signed({ typ: 'JWT', alg: 'HS256' }, claims));
    expect(decodeJwt(token, SECRET, NOW)).toEqual(claims);
  });

  it('fails as php-jwt does, check by check', () => {
    const hs = { typ: 'JWT', alg: 'HS256' };
    expect(failure('a.b')).toBe('Wrong number of segments');
    expect(failure(`${b64('{oops')}.${b64({})}.x`)).toBe('Syntax error, malformed JSON');
    expect(failure(`${b64('null')}.${b64({})}.x`)).toBe('Invalid header encoding');
    expect(failure(`${b64(hs)}.${b64('null')}.x`)).toBe('Invalid claims encoding');
    expect(failure(`${b64(hs)}.${b64('"text"')}.x`)).toBe('Payload must be a JSON object');
    expect(failure(signed({ typ: 'JWT' }, {}))).toBe('Empty algorithm');
    expect(failure(signed({ alg: 'none' }, {}))).toBe('Algorithm not supported');
    expect(failure(signed({ alg: 'HS512' }, {}))).toBe('Incorrect key for this algorithm');
    expect(failure(`${signed(hs, {}).slice(0, -2)}xx`)).toBe('Signature verification failed');
    expect(failure(signed(hs, { nbf: NOW + 1 }))).toBe(
      'Cannot handle token with nbf prior to 2027-01-15T08:00:01+0000',
    );
    expect(failure(signed(hs, { iat: NOW + 60 }))).toBe(
      'Cannot handle token with iat prior to 2027-01-15T08:01:00+0000',
    );
    expect(failure(signed(hs, { exp: NOW }))).toBe('Expired token');
    expect(decodeJwt(signed(hs, { nbf: NOW, exp: NOW + 1 }), SECRET, NOW)).toEqual({ nbf: NOW, exp: NOW + 1 });
  });
});
