/**
 * Every write is verified (issue 18, failures 4-7; docs/writes.md): on each
 * release the sandbox acts as (TEC 5.7, legacy only; TEC 6.15; TEC 6.15 under
 * the plugins' own names), every writable field of an event, a venue and an
 * organizer is updated alone, through the gateway, on an object with every
 * field set. Then the object as stored (the sandbox's own rows: whatever an
 * interface shows or hides) must differ from before in that field only, with
 * the value asked, or the mutation must have failed naming the field and left
 * the object as it was. Nothing the caller did not set may change.
 *
 * The resets behind it (docs/sandbox.md "Write resets"): the legacy update
 * resets what it omits, the publication date included; 6.15's calendar-core
 * PATCH sets an omitted `sticky` to false and `show_map`/`show_map_link` to
 * true, and ignores `featured: false`; 6.15 declares `tribe_events_cat` under
 * the plugins' names, and neither `virtual` nor a venue's `lat`/`lng`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxOptionsInput } from '../../packages/sandbox/src/options.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { restClient, TEC_EEA, type RestClient } from '../helpers/sandbox.ts';

type Kind = 'events' | 'venues' | 'organizers';
interface Shape {
  shape: string;
  sandbox: SandboxOptionsInput;
  core: boolean;
  plugin: boolean;
}

const SHAPES: Shape[] = [
  { shape: 'TEC 5.7 (legacy only)', sandbox: { tec: '5.7' }, core: false, plugin: false },
  { shape: 'TEC 6.15', sandbox: { tec: '6.15' }, core: true, plugin: false },
  { shape: "TEC 6.15 under the plugins' names", sandbox: { tec: '6.15', names: 'plugin' }, core: true, plugin: true },
];

/** The stored object, as the sandbox keeps it: post fields, meta, terms (no modification times). */
type Snap = Record<string, unknown>;

interface Refs {
  venues: number[];
  organizers: number[];
  categories: number[];
  tags: number[];
  images: number[];
  editor: number;
}

interface Case {
  field: string;
  input: (r: Refs, id: number) => Record<string, unknown>;
  /** The stored values the update must leave (keys of the snapshot). */
  change: (r: Refs, id: number) => Snap;
  /** Keys that follow from the change by design (derived dates, created objects). */
  also?: string[];
  /** Only where the site has calendar-core (a core-only field): elsewhere refused naming the field. */
  core?: boolean;
  /** Not declared by any route of 6.15.14: refused with WRITE_NOT_APPLIED (UNDECLARED) there. */
  undeclared615?: boolean;
}

const POST_CASES: Case[] = [
  { field: 'title', input: () => ({ title: 'Renamed' }), change: () => ({ title: 'Renamed' }) },
  {
    field: 'description',
    input: () => ({ description: '<p>New body</p>' }),
    change: () => ({ content: '<p>New body</p>' }),
  },
  { field: 'status', input: () => ({ status: 'DRAFT' }), change: () => ({ status: 'draft' }) },
  { field: 'authorId', input: (r) => ({ authorId: r.editor }), change: (r) => ({ author: r.editor }) },
  {
    field: 'publishedAt',
    input: () => ({ publishedAt: '2025-12-01T15:00:00Z' }),
    change: () => ({ dateGmt: '2025-12-01 15:00:00', date: '2025-12-01 10:00:00' }),
  },
  {
    field: 'featuredImageId',
    input: (r) => ({ featuredImageId: r.images[1] }),
    change: (r) => ({ featuredMedia: r.images[1] }),
  },
  {
    field: 'featuredImageUrl',
    input: () => ({ featuredImageUrl: 'https://example.org/other.jpg' }),
    change: () => ({}),
    also: ['featuredMedia'],
  },
];

const CORE_POST_CASES: Case[] = [
  {
    field: 'excerpt',
    input: () => ({ excerpt: 'New excerpt' }),
    change: () => ({ excerpt: 'New excerpt' }),
    core: true,
  },
  {
    field: 'slug',
    input: (_r, id) => ({ slug: `renamed-${id}` }),
    change: (_r, id) => ({ slug: `renamed-${id}` }),
    core: true,
  },
  { field: 'tagIds', input: (r) => ({ tagIds: [r.tags[1]] }), change: (r) => ({ tags: [r.tags[1]] }), core: true },
];

