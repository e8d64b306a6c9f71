/**
 * The two automation connectors' connections (calendar-upstream.md §4; TC
 * `Integrations/Connections/Integration_Connections.php`): consumer ID and
 * secret pairs (`ci_…`/`ck_…` hex), stored as HMAC-SHA256 hashes keyed with
 * `tec-automator-<api id>`, each tied to a WordPress user; a per-connector
 * JWT secret; and the access-token checks every connector route shares.
 *
 * Errors here are WP_Error-like values, not exceptions: each route decides
 * whether one becomes a serialised WP_Error body (HTTP 400), a failed
 * permission (`rest_forbidden`), or nothing at all.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { User } from '../../auth.ts';
import { nowIn } from '../../dates.ts';
import type { Clock, Origin, Settings, Storage } from '../../capabilities.ts';
import { JwtError, decodeJwt, encodeJwt } from './jwt.ts';

export interface Connector {
  /** TC's `api_id`, also the HMAC key suffix (`tec-automator-<id>`). */
  id: 'zapier' | 'power-automate';
  name: string;
  namespace: string;
  /** Option listing the connections: `{<hashed consumer id>: {name}}`. */
  keysOption: string;
  /** Prefix of the option holding one connection, followed by its hashed consumer ID. */
  keyPrefix: string;
  /** Option holding the JWT signing secret. */
  secretOption: string;
  /** Prefix of the queue options (transients on a real site). */
  queuePrefix: string;
}

/** Zapier is served as automation-a (TC `Zapier/Api.php`). */
export const ZAPIER: Connector = {
  id: 'zapier',
  name: 'Zapier',
  namespace: 'calendar/automation-a/v1',
  keysOption: 'tec_zapier_api_keys',
  keyPrefix: 'tec_zapier_api_key_',
  secretOption: 'tec_automator_zapier_secret_key',
  queuePrefix: '_tec_zapier_queue_',
};

/** Power Automate is served as automation-b (TC `Power_Automate/Api.php`). */
export const POWER_AUTOMATE: Connector = {
  id: 'power-automate',
  name: 'Power Automate',
  namespace: 'calendar/automation-b/v1',
  keysOption: 'tec_power_automate_connections',
  keyPrefix: 'tec_power_automate_connection_',
  secretOption: 'tec_automator_power_automate_secret_key',
  queuePrefix: '_tec_power_automate_queue_',
};

export const CONNECTORS = [ZAPIER, POWER_AUTOMATE] as const;

/** One stored connection, as `set_api_key_by_id` saves it (ID and secret hashed). */
interface StoredKey {
  consumer_id: string;
  consumer_secret: string;
  has_pair: boolean;
  name: string;
  permissions: string;
  last_access: string;
  user_id: number;
}

/** A WP_Error: code, message and the `status` of its data. */
export interface WpErr {
  code: string;
  message: string;
  status: number;
}

export function isWpErr(v: unknown): v is WpErr {
  return typeof v === 'object' && v !== null && 'code' in v && 'status' in v && 'message' in v;
}

/**
 * A WP_Error used as response data (`new WP_REST_Response($error, 400)`):
 * PHP serialises its public properties, so the body is
 * `{"errors":{code:[msg]},"error_data":{code:{status}}}`.
 */
export function wpErrorBody(e: WpErr): Record<string, unknown> {
  return { errors: { [e.code]: [e.message] }, error_data: { [e.code]: { status: e.status } } };
}

/** `api_hash`: HMAC-SHA256 keyed with `tec-automator-<api id>`. */
export function apiHash(c: Connector, text: string): string {
  return createHmac('sha256', `tec-automator-${c.id}`).update(text).digest('hex');
}

/** The signing secret (`setup_api_secret`); seeded, so present on every seeded site. */
function jwtSecret(site: Storage, c: Connector): string {
  return site.store.option(c.secretOption, '');
}

/** Whether the connector has any connection: queues fill only then (`enable_add_to_queues`). */
export function hasConnections(site: Storage, c: Connector): boolean {
  return Object.keys(site.store.option<Record<string, unknown>>(c.keysOption, {})).length > 0;
}

/** Plain `ci_…` IDs are hashed first; anything else is taken as already hashed (as TC does). */
function hashedId(c: Connector, id: string, prefix: string): string {
  return id.startsWith(prefix) ? apiHash(c, id) : id;
}

