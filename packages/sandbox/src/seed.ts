/**
 * Deterministic demo data. The same seed and anchor day give the same site,
 * byte for byte: users, terms, 40 venues, 60 organizers, series and 520+
 * events spread over the 12 months either side of the anchor day, in several
 * time zones, with every awkward case among them (all-day, multi-day,
 * featured, sticky, hidden, draft, pending, private, trashed, password-protected,
 * canceled, virtual, several venues, no venue).
 */
import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import { formatAppPassword, hashPassword, type Role } from './auth.ts';
import { SQL, localToUtc } from './dates.ts';
import {
  CATEGORY_TAX,
  SERIES,
  TAG_TAX,
  saveEvent,
  saveOrganizer,
  saveVenue,
  slugify,
  type AttachmentMeta,
} from './calendar/model.ts';
import type { Clock, Events, Secrets, Settings, Storage } from './capabilities.ts';
import { seedNamespaces } from './namespaces/index.ts';

export interface SeededUser {
  id: number;
  login: string;
  email: string;
  role: Role;
  /** Application password, spaced as WordPress shows it. */
  appPassword: string;
}

export { prng } from './prng.ts';
import { prng } from './prng.ts';

const USERS: { login: string; role: Role; name: string }[] = [
  { login: 'admin', role: 'administrator', name: 'Ada Admin' },
  { login: 'editor', role: 'editor', name: 'Eddie Editor' },
  { login: 'author', role: 'author', name: 'Ann Author' },
  { login: 'contributor', role: 'contributor', name: 'Cory Contributor' },
  { login: 'subscriber', role: 'subscriber', name: 'Sam Subscriber' },
];

/** A 24-character application password derived from the seed, for the non-admin users. */
function derivedPassword(seed: number, login: string): string {
  const hex = createHash('sha256')
    .update(`${seed}:${login}:app-password`)
    .digest('base64')
    .replace(/[^a-zA-Z0-9]/g, '');
  return formatAppPassword(hex.slice(0, 24));
}

export function seededUsers(site: Settings): SeededUser[] {
  return USERS.map((u, i) => ({
    id: i + 1,
    login: u.login,
    email: `${u.login}@sandbox.example`,
    role: u.role,
    appPassword: u.login === 'admin' ? site.options.appPassword : derivedPassword(site.options.seed, u.login),
  }));
}

const CITIES: {
  city: string;
  country: string;
  state: string;
  province: string;
  zip: string;
  lat: number;
  lng: number;
  tz: string;
}[] = [
  {
    city: 'New York',
    country: 'United States',
    state: 'NY',
    province: '',
    zip: '10001',
    lat: 40.7128,
    lng: -74.006,
    tz: 'America/New_York',
  },
  {
    city: 'Boston',
    country: 'United States',
    state: 'MA',
    province: '',
    zip: '02108',
    lat: 42.3601,
    lng: -71.0589,
    tz: 'America/New_York',
  },
  {
    city: 'Los Angeles',
    country: 'United States',
    state: 'CA',
    province: '',
    zip: '90012',
    lat: 34.0522,
    lng: -118.2437,
    tz: 'America/Los_Angeles',
  },
  {
    city: 'Paris',
    country: 'France',
    state: '',
    province: 'Île-de-France',
    zip: '75001',
    lat: 48.8566,
    lng: 2.3522,
    tz: 'Europe/Paris',
  },
  {
    city: 'Lyon',
    country: 'France',
    state: '',
    province: 'Auvergne-Rhône-Alpes',
    zip: '69001',
    lat: 45.764,
    lng: 4.8357,
    tz: 'Europe/Paris',
  },
  {
    city: 'Tokyo',
    country: 'Japan',
    state: '',
    province: 'Tokyo',
    zip: '100-0001',
    lat: 35.6762,
    lng: 139.6503,
    tz: 'Asia/Tokyo',
  },
  {
    city: 'Sydney',
    country: 'Australia',
    state: 'NSW',
    province: '',
    zip: '2000',
    lat: -33.8688,
    lng: 151.2093,
    tz: 'Australia/Sydney',
  },
  {
    city: 'London',
    country: 'United Kingdom',
    state: '',
    province: 'England',
    zip: 'EC1A 1BB',
    lat: 51.5074,
    lng: -0.1278,
    tz: 'Europe/London',
  },
  {
    city: 'Reykjavik',
    country: 'Iceland',
    state: '',
    province: '',
    zip: '101',
    lat: 64.1466,
    lng: -21.9426,
    tz: 'UTC',
  },
  {
    city: 'Kolkata',
    country: 'India',
    state: '',
    province: 'West Bengal',
    zip: '700001',
    lat: 22.5726,
    lng: 88.3639,
    tz: 'Asia/Kolkata',
  },
];