const EVENT_CASES: Case[] = [
  ...POST_CASES,
  { field: 'excerpt', input: () => ({ excerpt: 'New excerpt' }), change: () => ({ excerpt: 'New excerpt' }) },
  { field: 'slug', input: (_r, id) => ({ slug: `renamed-${id}` }), change: (_r, id) => ({ slug: `renamed-${id}` }) },
  {
    field: 'startDate',
    input: () => ({ startDate: '2024-03-10T09:30:00+01:00' }),
    change: () => ({ startDate: '2024-03-10 09:30:00', startDateUtc: '2024-03-10 08:30:00' }),
    also: ['storedDuration'],
  },
  {
    field: 'endDate',
    input: () => ({ endDate: '2024-03-10T13:00:00+01:00' }),
    change: () => ({ endDate: '2024-03-10 13:00:00', endDateUtc: '2024-03-10 12:00:00' }),
    also: ['storedDuration'],
  },
  {
    field: 'startDate and endDate',
    input: () => ({ startDate: '2024-03-11T08:00:00+01:00', endDate: '2024-03-11T09:00:00+01:00' }),
    change: () => ({
      startDate: '2024-03-11 08:00:00',
      endDate: '2024-03-11 09:00:00',
      startDateUtc: '2024-03-11 07:00:00',
      endDateUtc: '2024-03-11 08:00:00',
    }),
    also: ['storedDuration'],
  },
  // A new zone keeps the wall-clock times.
  {
    field: 'timezone',
    input: () => ({ timezone: 'Asia/Tokyo' }),
    change: () => ({ timezone: 'Asia/Tokyo', startDateUtc: '2024-03-10 01:00:00', endDateUtc: '2024-03-10 03:00:00' }),
    also: ['storedDuration'],
  },
  {
    field: 'allDay',
    input: () => ({ allDay: true }),
    change: () => ({ allDay: true }),
    also: ['startDate', 'endDate', 'startDateUtc', 'endDateUtc', 'storedDuration'],
  },
  {
    field: 'duration',
    input: () => ({ duration: 5400 }),
    change: () => ({ endDate: '2024-03-10 11:30:00', endDateUtc: '2024-03-10 10:30:00' }),
    also: ['storedDuration'],
    core: true,
  },
  { field: 'cost', input: () => ({ cost: '$20' }), change: () => ({ cost: '20' }) },
  {
    field: 'website',
    input: () => ({ website: 'https://example.org/moved' }),
    change: () => ({ website: 'https://example.org/moved' }),
  },
  { field: 'showMap', input: () => ({ showMap: true }), change: () => ({ showMap: true }) },
  { field: 'showMapLink', input: () => ({ showMapLink: true }), change: () => ({ showMapLink: true }) },
  {
    field: 'hideFromListings',
    input: () => ({ hideFromListings: false }),
    change: () => ({ hideFromListings: false }),
  },
  { field: 'sticky', input: () => ({ sticky: false }), change: () => ({ menuOrder: 0 }) },
  { field: 'featured', input: () => ({ featured: false }), change: () => ({ featured: false }) },
  {
    field: 'virtual',
    input: () => ({ virtual: false }),
    change: () => ({ virtual: false }),
    core: true,
    undeclared615: true,
  },
  {
    field: 'commentStatus',
    input: () => ({ commentStatus: 'OPEN' }),
    change: () => ({ commentStatus: 'open' }),
    core: true,
  },
  { field: 'pingStatus', input: () => ({ pingStatus: 'OPEN' }), change: () => ({ pingStatus: 'open' }), core: true },
  { field: 'format', input: () => ({ format: 'STANDARD' }), change: () => ({ format: 'standard' }), core: true },
  {
    field: 'template',
    input: () => ({ template: 'other.php' }),
    change: () => ({ template: 'other.php' }),
    core: true,
  },
  {
    field: 'categoryIds',
    input: (r) => ({ categoryIds: [r.categories[1]] }),
    change: (r) => ({ categories: [r.categories[1]] }),
  },
  { field: 'tagIds', input: (r) => ({ tagIds: [r.tags[1]] }), change: (r) => ({ tags: [r.tags[1]] }) },
  { field: 'venueIds', input: (r) => ({ venueIds: [r.venues[1]] }), change: (r) => ({ venueIds: [r.venues[1]] }) },
  {
    field: 'organizerIds',
    input: (r) => ({ organizerIds: [r.organizers[1]] }),
    change: (r) => ({ organizerIds: [r.organizers[1]] }),
  },
  {
    field: 'venue',
    input: () => ({ venue: { title: 'Inline Hall', city: 'Nantes' } }),
    change: () => ({}),
    also: ['venueIds'],
  },
  {
    field: 'organizers',
    input: () => ({ organizers: [{ title: 'Inline Org' }] }),
    change: () => ({}),
    also: ['organizerIds'],
  },
];

