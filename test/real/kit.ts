/**
 * What a real-calendar tier test needs: the sites the global setup brought up, a REST client for
 * them (calendar-core's acknowledgement header on its routes), and the gateway in front of one.
 */
import { inject } from 'vitest';
import type { ConfigInput } from '../../src/config.ts';
import { TEC_EEA_HEADER } from '../../src/namespaces/calendar/paths.ts';
import { basic, rest as wpRest, startWpGateway, type Reply, type WpGateway } from '../wordpress/site.ts';
import { realSite, type RealSite } from './shapes.ts';

export { type RealSite } from './shapes.ts';
export { basic, type GqlResult, type Reply } from '../wordpress/site.ts';

/** Every site of this run, for `describe.each`. */
export function realSites(): RealSite[] {
  return inject('realShapes').map(realSite);
}

export const adminAuth = (site: RealSite) => basic(site.admin.login, site.admin.appPassword);

/** A REST request to the site; `path` starts with the namespace (`/tribe/events/v1/events?…`). */
export function rest<T = any>(
  site: RealSite,
  method: string,
  path: string,
  opts: { body?: unknown; auth?: string | null } = {},
): Promise<Reply<T>> {
  return wpRest<T>(site.restUrl, method, path, {
    ...opts,
    headers: path.startsWith(`/${site.ns.core}/`) ? TEC_EEA_HEADER : {},
  });
}

export type RealGateway = WpGateway;

/** The gateway in front of the site, its upstream cache off unless asked (tests compare it with REST). */
export function startRealGateway(site: RealSite, config: ConfigInput = {}): Promise<RealGateway> {
  return startWpGateway(site, config);
}

/** Every published event of the site as its legacy list answers (all pages, no date window). */
export async function allPublished(site: RealSite): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const r = await rest(
      site,
      'GET',
      `/${site.ns.legacy}/events?per_page=50&page=${page}&start_date=2000-01-01&end_date=2100-01-01&status=publish`,
    );
    if (r.status !== 200)
      throw new Error(`legacy list page ${page}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    out.push(...r.body.events);
    if (page >= r.body.total_pages) return out;
  }
}
