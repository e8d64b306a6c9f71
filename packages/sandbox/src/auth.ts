/**
 * Users, roles and application passwords (reference/site-upstream.md §5).
 *
 * `Authorization: Basic base64(login-or-email:app password)`; every
 * non-alphanumeric character of the password is stripped before checking, so
 * the spaced form `abcd efgh ...` and the bare form both work. A failed check
 * is a whole-request 401 (`invalid_username`, `invalid_email`,
 * `incorrect_password`), raised before routing, as on WordPress 6.8. WordPress
 * 6.1 instead lets a wrong application password fall through to anonymous
 * (real-site-behaviour.md "Authentication"): the `anonymous` mode.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { RestError } from './errors.ts';

export type Role = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';

export interface User {
  id: number;
  login: string;
  email: string;
  displayName: string;
  role: Role;
}

/** WordPress's default capabilities per role, plus the plugins' own. */
const ROLE_CAPS: Record<Role, string[]> = {
  subscriber: ['read'],
  contributor: ['read', 'edit_posts', 'delete_posts'],
  author: [
    'read',
    'edit_posts',
    'delete_posts',
    'publish_posts',
    'edit_published_posts',
    'delete_published_posts',
    'upload_files',
  ],
  editor: [
    'read',
    'edit_posts',
    'delete_posts',
    'publish_posts',
    'edit_published_posts',
    'delete_published_posts',
    'upload_files',
    'edit_others_posts',
    'delete_others_posts',
    'read_private_posts',
    'edit_private_posts',
    'delete_private_posts',
    'manage_categories',
    'moderate_comments',
    'edit_pages',
    'publish_pages',
  ],
  administrator: [],
};
ROLE_CAPS.administrator = [
  ...ROLE_CAPS.editor,
  'manage_options',
  'list_users',
  'edit_users',
  'create_users',
  'promote_users',
  'activate_plugins',
  'edit_theme_options',
  'manage_network',
  'wpseo_manage_options',
  'wpseo_manage_redirects',
  'export',
];

export function can(user: User | null, cap: string): boolean {
  if (!user) return false;
  return ROLE_CAPS[user.role].includes(cap);
}

/** Strips what WordPress strips before comparing an application password. */
export function normalizeAppPassword(p: string): string {
  return p.replace(/[^a-z0-9]/gi, '');
}

/** Formats 24 characters as WordPress shows them: six groups of four. */
export function formatAppPassword(p: string): string {
  return (
    normalizeAppPassword(p)
      .match(/.{1,4}/g)
      ?.join(' ') ?? ''
  );
}

export function hashPassword(p: string): string {
  return createHash('sha256').update(normalizeAppPassword(p)).digest('hex');
}

export interface Credentials {
  login: string;
  password: string;
}

/** Parses a Basic header; null when absent or not Basic (then the request is anonymous). */
export function parseBasic(header: string | undefined): Credentials | null {
  if (!header) return null;
  const m = /^Basic\s+([A-Za-z0-9/+]*={0,2})\s*$/.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return null;
  return { login: decoded.slice(0, i), password: decoded.slice(i + 1) };
}

export interface UserLookup {
  byLogin(login: string): (User & { passwordHash: string }) | undefined;
  byEmail(email: string): (User & { passwordHash: string }) | undefined;
}

/**
 * What bad credentials do: `error` throws the 401 (WordPress 6.8), `anonymous`
 * makes the caller anonymous (WordPress 6.1, where the failed check leaves no
 * error behind and the request goes on without a user).
 */
export type WrongPasswordMode = 'error' | 'anonymous';

/** Resolves the caller; bad credentials throw the 401 WordPress sends, or (`anonymous`) give null. */
export function authenticate(
  header: string | undefined,
  users: UserLookup,
  wrongPassword: WrongPasswordMode = 'error',
): User | null {
  const creds = parseBasic(header);
  if (!creds) return null;
  const isEmail = creds.login.includes('@');
  const found = isEmail ? users.byEmail(creds.login) : users.byLogin(creds.login);
  if (!found) {
    if (wrongPassword === 'anonymous') return null;
    throw isEmail
      ? new RestError(
          'invalid_email',
          '<strong>Error</strong>: Unknown email address. Check again or try your username.',
          401,
        )
      : new RestError(
          'invalid_username',
          '<strong>Error</strong>: Unknown username. Check again or try your email address.',
          401,
        );
  }
  const given = Buffer.from(hashPassword(creds.password), 'hex');
  const stored = Buffer.from(found.passwordHash, 'hex');
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) {
    if (wrongPassword === 'anonymous') return null;
    throw new RestError('incorrect_password', 'The provided password is an invalid application password.', 401);
  }
  const { passwordHash: _ignored, ...user } = found;
  return user;
}

/**
 * WordPress-like nonces: valid for the user, the action and the current or
 * previous 12-hour tick (wp_verify_nonce). `secret` is per sandbox.
 */
export function createNonce(secret: string, action: string, userId: number, now = Date.now(), tickOffset = 0): string {
  const tick = Math.ceil(now / 1000 / (12 * 3600)) - tickOffset;
  return createHmac('sha256', secret).update(`${tick}|${action}|${userId}`).digest('hex').slice(-12, -2);
}

export function verifyNonce(secret: string, nonce: unknown, action: string, userId: number, now = Date.now()): boolean {
  if (typeof nonce !== 'string' || nonce === '') return false;
  return nonce === createNonce(secret, action, userId, now, 0) || nonce === createNonce(secret, action, userId, now, 1);
}