function equalHex(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * `load_api_key_by_id` + `is_valid_api_key`: the connection and its user, or
 * the first failing check. On success the connection's last access is recorded.
 */
export function loadKey(
  site: Clock & Storage,
  c: Connector,
  consumerId: unknown,
  consumerSecret: unknown,
  appName = '',
): { user: User; name: string } | WpErr {
  const id = hashedId(c, String(consumerId ?? ''), 'ci_');
  const key = site.store.option<StoredKey | null>(`${c.keyPrefix}${id}`, null);
  if (!key || !id) {
    return {
      code: 'integration_consumer_id_not_found',
      message: 'Consumer ID failed to load, please check the value and try again.',
      status: 400,
    };
  }
  if (!key.consumer_id)
    return {
      code: 'integration_no_consumer_id',
      message: 'Consumer ID is required to authorize your connection.',
      status: 400,
    };
  if (!key.consumer_secret)
    return {
      code: 'integration_no_consumer_secret',
      message: 'Consumer Secret is required to authorize your connection.',
      status: 400,
    };
  // hash_equals on the hashes; a `ck_…` secret is hashed first, anything else compared as given.
  if (!equalHex(key.consumer_secret, hashedId(c, String(consumerSecret ?? ''), 'ck_'))) {
    return { code: 'integration_consumer_secret_no_match', message: 'Consumer Secret does not match.', status: 400 };
  }
  if (!key.name) return { code: 'integration_no_api_key_name', message: 'Account is missing a name.', status: 400 };
  if (!key.permissions)
    return { code: 'integration_no_api_key_permissions', message: 'Account is missing permissions.', status: 400 };
  if (!key.user_id)
    return {
      code: 'integration_no_api_key_user_id',
      message: 'Account is missing a user, please select one and try again..',
      status: 400,
    };
  const user = site.store.userById(key.user_id);
  if (!user)
    return { code: 'integration_no_api_key_user_loading', message: 'Selected user could not be loaded.', status: 400 };
  const at = nowIn(site.now(), site.timezone);
  site.store.setOption(`${c.keyPrefix}${id}`, { ...key, last_access: appName ? `${appName}|${at}` : at });
  return { user, name: key.name };
}

/** The claims the connectors put in a token (`Authorize::get`, `Power_Automate\Api::create_access_token`). */
export interface TokenData {
  consumer_id: string;
  consumer_secret: string;
  app_name: string;
}

/** Mints a token: `iss` is the site URL, `iat` = `nbf` = now, no `exp`. */
export function mintToken(site: Clock & Origin & Storage, c: Connector, data: TokenData): string {
  const now = Math.floor(site.now().getTime() / 1000);
  return encodeJwt({ iss: site.origin, iat: now, nbf: now, data }, jwtSecret(site, c));
}

/**
 * `verify_token`: the token from `access_token` (or `tec_access_token`),
 * decoded and checked. The statuses are the WP_Errors' own (401/403); the
 * routes decide what HTTP status the caller sees.
 */
export function verifyToken(
  site: Clock & Origin & Storage,
  c: Connector,
  params: Record<string, unknown>,
): TokenData | WpErr {
  let token = params.access_token;
  if (!token) token = params.tec_access_token;
  if (!token) return { code: 'missing_access_token', message: 'Missing access token.', status: 401 };
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(String(token), jwtSecret(site, c), Math.floor(site.now().getTime() / 1000));
  } catch (err) {
    if (err instanceof JwtError) return { code: 'invalid_token', message: err.message, status: 403 };
    throw err;
  }
  // PHP's loose `!=` between two strings.
  if (claims.iss !== site.origin)
    return { code: 'bad_issuer', message: 'Access_token issuer does not match with this server.', status: 401 };
  const data = claims.data as Record<string, unknown> | undefined;
  if (
    typeof data !== 'object' ||
    data === null ||
    data.consumer_id === undefined ||
    data.consumer_id === null ||
    data.consumer_secret === undefined ||
    data.consumer_secret === null
  ) {
    return { code: 'bad_request', message: 'Access_token is missing data.', status: 401 };
  }
  return {
    consumer_id: String(data.consumer_id),
    consumer_secret: String(data.consumer_secret),
    app_name: data.app_name ? String(data.app_name) : '',
  };
}

