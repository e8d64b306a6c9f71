/**
 * What each release of The Events Calendar declares (the `tec` option;
 * docs/sandbox.md "Releases"). The routes are declared once, with the spec's
 * full argument tables (A1/B1 and the field tables), which is what `6.17`
 * serves; an older release is that table minus what it lacks: whole
 * namespaces, and arguments of given endpoints. WordPress drops an argument a
 * route does not declare, so a dropped declaration is a filter or field the
 * release silently ignores.
 *
 * The lists were read from two real sites' root indexes (WordPress 6.1.9 + TEC
 * 5.7.1, WordPress 6.8.12 + TEC 6.15.14); test/sandbox/fixtures/declared-args.json
 * holds them whole, and release-args.test.ts compares the index with it.
 * Data only, importing nothing (options.ts reads it); route-table.ts applies it.
 */
export type Tec = '5.7' | '6.15' | '6.17';

/** Arguments one release does not declare on the endpoints of `route` serving any of `methods`. */
export interface Drop {
  route: string;
  methods: readonly string[];
  args: readonly string[];
}

const LEGACY = '/calendar/events/v1';
const CORE = '/calendar-core/v1';
const WRITE = ['POST', 'PUT', 'PATCH'];
const ITEM = ['GET', 'PUT', 'PATCH', 'DELETE'];

/** The legacy events list of 5.7.1 has none of the start/end bounds, `strict_dates` or `ticketed`. */
const LEGACY_57: readonly Drop[] = [
  {
    route: `${LEGACY}/events`,
    methods: ['GET'],
    args: ['starts_after', 'starts_before', 'ends_after', 'ends_before', 'strict_dates', 'ticketed'],
  },
  // `password` came later: 5.7.1's single-event routes take only the ID (and the write fields).
  { route: `${LEGACY}/events/(?P<id>\\d+)`, methods: ['GET', 'DELETE', ...WRITE], args: ['password'] },
];

/**
 * calendar-core/v1 of 6.15.14: its lists take no location, series, relation,
 * recurrence or virtual filter, its writes no `virtual`/`lat`/`lng`, and its
 * item routes declare no `id` (the URL's capture still reaches the callback).
 */
const CORE_615: readonly Drop[] = [
  {
    route: `${CORE}/events`,
    methods: ['GET'],
    args: [
      'virtual',
      'recurring',
      'in_series',
      'series',
      'related_to',
      'near',
      'geoloc_lat',
      'geoloc_lng',
      'distance',
      'has_geoloc',
    ],
  },
  { route: `${CORE}/events`, methods: ['POST'], args: ['virtual', 'lat', 'lng'] },
  { route: `${CORE}/events/(?P<id>\\d+)`, methods: ITEM, args: ['id', 'virtual', 'lat', 'lng'] },
  { route: `${CORE}/venues`, methods: ['GET'], args: ['near', 'geoloc_lat', 'geoloc_lng', 'distance', 'has_geoloc'] },
  { route: `${CORE}/venues`, methods: ['POST'], args: ['lat', 'lng'] },
  { route: `${CORE}/venues/(?P<id>\\d+)`, methods: ITEM, args: ['id', 'lat', 'lng'] },
  { route: `${CORE}/organizers/(?P<id>\\d+)`, methods: ITEM, args: ['id'] },
];

export const DROPS: Record<Tec, readonly Drop[]> = { '5.7': LEGACY_57, '6.15': CORE_615, '6.17': [] };

/** Namespaces a release does not have: 5.7.1 predates calendar-core and its onboarding wizard. */
export const ABSENT: Record<Tec, readonly string[]> = {
  '5.7': ['calendar-core/v1', 'calendar-core/v2/onboarding'],
  '6.15': [],
  '6.17': [],
};

/** What the site acts as under `tec`, one line (the banner and `--help`). */
export function describeRelease(tec: Tec): string {
  switch (tec) {
    case '5.7':
      return 'WordPress 6.1 + The Events Calendar 5.7.1: the legacy interface only (no calendar-core/v1 or onboarding), its lists without starts_*/ends_*/ticketed/strict_dates';
    case '6.15':
      return 'WordPress 6.8 + The Events Calendar 6.15.14: calendar-core/v1 without location, series, recurrence or virtual filters, query arguments unchecked, term filters ignored, event updates resetting sticky/show_map/show_map_link and ignoring featured: false';
    case '6.17':
      return "The Events Calendar 6.17: the spec's full argument tables, validated";
  }
}
