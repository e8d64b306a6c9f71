/**
 * Redaction by value (src/plugins/redaction.ts): the secrets a request
 * carries, in the forms a site can echo them, and errors scrubbed whatever
 * their shape.
 */
import { describe, expect, it } from 'vitest';
import { authorizationSecrets, scrubValue } from '../../src/plugins/redaction.ts';
import { redactValues, secretForms } from '../../src/redact.ts';

describe('authorizationSecrets', () => {
  it('knows the header, the Basic token, the pair and the password', () => {
    const pair = 'admin:abcd EFGH 1234';
    const token = Buffer.from(pair).toString('base64');
    expect(authorizationSecrets(`Basic ${token}`)).toEqual([
      `Basic ${token}`,
      token,
      pair,
      Buffer.from(pair).toString('base64'),
      'abcd EFGH 1234',
    ]);
    expect(authorizationSecrets('Bearer xyz.abc.def')).toEqual(['Bearer xyz.abc.def', 'xyz.abc.def']);
    expect(authorizationSecrets(undefined)).toEqual([]);
  });
});

describe('redactValues', () => {
  const forms = secretForms(['gov key/+1', 'abc']);

  it('removes a secret as given, URL-encoded, form-encoded and JSON-escaped', () => {
    expect(redactValues('key gov key/+1 rejected', forms)).toBe('key [REDACTED] rejected');
    expect(redactValues('?x=gov%20key%2F%2B1', forms)).toBe('?x=[REDACTED]');
    expect(redactValues('q=gov+key%2F%2B1', forms)).toBe('q=[REDACTED]');
  });

  it('ignores values too short to be secrets', () => {
    expect(forms).not.toContain('abc');
    expect(redactValues('abcdef', forms)).toBe('abcdef');
  });

  it('still applies the pattern rules', () => {
    expect(redactValues('GET /x?api_key=zzz', [])).toBe('GET /x?api_key=[REDACTED]');
  });
});

describe('scrubValue', () => {
  it('scrubs strings and keys at any depth of plain JSON, leaving other objects alone', () => {
    const forms = secretForms(['s3cr3t-value']);
    const headers = new Map([['a', 'b']]);
    const out = scrubValue(
      { params: { 's3cr3t-value': 'x s3cr3t-value' }, list: [['s3cr3t-value']], http: { headers } },
      forms,
    ) as any;
    expect(out).toEqual({ params: { '[REDACTED]': 'x [REDACTED]' }, list: [['[REDACTED]']], http: { headers } });
    expect(out.http.headers).toBe(headers);
  });
});
