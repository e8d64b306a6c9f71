/**
 * What a real-calendar tier test needs: the sites the global setup brought up, a REST client for
 * them (calendar-core's acknowledgement header on its routes), and the gateway in front of one.
 */
import { inject } from 'vitest';
import { parseConfig, type ConfigInput } from '../../src/config.ts';
import { startGateway, type Gateway } from '../../src/server.ts';
import { TEC_EEA_HEADER } from '../../src/namespaces/calendar/paths.ts';
import { realSite, type RealSite } from './shapes.ts';

export { type RealSite } from './shapes.ts';

/** Every site of this run, for `describe.each`. */
export function realSites(): RealSite[] {
  return inject('realShapes').map(realSite);
}

export function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

export const adminAuth = (site: RealSite) => basic(site.admin.login, site.admin.appPassword);

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A REST request to the site; `path` starts with the namespace (`/tribe/events/v1/events?…`). */
export async function rest<T = any>(site: RealSite, method: string, path: string, opts: { body?: unknown; auth?: string | null } = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = {};
  if (opts.auth) headers.authorization = opts.auth;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (path.startsWith(`/${site.ns.core}/`)) Object.assign(headers, TEC_EEA_HEADER);
  const res = await fetch(site.restUrl.replace(/\/$/, '') + path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: kept as text */
  }
  return { status: res.status, headers: res.headers, body: body as T };
}

export interface GqlError {
  message: string;
  path?: (string | number)[];
  extensions?: Record<string, any>;
}

export interface GqlResult<T = any> {
  status: number;
  data: T;
  errors?: GqlError[];
}

export interface RealGateway {
  gateway: Gateway;
  gql<T = any>(query: string, variables?: Record<string, unknown>, authorization?: string | null): Promise<GqlResult<T>>;
  close(): Promise<void>;
}

/** The gateway in front of the site, its upstream cache off unless asked (tests compare it with REST). */
export async function startRealGateway(site: RealSite, config: ConfigInput = {}): Promise<RealGateway> {
  const gateway = await startGateway(parseConfig({ port: 0, cache: { ttlSeconds: 0 }, ...config }), site.restUrl);
  return {
    gateway,
    async gql(query, variables, authorization = null) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (authorization) headers.authorization = authorization;
      const res = await fetch(gateway.url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
      const body = (await res.json()) as { data: any; errors?: GqlError[] };
      return { status: res.status, data: body.data, errors: body.errors };
    },
    close: () => gateway.close(),
  };
}

/** Every published event of the site as its legacy list answers (all pages, no date window). */
export async function allPublished(site: RealSite): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const r = await rest(site, 'GET', `/${site.ns.legacy}/events?per_page=50&page=${page}&start_date=2000-01-01&end_date=2100-01-01&status=publish`);
    if (r.status !== 200) throw new Error(`legacy list page ${page}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    out.push(...r.body.events);
    if (page >= r.body.total_pages) return out;
  }
}