/** `verify_and_load_key`: a valid token whose connection loads. */
export function verifyAndLoad(
  site: Clock & Origin & Storage,
  c: Connector,
  params: Record<string, unknown>,
): { user: User; token: TokenData } | WpErr {
  const token = verifyToken(site, c, params);
  if (isWpErr(token)) return token;
  const loaded = loadKey(site, c, token.consumer_id, token.consumer_secret, token.app_name);
  return isWpErr(loaded) ? loaded : { user: loaded.user, token };
}

// ---- seeding

/** A hex string derived from the seed: the same seed gives the same credentials. */
export function seededHex(seed: number, label: string, hexChars: number): string {
  let out = '';
  for (let i = 0; out.length < hexChars; i++)
    out += createHash('sha256').update(`sitegraph-sandbox:${seed}:${label}:${i}`).digest('hex');
  return out.slice(0, hexChars);
}

/** The connections seeded on a demo site. */
const SEEDED: { connector: Connector; label: string; name: string; login: string; permissions: string }[] = [
  { connector: ZAPIER, label: 'zapier-editor', name: 'Sandbox Zapier', login: 'editor', permissions: 'read_write' },
  { connector: ZAPIER, label: 'zapier-subscriber', name: 'Read-only Zapier', login: 'subscriber', permissions: 'read' },
  {
    connector: POWER_AUTOMATE,
    label: 'power-automate-editor',
    name: 'Sandbox Power Automate',
    login: 'editor',
    permissions: 'read_write',
  },
];

function plainPair(seed: number, label: string): { consumerId: string; consumerSecret: string } {
  // get_random_hash('ci_') / ('ck_'): 20 random bytes as 40 hex characters.
  return {
    consumerId: `ci_${seededHex(seed, `${label}:id`, 40)}`,
    consumerSecret: `ck_${seededHex(seed, `${label}:secret`, 40)}`,
  };
}

/** Stores the seeded connections (hashed) and both signing secrets. */
export function seedConnectors(site: Storage & Settings): void {
  const { store } = site;
  const seed = site.options.seed;
  for (const c of CONNECTORS) store.setOption(c.secretOption, seededHex(seed, `${c.id}:jwt-secret`, 256));
  for (const s of SEEDED) {
    const user = store.userByLogin(s.login);
    if (!user) continue;
    const { consumerId, consumerSecret } = plainPair(seed, s.label);
    const id = apiHash(s.connector, consumerId);
    const key: StoredKey = {
      consumer_id: id,
      consumer_secret: apiHash(s.connector, consumerSecret),
      has_pair: true,
      name: s.name,
      permissions: s.permissions,
      last_access: '-',
      user_id: user.id,
    };
    store.setOption(`${s.connector.keyPrefix}${id}`, key);
    store.setOption(s.connector.keysOption, {
      ...store.option<Record<string, unknown>>(s.connector.keysOption, {}),
      [id]: { name: s.name },
    });
  }
}

export interface ConnectionCredentials {
  name: string;
  /** The login of the user the connection acts as. */
  user: string;
  consumerId: string;
  consumerSecret: string;
  /**
   * Power Automate only: the token the admin screen shows when the connection
   * is saved, minted now for the site's current URL (`iss`).
   */
  accessToken?: string;
}

/**
 * The plain credentials of the seeded connections that exist in this
 * database (only their hashes are stored; the plain values follow from the
 * seed). Empty on a site seeded without demo data or with another seed.
 */
export function connectorCredentials(site: Clock & Origin & Storage & Settings): {
  zapier: ConnectionCredentials[];
  powerAutomate: ConnectionCredentials[];
} {
  const out = { zapier: [] as ConnectionCredentials[], powerAutomate: [] as ConnectionCredentials[] };
  for (const s of SEEDED) {
    const { consumerId, consumerSecret } = plainPair(site.options.seed, s.label);
    if (!site.store.option(`${s.connector.keyPrefix}${apiHash(s.connector, consumerId)}`, null)) continue;
    const entry: ConnectionCredentials = { name: s.name, user: s.login, consumerId, consumerSecret };
    if (s.connector === POWER_AUTOMATE) {
      entry.accessToken = mintToken(site, s.connector, {
        consumer_id: consumerId,
        consumer_secret: consumerSecret,
        app_name: s.name,
      });
      out.powerAutomate.push(entry);
    } else {
      out.zapier.push(entry);
    }
  }
  return out;
}