const VENUE_CASES: Case[] = [
  ...POST_CASES,
  ...CORE_POST_CASES,
  ...(['address', 'city', 'country', 'province', 'state', 'zip', 'phone'] as const).map((f): Case => ({
    field: f,
    input: () => ({ [f]: `New ${f}` }),
    change: () => ({ [f]: `New ${f}` }),
  })),
  { field: 'stateProvince', input: () => ({ stateProvince: 'New SP' }), change: () => ({ stateprovince: 'New SP' }) },
  {
    field: 'website',
    input: () => ({ website: 'https://example.org/venue-moved' }),
    change: () => ({ website: 'https://example.org/venue-moved' }),
  },
  { field: 'showMap', input: () => ({ showMap: true }), change: () => ({ showMap: true }) },
  { field: 'showMapLink', input: () => ({ showMapLink: true }), change: () => ({ showMapLink: true }) },
  {
    field: 'latitude',
    input: () => ({ latitude: 45.5 }),
    change: () => ({ lat: 45.5 }),
    core: true,
    undeclared615: true,
  },
  {
    field: 'longitude',
    input: () => ({ longitude: 4.5 }),
    change: () => ({ lng: 4.5 }),
    core: true,
    undeclared615: true,
  },
];

const ORGANIZER_CASES: Case[] = [
  ...POST_CASES,
  ...CORE_POST_CASES,
  { field: 'phone', input: () => ({ phone: '+33 4 00 00 00 00' }), change: () => ({ phone: '+33 4 00 00 00 00' }) },
  {
    field: 'website',
    input: () => ({ website: 'https://example.org/org-moved' }),
    change: () => ({ website: 'https://example.org/org-moved' }),
  },
  { field: 'email', input: () => ({ email: 'moved@example.org' }), change: () => ({ email: 'moved@example.org' }) },
];

const KINDS: { kind: Kind; Type: string; cases: Case[] }[] = [
  { kind: 'events', Type: 'Event', cases: EVENT_CASES },
  { kind: 'venues', Type: 'Venue', cases: VENUE_CASES },
  { kind: 'organizers', Type: 'Organizer', cases: ORGANIZER_CASES },
];

/** A REST path under the names the sandbox serves. */
function pathFor(shape: Shape, path: string): string {
  if (!shape.plugin) return path;
  return path.replace(/^\/calendar\/events\/v1/, '/tribe/events/v1').replace(/^\/calendar-core\/v1/, '/tec/v1');
}

