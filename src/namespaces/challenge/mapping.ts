/** Pure mapping of site/v1/challenge: the challenge read, the solution encoded, the verification read. */
import { bool, int, obj, str } from '../../mapping/json.ts';

export interface ChallengeModel {
  algorithm: string;
  challenge: string;
  maxNumber: number | null;
  salt: string;
  signature: string;
  expiresAt: string | null;
  raw: unknown;
}

/** ALTCHA v1 `{algorithm, challenge, maxnumber, salt, signature}`; `salt` may carry `?expires=<unix>`. */
export function challengeOf(body: unknown): ChallengeModel {
  const o = obj(body, 'challenge');
  const salt = str(o.salt) ?? '';
  const exp = /[?&]expires=(\d+)/.exec(salt);
  return {
    algorithm: str(o.algorithm) ?? '',
    challenge: str(o.challenge) ?? '',
    maxNumber: int(o.maxnumber),
    salt,
    signature: str(o.signature) ?? '',
    expiresAt: exp ? new Date(Number(exp[1]) * 1000).toISOString().replace(/\.000Z$/, 'Z') : null,
    raw: body,
  };
}

/** A solution -> ALTCHA's `payload`: base64 of its JSON. */
export function challengePayload(s: {
  algorithm?: string | null;
  challenge: string;
  number: number;
  salt: string;
  signature: string;
}): string {
  const json = JSON.stringify({
    algorithm: s.algorithm ?? 'SHA-256',
    challenge: s.challenge,
    number: s.number,
    salt: s.salt,
    signature: s.signature,
  });
  return Buffer.from(json, 'utf8').toString('base64');
}

export function verificationOf(body: unknown): { verified: boolean; raw: unknown } {
  return { verified: bool(obj(body, 'challenge verification').verified) === true, raw: body };
}
