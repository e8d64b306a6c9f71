/**
 * The real-calendar tier's site shapes: which are run (SITEGRAPH_REAL_SHAPES), where each lives, and
 * what start.sh and the seeder wrote of it (site.json).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The real plugins' tarballs (their README: ../shared/wp-plugins beside the clone). */
export const PLUGINS_DIR = resolve(process.env.SITEGRAPH_WP_PLUGINS ?? join(ROOT, '..', 'shared', 'wp-plugins'));

export type Shape = 'tec57' | 'tec615';
export type Names = 'plugin' | 'spec';
export interface ShapeKey {
  shape: Shape;
  names: Names;
}

const ALL: ShapeKey[] = [
  { shape: 'tec57', names: 'plugin' },
  { shape: 'tec57', names: 'spec' },
  { shape: 'tec615', names: 'plugin' },
  { shape: 'tec615', names: 'spec' },
];

/**
 * Whether the shape's site also runs WPGraphQL 1.8.6, WPGraphQL Yoast SEO 4.18.1 and ql-events 0.1.0
 * (start.sh's SITEGRAPH_WP_WPGRAPHQL=1), for test/real/wpgraphql.test.ts: tec57 under the plugins' names,
 * the site the reference queries were recorded on. The plugins add no REST route, so the shape's other
 * files see the same REST API; WPGraphQL answers at the site's own /graphql.
 */
export const hasWpGraphql = (key: ShapeKey): boolean => key.shape === 'tec57' && key.names === 'plugin';

/** `SITEGRAPH_REAL_SHAPES=tec57:plugin,tec615:spec` (a shape alone means both name sets). */
export function realShapes(spec = process.env.SITEGRAPH_REAL_SHAPES): ShapeKey[] {
  if (!spec) return ALL;
  const keys = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .flatMap((s): ShapeKey[] => {
      const [shape, names] = s.split(':');
      if (shape !== 'tec57' && shape !== 'tec615')
        throw new Error(`SITEGRAPH_REAL_SHAPES: unknown shape '${shape}' (tec57, tec615)`);
      if (names === undefined)
        return [
          { shape, names: 'plugin' },
          { shape, names: 'spec' },
        ];
      if (names !== 'plugin' && names !== 'spec')
        throw new Error(`SITEGRAPH_REAL_SHAPES: unknown names '${names}' (plugin, spec)`);
      return [{ shape, names }];
    });
  return keys;
}

/** Where the sites live: SITEGRAPH_REAL_DIR, default .wordpress-real/ in the clone (gitignored). */
export function shapeDir(key: ShapeKey): string {
  return join(resolve(process.env.SITEGRAPH_REAL_DIR ?? join(ROOT, '.wordpress-real')), `${key.shape}-${key.names}`);
}

export interface CalendarSeed {
  firstDay: number;
  venues: number[];
  organizers: number[];
  categories: { music: number; jazz: number; rock: number; sports: number; family: number };
  tags: number[];
  events: number[];
  multiDay: number;
  allDay: number;
  noOrganizer: number[];
  noVenue: number[];
  drafts: number[];
  pending: number;
}

export interface RealSite {
  key: ShapeKey;
  /** `tec57 (plugin names)` */
  label: string;
  origin: string;
  restUrl: string;
  wpVersion: string;
  plugins: Record<string, string>;
  admin: { id: number; login: string; appPassword: string };
  calendar: CalendarSeed;
  /** The REST prefixes this site serves the calendar, SEO and core under. */
  ns: { legacy: string; core: string; seo: string; wp: string };
}

export function realSite(key: ShapeKey): RealSite {
  const json = JSON.parse(readFileSync(join(shapeDir(key), 'site.json'), 'utf8')) as Omit<
    RealSite,
    'key' | 'label' | 'ns'
  >;
  const spec = key.names === 'spec';
  return {
    ...json,
    key,
    label: `${key.shape} (${key.names} names)`,
    ns: spec
      ? { legacy: 'calendar/events/v1', core: 'calendar-core/v1', seo: 'seo/v1', wp: 'core/v2' }
      : { legacy: 'tribe/events/v1', core: 'tec/v1', seo: 'yoast/v1', wp: 'wp/v2' },
  };
}