describe.each(SHAPES)('every field written alone changes that field only, on $shape', (shape) => {
  let h: Harness;
  let rest: RestClient;
  const refs: Refs = { venues: [], organizers: [], categories: [], tags: [], images: [], editor: 0 };
  const send = (method: string, path: string, body: unknown) =>
    rest.send(method, pathFor(shape, path), body, 'admin', { 'x-tec-eea': TEC_EEA });

  beforeAll(async () => {
    h = await startHarness({ sandbox: shape.sandbox });
    rest = restClient(h.sandbox);
    for (const i of [0, 1]) {
      refs.venues.push(
        (await send('POST', '/calendar/events/v1/venues', { venue: `Verify hall ${i}`, city: 'Lyon' })).body.id,
      );
      refs.organizers.push(
        (await send('POST', '/calendar/events/v1/organizers', { organizer: `Verify org ${i}` })).body.id,
      );
      refs.categories.push((await send('POST', '/calendar/events/v1/categories', { name: `Verify cat ${i}` })).body.id);
      refs.tags.push((await send('POST', '/calendar/events/v1/tags', { name: `Verify tag ${i}` })).body.id);
      const img = await send('POST', '/calendar/events/v1/organizers', {
        organizer: `Image holder ${i}`,
        image: `https://example.org/holder-${i}.jpg`,
      });
      refs.images.push(h.sandbox.site.store.post(img.body.id)!.featuredMedia);
    }
    refs.organizers.push((await send('POST', '/calendar/events/v1/organizers', { organizer: 'Verify org 2' })).body.id);
    refs.editor = h.sandbox.users.find((u) => u.login === 'editor')!.id;
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  const store = () => h.sandbox.site.store;

  function snap(id: number): Snap {
    const { modified: _m, modifiedGmt: _mg, meta, ...post } = store().post<Record<string, unknown>>(id)!;
    return {
      ...post,
      ...meta,
      categories: store().termIdsOf(id, 'calendar_events_cat'),
      tags: store().termIdsOf(id, 'post_tag'),
    };
  }

  /** An object with every field set to something other than a default, written straight to the site. */
  async function rich(kind: Kind): Promise<number> {
    let id: number;
    if (kind === 'events') {
      const r = await send('POST', '/calendar/events/v1/events', {
        title: 'Rich event',
        description: '<p>Rich body</p>',
        excerpt: 'Rich excerpt',
        status: 'publish',
        date: '2026-01-15 10:00:00',
        start_date: '2024-03-10 10:00:00',
        end_date: '2024-03-10 12:00:00',
        timezone: 'Europe/Paris',
        all_day: false,
        featured: true,
        sticky: true,
        cost: '$15',
        website: 'https://example.org/rich',
        show_map: false,
        show_map_link: false,
        hide_from_listings: true,
        venue: refs.venues[0],
        organizer: [refs.organizers[0], refs.organizers[2]],
        categories: [refs.categories[0]],
        tags: [refs.tags[0]],
        image: 'https://example.org/rich.jpg',
      });
      expect(r.status).toBe(201);
      id = r.body.id;
      // What only calendar-core writes, straight into the store (the legacy create takes none of it).
      store().updatePost(id, {
        commentStatus: 'closed',
        pingStatus: 'closed',
        format: 'aside',
        template: 'rich.php',
        meta: { virtual: true },
      });
    } else if (kind === 'venues') {
      const r = await send('POST', '/calendar/events/v1/venues', {
        venue: 'Rich hall',
        description: 'Rich venue',
        status: 'publish',
        date: '2026-01-15 10:00:00',
        address: '1 Rich street',
        city: 'Lyon',
        country: 'France',
        province: 'Rhone',
        state: 'RS',
        stateprovince: 'Rhone SP',
        zip: '69001',
        phone: '+33 1',
        website: 'https://example.org/rich-hall',
        show_map: '0',
        show_map_link: '0',
        image: 'https://example.org/rich-hall.jpg',
      });
      id = r.body.id;
      store().updatePost(id, { excerpt: 'Rich venue excerpt', meta: { lat: 45.76, lng: 4.83 } });
      store().setTerms(id, 'post_tag', [refs.tags[0]!]);
    } else {
      const r = await send('POST', '/calendar/events/v1/organizers', {
        organizer: 'Rich org',
        description: 'Rich organizer',
        status: 'publish',
        date: '2026-01-15 10:00:00',
        phone: '+33 2',
        website: 'https://example.org/rich-org',
        email: 'rich@example.org',
        image: 'https://example.org/rich-org.jpg',
      });
      id = r.body.id;
      store().updatePost(id, { excerpt: 'Rich organizer excerpt' });
      store().setTerms(id, 'post_tag', [refs.tags[0]!]);
    }
    return id;
  }

  const without = (s: Snap, keys: readonly string[]) =>
    Object.fromEntries(Object.entries(s).filter(([k]) => !keys.includes(k)));

  const vias: (string | null)[] = shape.core ? [null, 'LEGACY'] : [null];
  for (const { kind, Type, cases } of KINDS) {
    for (const via of vias) {
      if (via && kind !== 'events') continue;
      const how = via ? ' through via: LEGACY' : '';
      const writable = cases.filter((c) => !(via && c.core));
      it.each(writable)(`${Type.toLowerCase()}: $field${how}`, async (c) => {
        const id = await rich(kind);
        const before = snap(id);
        h.mark();
        const input = c.input(refs, id);
        const r = await h.gql(
          `mutation($id: ID!, $input: ${Type}Input!, $via: WriteInterface) { update${Type}(id: $id, input: $input, via: $via) { ${kind.slice(0, -1)} { databaseId } } }`,
          { id: String(id), input, via },
          'admin',
        );
        const after = snap(id);
        const field = Object.keys(input)[0]!;
        if (c.core && !shape.core) {
          expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: [`input.${field}`] });
          expect(after).toEqual(before);
          return;
        }
        if (c.undeclared615 && shape.core) {
          expect(r.errors?.[0]?.extensions).toMatchObject({
            code: 'WRITE_NOT_APPLIED',
            notApplied: [{ field, reason: 'UNDECLARED', asked: input[field] }],
          });
          expect(r.errors?.[0]?.message).toMatch(/does not declare it/);
          expect(after).toEqual(before);
          expect(h.calls().filter((x) => x.method !== 'GET')).toEqual([]);
          return;
        }
        expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
        const also = [...(c.also ?? []), 'modified', 'modifiedGmt'];
        expect(without(after, also)).toEqual(without({ ...before, ...c.change(refs, id) }, also));
        // Nothing sent that its route does not declare (the sandbox logs what it drops).
        expect(
          h
            .calls()
            .flatMap((x) => [x, ...(x.batch ?? [])])
            .filter((x) => x.undeclared?.length),
        ).toEqual([]);
      });
    }
  }
});