const CATEGORY_TREE: [string, string[]][] = [
  ['Music', ['Jazz', 'Rock', 'Classical']],
  ['Talks', ['Technology', 'Science']],
  ['Sports', ['Running', 'Cycling']],
  ['Family', []],
  ['Workshops', ['Pottery']],
  ['Archive', []],
];
const TAGS = [
  'free',
  'outdoor',
  'online',
  'kids',
  'accessible',
  'evening',
  'weekend',
  'members',
  'festival',
  'premiere',
  'charity',
  'unused-tag',
];
const WORDS = [
  'Harbor',
  'Summit',
  'Lantern',
  'Cedar',
  'Aurora',
  'Meridian',
  'Willow',
  'Granite',
  'Ember',
  'Tidal',
  'Orchard',
  'Comet',
  'Velvet',
  'Atlas',
  'Juniper',
];
const KINDS = [
  'Concert',
  'Lecture',
  'Meetup',
  'Workshop',
  'Run',
  'Screening',
  'Fair',
  'Recital',
  'Tour',
  'Hackathon',
  'Tasting',
  'Reading',
];

/** Seeds an empty database; returns the users and their application passwords either way. */
export function seedIfEmpty(site: Clock & Storage & Settings & Secrets & Events): SeededUser[] {
  const users = seededUsers(site);
  const { store } = site;
  if (!store.isEmpty()) {
    // The admin password follows the options even on an existing database.
    store.setUserPassword('admin', hashPassword(site.options.appPassword));
    return users;
  }
  store.transaction(() => {
    for (const u of users) {
      const def = USERS.find((x) => x.login === u.login)!;
      store.insertUser({
        id: u.id,
        login: u.login,
        email: u.email,
        displayName: def.name,
        role: u.role,
        passwordHash: hashPassword(u.appPassword),
      });
    }
    store.setOption('blogname', 'Sitegraph Sandbox');
    store.setOption('blogdescription', 'A WordPress-compatible calendar site for sitegraph');
    if (site.options.demo) {
      seedDemo(site);
      seedNamespaces(site);
    }
  });
  return users;
}

