import { describe, expect, it } from 'vitest';
import { pastEndOrThrow } from '../../src/upstream/paging.ts';

const res = (status: number, body: unknown) => ({ status, headers: {}, body });

describe('pastEndOrThrow', () => {
  it('reads a page-not-found 404 past page 1 as an empty page, from either interface', () => {
    expect(pastEndOrThrow(res(404, { code: 'event-archive-page-not-found', message: 'x', data: { status: 404 } }), 3, 'GET /e')).toEqual({ items: [], total: null });
    expect(pastEndOrThrow(res(404, { code: 'tec_rest_organizers_page_not_found', message: 'x' }), 2, 'GET /e')).toEqual({ items: [], total: null });
  });

  it('leaves other answers alone, and throws other 404s (and page 1) as NOT_FOUND', () => {
    expect(pastEndOrThrow(res(200, []), 1, 'GET /e')).toBeNull();
    expect(() => pastEndOrThrow(res(404, { code: 'event-archive-page-not-found', message: 'x' }), 1, 'GET /e')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(() => pastEndOrThrow(res(404, { code: 'rest_no_route', message: 'No route' }), 2, 'GET /e')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });
});
