/**
 * What the real releases do to writes (real-site-behaviour.md, "Added
 * 2026-11-25"), per release:
 * - the legacy update (every release) moves an omitted publication date to the
 *   time of the request and resets the presentation flags it omits;
 * - the calendar-core event update of 6.15.14 sets an omitted `sticky` false
 *   and the legacy `show_map`/`show_map_link` true, and ignores
 *   `featured: false`; 6.17's is partial;
 * - a missing event ID on the legacy single route is 400 rest_invalid_param
 *   naming `id`, for every method.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const LEGACY = '/calendar/events/v1/events';
const CORE = '/calendar-core/v1/events';
const CLOCK = { anchor: '2026-06-01', now: '2026-06-01T12:00:00Z', events: 20 };
const PUBLISHED = '2026-01-15 10:00:00';

/** Seconds between a legacy `date_utc` (`Y-m-d H:i:s`) and the site's clock. */
const secondsFromNow = (sb: RunningSandbox, utc: string) =>
  Math.abs(Date.parse(`${utc.replace(' ', 'T')}Z`) - sb.site.now().getTime()) / 1000;

/** A legacy event published on PUBLISHED with every presentation flag set away from its default. */
async function flagged(api: RestClient): Promise<any> {
  const r = await api.send(
    'POST',
    LEGACY,
    {
      title: 'Reset probe',
      start_date: '2027-03-10 10:00:00',
      end_date: '2027-03-10 12:00:00',
      date: PUBLISHED,
      show_map: false,
      show_map_link: false,
      hide_from_listings: true,
      sticky: true,
      featured: true,
    },
    'admin',
  );
  expect(r.status).toBe(201);
  expect(r.body).toMatchObject({
    date: PUBLISHED,
    show_map: false,
    show_map_link: false,
    hide_from_listings: true,
    sticky: true,
    featured: true,
  });
  return r.body;
}

describe('write resets of the real releases', () => {
  const sandboxes: Partial<Record<'5.7' | '6.15' | '6.17', RunningSandbox>> = {};
  const api = (tec: '5.7' | '6.15' | '6.17') => restClient(sandboxes[tec]!);

  beforeAll(async () => {
    const [a, b, c] = await Promise.all(
      (['5.7', '6.15', '6.17'] as const).map((tec) => testSandbox({ ...CLOCK, tec })),
    );
    Object.assign(sandboxes, { '5.7': a, '6.15': b, '6.17': c });
  });
  afterAll(() => Promise.all(Object.values(sandboxes).map((sb) => sb!.close())));

  for (const tec of ['5.7', '6.15', '6.17'] as const) {
    describe(`legacy update, TEC ${tec}`, () => {
      it('moves an omitted publication date to now, and keeps one that is sent (POST, PUT, PATCH)', async () => {
        const sb = sandboxes[tec]!;
        for (const method of ['POST', 'PUT', 'PATCH']) {
          const e = await flagged(api(tec));
          const moved = await api(tec).send(method, `${LEGACY}/${e.id}`, { title: 'Retitled' }, 'admin');
          expect(moved.status, method).toBe(200);
          expect(moved.body.date, method).not.toBe(PUBLISHED);
          expect(secondsFromNow(sb, moved.body.date_utc), method).toBeLessThan(5);
          expect(sb.site.store.post(e.id)!.date).toBe(moved.body.date);
          const kept = await api(tec).send(
            method,
            `${LEGACY}/${e.id}`,
            { title: 'Retitled again', date: PUBLISHED },
            'admin',
          );
          expect(kept.body.date, method).toBe(PUBLISHED);
        }
      });

      it('resets every presentation flag it omits to false: show_map, show_map_link, hide_from_listings, sticky, featured', async () => {
        const e = await flagged(api(tec));
        const r = await api(tec).send('PATCH', `${LEGACY}/${e.id}`, { title: 'Flags probe' }, 'admin');
        expect(r.body).toMatchObject({
          show_map: false,
          show_map_link: false,
          hide_from_listings: false,
          sticky: false,
          featured: false,
        });
        const sent = await api(tec).send(
          'PATCH',
          `${LEGACY}/${e.id}`,
          { title: 'Flags probe', show_map: true, sticky: true },
          'admin',
        );
        expect(sent.body).toMatchObject({ show_map: true, show_map_link: false, sticky: true, featured: false });
      });

      it('refuses a missing event ID with 400 rest_invalid_param naming id, on GET, POST, PUT, PATCH and DELETE', async () => {
        for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
          const r = await api(tec).send(
            method,
            `${LEGACY}/987654`,
            method === 'GET' || method === 'DELETE' ? undefined : { title: 'x' },
            'admin',
          );
          expect(r.status, method).toBe(400);
          expect(r.body, method).toEqual({
            code: 'rest_invalid_param',
            message: 'Invalid parameter(s): id',
            data: { status: 400, params: { id: 'Invalid parameter.' }, details: [] },
          });
        }
      });
    });
  }

  describe('calendar-core event update', () => {
    it('TEC 6.15 sets an omitted sticky false and the legacy show_map/show_map_link true, keeping featured and the date (PATCH, PUT)', async () => {
      for (const method of ['PATCH', 'PUT']) {
        const e = await flagged(api('6.15'));
        const r = await api('6.15').send(method, `${CORE}/${e.id}`, { title: 'Core probe' }, 'admin');
        expect(r.status, method).toBe(200);
        expect(r.body, method).toMatchObject({ sticky: false, featured: true, title: { rendered: 'Core probe' } });
        const legacy = (await api('6.15').get(`${LEGACY}/${e.id}`)).body;
        expect(legacy, method).toMatchObject({
          show_map: true,
          show_map_link: true,
          sticky: false,
          featured: true,
          date: PUBLISHED,
        });
        // A sent sticky is applied.
        const sticky = await api('6.15').send(method, `${CORE}/${e.id}`, { sticky: true }, 'admin');
        expect(sticky.body.sticky, method).toBe(true);
      }
    });

    it('TEC 6.15 ignores featured: false (200, still featured) and applies featured: true', async () => {
      const e = await flagged(api('6.15'));
      const off = await api('6.15').send('PATCH', `${CORE}/${e.id}`, { featured: false }, 'admin');
      expect(off.status).toBe(200);
      expect(off.body.featured).toBe(true);
      expect((await api('6.15').get(`${CORE}/${e.id}`)).body.featured).toBe(true);
      // Unfeatured through the legacy update, which sets it; then featured again through calendar-core.
      await api('6.15').send('POST', `${LEGACY}/${e.id}`, { title: 'Unfeatured', featured: false }, 'admin');
      expect((await api('6.15').get(`${CORE}/${e.id}`)).body.featured).toBe(false);
      const on = await api('6.15').send('PATCH', `${CORE}/${e.id}`, { featured: true }, 'admin');
      expect(on.body.featured).toBe(true);
    });

    it('TEC 6.17 is partial: sticky, show_map and show_map_link keep their values, and featured: false applies', async () => {
      const e = await flagged(api('6.17'));
      const r = await api('6.17').send('PATCH', `${CORE}/${e.id}`, { title: 'Partial probe' }, 'admin');
      expect(r.body).toMatchObject({ sticky: true, featured: true });
      expect((await api('6.17').get(`${LEGACY}/${e.id}`)).body).toMatchObject({
        show_map: false,
        show_map_link: false,
        sticky: true,
        date: PUBLISHED,
      });
      const off = await api('6.17').send('PATCH', `${CORE}/${e.id}`, { featured: false }, 'admin');
      expect(off.body.featured).toBe(false);
    });
  });
});
