import { describe, expect, it } from 'vitest';
import { listItems, pastEndOrThrow } from '../../src/upstream/paging.ts';

const res = (status: number, body: unknown) => ({ status, headers: {}, body });

describe('pastEndOrThrow', () => {
  it('reads a page-not-found 404 past page 1 as an empty page, from either interface', () => {
    expect(
      pastEndOrThrow(
        res(404, { code: 'event-archive-page-not-found', message: 'x', data: { status: 404 } }),
        3,
        'GET /e',
      ),
    ).toEqual({ items: [], total: null });
    expect(pastEndOrThrow(res(404, { code: 'tec_rest_organizers_page_not_found', message: 'x' }), 2, 'GET /e')).toEqual(
      { items: [], total: null },
    );
  });

  it('leaves other answers alone, and throws other 404s (and page 1) as NOT_FOUND', () => {
    expect(pastEndOrThrow(res(200, []), 1, 'GET /e')).toBeNull();
    expect(() => pastEndOrThrow(res(404, { code: 'event-archive-page-not-found', message: 'x' }), 1, 'GET /e')).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
    expect(() => pastEndOrThrow(res(404, { code: 'rest_no_route', message: 'No route' }), 2, 'GET /e')).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
  });
});

describe('listItems', () => {
  const res = (body: unknown) => ({ status: 200, headers: {}, body }) as never;

  it('returns the array of a list answer, or the one the envelope holds', () => {
    expect(listItems(res([1, 2]), 'GET /x')).toEqual([1, 2]);
    expect(listItems(res({ events: [3] }), 'GET /x', (b) => (b as { events: unknown }).events)).toEqual([3]);
  });

  it('throws UPSTREAM_BAD_RESPONSE keeping the real status when there is none', () => {
    expect(() => listItems(res({ a: 1 }), 'GET /x')).toThrow(
      expect.objectContaining({
        code: 'UPSTREAM_BAD_RESPONSE',
        extensions: expect.objectContaining({ upstream: { code: null, status: 200, route: 'GET /x' } }),
      }),
    );
  });
});
