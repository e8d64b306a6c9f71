/**
 * What a namespace may ask of the site: small capabilities, composed by
 * `Sandbox` (site.ts). Namespaces name these, never the Sandbox class, so
 * the site can import every namespace without the namespaces importing it
 * back (`npm run imports` checks there is no circle). Routing itself
 * (`Dispatcher`, `RouteTable`) lives in rest/ and is handed only to the
 * routes that need it: batch and the indexes.
 *
 * This module imports types only, and nothing that imports a namespace.
 */
import type { EventEmitter } from 'node:events';
import type { SandboxOptions } from './options.ts';
import type { Store } from './store/db.ts';

/** The site's clock and zone: real time, or running from `options.now`. */
export interface Clock {
  readonly timezone: string;
  now(): Date;
}

/** Where the site answers, for links in bodies; set once the server listens. */
export interface Origin {
  /** e.g. `http://127.0.0.1:8080` */
  readonly origin: string;
  /** `http://host:port/wp-json` */
  readonly restRoot: string;
}

/** The database: posts, terms, options, users. */
export interface Storage {
  readonly store: Store;
}

/** The sandbox's parsed options (seed, anchor, batchable, disable, ...). */
export interface Settings {
  readonly options: SandboxOptions;
}

/** The site's secret, derived from the seed: nonces, JWTs, signed tokens. */
export interface Secrets {
  readonly secret: string;
}

/** Events the calendar emits, for the automation feeds. */
export interface SiteEvents {
  'event:saved': [{ id: number; created: boolean; previousStatus?: string }];
  'event:status': [{ id: number; eventStatus: string }];
}

/** The emitter carrying `SiteEvents`, typed so an event and its payload cannot drift apart. */
export interface Events {
  readonly emitter: EventEmitter<SiteEvents>;
}

/** Everything a request handler may use: `RestRequest.site`. */
export type Site = Clock & Origin & Storage & Settings & Secrets & Events;