function seedDemo(site: Clock & Storage & Settings & Events): void {
  const { store } = site;
  const rnd = prng(site.options.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const chance = (p: number) => rnd() < p;
  const anchor = site.options.anchor
    ? DateTime.fromISO(site.options.anchor, { zone: 'utc' })
    : DateTime.fromJSDate(site.now(), { zone: 'utc' }).startOf('day');
  const published = (daysAgo: number) => {
    const d = anchor.minus({ days: daysAgo }).set({ hour: 9 }).toFormat(SQL);
    return { date: d, dateGmt: localToUtc(d, site.timezone) };
  };

  // Media: a few images, referenced as featured images.
  const images: number[] = [];
  for (let i = 1; i <= 8; i++) {
    const meta: AttachmentMeta = {
      url: `/wp-content/uploads/demo-${i}.jpg`,
      width: 1200,
      height: 800,
      mime: 'image/jpeg',
      filesize: 120_000 + i * 1000,
    };
    images.push(
      store.insertPost({
        type: 'attachment',
        status: 'inherit',
        title: `Demo image ${i}`,
        slug: `demo-${i}`,
        author: 1,
        ...published(400),
        meta,
      }).id,
    );
  }

  // Terms: categories with parents, tags (one unused, one empty category).
  const categoryIds: number[] = [];
  for (const [parent, children] of CATEGORY_TREE) {
    const p = store.insertTerm({
      taxonomy: CATEGORY_TAX,
      name: parent,
      slug: slugify(parent),
      description: `${parent} events`,
      parent: 0,
    });
    categoryIds.push(p.id);
    for (const c of children) {
      categoryIds.push(
        store.insertTerm({ taxonomy: CATEGORY_TAX, name: c, slug: slugify(c), description: '', parent: p.id }).id,
      );
    }
  }
  const archiveId = store.termBySlug(CATEGORY_TAX, 'archive')!.id;
  const usableCategories = categoryIds.filter((id) => id !== archiveId);
  const tagIds = TAGS.map(
    (t) => store.insertTerm({ taxonomy: TAG_TAX, name: t, slug: t, description: '', parent: 0 }).id,
  );
  const usableTags = tagIds.slice(0, -1);

  // Venues: 40, most with coordinates, some with empty fields.
  const venueIds: number[] = [];
  for (let i = 1; i <= 40; i++) {
    const c = CITIES[i % CITIES.length]!;
    const withGeo = i % 7 !== 0;
    const v = saveVenue(site, null, {
      title: `${pick(WORDS)} ${['Hall', 'Arena', 'Theatre', 'Park', 'Library', 'Loft'][i % 6]} ${i}`,
      content: i % 3 === 0 ? `<p>A venue in ${c.city}.</p>` : '',
      status: i > 38 ? 'draft' : 'publish',
      author: 1,
      ...published(300 + i),
      address: i % 7 === 0 ? '' : `${i} ${pick(WORDS)} Street`,
      city: c.city,
      country: c.country,
      state: c.state,
      province: c.province,
      stateprovince: c.state || c.province,
      zip: i % 4 === 0 ? '' : c.zip,
      phone: i % 2 === 0 ? `+1 555 01${String(i).padStart(2, '0')}` : '',
      website: i % 3 === 0 ? `https://venue-${i}.example` : '',
      showMap: i % 6 !== 0,
      showMapLink: i % 6 !== 0,
      lat: withGeo ? Math.round((c.lat + (rnd() - 0.5) * 0.1) * 1e6) / 1e6 : null,
      lng: withGeo ? Math.round((c.lng + (rnd() - 0.5) * 0.1) * 1e6) / 1e6 : null,
    });
    venueIds.push(v.id);
  }
  const publicVenues = venueIds.slice(0, 38);

  // Organizers: 60.
  const organizerIds: number[] = [];
  for (let i = 1; i <= 60; i++) {
    const o = saveOrganizer(site, null, {
      title: `${pick(WORDS)} ${['Collective', 'Society', 'Club', 'Foundation', 'Guild'][i % 5]} ${i}`,
      content: i % 4 === 0 ? '<p>Organizes things.</p>' : '',
      status: i > 57 ? 'draft' : 'publish',
      author: i % 3 === 0 ? 2 : 1,
      ...published(200 + i),
      phone: i % 2 === 0 ? `+1 555 02${String(i).padStart(2, '0')}` : '',
      website: i % 3 === 0 ? `https://org-${i}.example` : '',
      email: i % 5 === 0 ? '' : `org${i}@example.com`,
    });
    organizerIds.push(o.id);
  }
  const publicOrganizers = organizerIds.slice(0, 57);

  // Series: recurring events grouped under a series post.
  const seriesIds: number[] = [];
  for (let i = 1; i <= 8; i++) {
    const name = `${pick(WORDS)} ${pick(KINDS)} Series`;
    const s = store.insertPost({
      type: SERIES,
      status: i === 8 ? 'draft' : 'publish',
      title: name,
      slug: store.uniqueSlug(SERIES, slugify(name)),
      author: 1,
      content: `<p>${name}: a recurring programme.</p>`,
      ...published(150 + i),
      meta: {},
    });
    seriesIds.push(s.id);
  }

  const zones = [
    'America/New_York',
    'America/New_York',
    'Europe/Paris',
    'Asia/Tokyo',
    'UTC',
    'America/Los_Angeles',
    'Australia/Sydney',
    'Asia/Kolkata',
  ];
  const total = site.options.events;
  for (let i = 1; i <= total; i++) {
    const inSeries = i % 9 === 0 ? seriesIds[(i / 9) % seriesIds.length]! : 0;
    const dayOffset = Math.floor(rnd() * 730) - 365;
    const tz = pick(zones);
    const allDay = i % 17 === 0;
    const multiDay = i % 23 === 0;
    const hour = 8 + Math.floor(rnd() * 13);
    const startDt = anchor.plus({ days: dayOffset }).set({ hour, minute: [0, 15, 30, 45][i % 4]! });
    const lengthHours = multiDay ? 24 * (1 + (i % 3)) + 2 : 1 + (i % 4);
    const start = startDt.toFormat(SQL);
    const end = startDt.plus({ hours: lengthHours }).toFormat(SQL);
    const status =
      i % 41 === 0
        ? 'draft'
        : i % 53 === 0
          ? 'pending'
          : i % 59 === 0
            ? 'private'
            : i % 61 === 0
              ? 'trash'
              : i % 97 === 0
                ? 'future'
                : 'publish';
    const venueCount = i % 13 === 0 ? 0 : i % 29 === 0 ? 2 : 1;
    const vIds = Array.from({ length: venueCount }, (_, k) => publicVenues[(i * 7 + k * 11) % publicVenues.length]!);
    const oCount = i % 11 === 0 ? 0 : 1 + (i % 3);
    const oIds = Array.from(
      { length: oCount },
      (_, k) => publicOrganizers[(i * 5 + k * 13) % publicOrganizers.length]!,
    );
    const cats = [pick(usableCategories), ...(i % 4 === 0 ? [pick(usableCategories)] : [])];
    const tags = Array.from({ length: i % 4 }, () => pick(usableTags));
    const costKind = i % 6;
    const title = `${pick(WORDS)} ${pick(KINDS)} ${i}`;
    const ev = saveEvent(site, null, {
      title,
      content: `<p>${title}: event number ${i}.</p>`,
      excerpt: i % 5 === 0 ? `<p>Short summary of ${title}.</p>` : '',
      status: status === 'trash' ? 'publish' : status,
      author: [1, 2, 3, 1, 2][i % 5]!,
      ...published(30 + (i % 200)),
      password: i % 67 === 0 ? 'letmein' : '',
      featuredMedia: i % 8 === 0 ? images[i % images.length]! : 0,
      startDate: allDay ? `${start.slice(0, 10)} 00:00:00` : start,
      endDate: allDay ? `${(multiDay ? end : start).slice(0, 10)} 23:59:59` : end,
      timezone: tz,
      allDay,
      cost: costKind === 0 ? 'Free' : costKind === 1 ? '' : costKind === 5 ? '10-25' : String(5 * costKind),
      currencySymbol: tz === 'Europe/Paris' ? '€' : '$',
      currencyCode: tz === 'Europe/Paris' ? 'EUR' : 'USD',
      currencyPosition: tz === 'Europe/Paris' ? 'suffix' : 'prefix',
      website: i % 3 === 0 ? `https://events.example/e/${i}` : '',
      showMap: i % 10 !== 0,
      showMapLink: i % 10 !== 0,
      hideFromListings: i % 37 === 0,
      featured: i % 7 === 0,
      sticky: i % 31 === 0,
      venueIds: vIds,
      organizerIds: oIds,
      seriesId: inSeries,
      virtual: i % 19 === 0,
      ticketed: i % 12 === 0,
      eventStatus: i % 43 === 0 ? 'canceled' : i % 47 === 0 ? 'postponed' : 'scheduled',
      categoryIds: [...new Set(cats)],
      tagIds: [...new Set(tags)],
      commentStatus: i % 2 === 0 ? 'open' : 'closed',
      format: 'standard',
    });
    if (status === 'trash') store.updatePost(ev.id, { status: 'trash', meta: { trashedFrom: 'publish' } });
  }
}
