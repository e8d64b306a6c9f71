/**
 * The namespaces' declarations (src/namespaces/<ns>/routes.ts): the requests
 * they send are the ones the hand-written code they replaced sent (the e2e
 * suites prove the answers), and every row of the route table names a spec
 * route.
 */
import { describe, expect, it } from 'vitest';
import { AUDIT_ROUTES } from '../../src/namespaces/audit/routes.ts';
import {
  API_DOCUMENT,
  EXTRAS_MUTATION_ROUTES,
  EXTRAS_QUERY_ROUTES,
} from '../../src/namespaces/calendar-extras/routes.ts';
import { CHALLENGE_MUTATION_ROUTES } from '../../src/namespaces/challenge/routes.ts';
import { DUPLICATE_POST_ROUTES } from '../../src/namespaces/duplicate-post/routes.ts';
import { FACET_ROUTES } from '../../src/namespaces/facet/routes.ts';
import { GOVERNANCE_ROUTES } from '../../src/namespaces/governance/routes.ts';
import { ROUTE_TABLE } from '../../src/namespaces/route-table.ts';
import { requestOf, type RouteDecl } from '../../src/routes/declare.ts';
import { fieldText } from '../../src/routes/route-use.ts';
import { readSpecRoutes } from '../../src/routes-tsv.ts';
import { GatewayError } from '../../src/errors.ts';

// The declarations are typed by their fields' arguments; these tests pass plain objects.
const req = (d: unknown, a: unknown) => requestOf(d as RouteDecl<unknown, unknown>, a);

describe("the namespaces' declarations", () => {
  it('send a DELETE without a body, its path param encoded', () => {
    expect(req(DUPLICATE_POST_ROUTES.removeDuplicatePostOriginal, { postId: '7' })).toEqual({
      method: 'DELETE',
      path: '/duplicate-post/v1/original/7',
      route: 'DELETE /duplicate-post/v1/original/<post_id>',
    });
    expect(req(EXTRAS_MUTATION_ROUTES.clearOccurrencesNotice, { eventId: 12 })).toEqual({
      method: 'DELETE',
      path: '/calendar-core/v1/events/12/notices/occurrences',
      route: 'DELETE /calendar-core/v1/events/<id>/notices/occurrences',
    });
  });

  it('refuse a post ID that is none before anything is sent', () => {
    const check = (d: unknown, a: unknown) => () => (d as RouteDecl<unknown, unknown>).check?.(a);
    expect(check(GOVERNANCE_ROUTES.contentReviewStatus, { postId: 'nope' })).toThrow(GatewayError);
    expect(check(CHALLENGE_MUTATION_ROUTES.verifyChallenge, { solution: null, payload: null })).toThrow(/exactly one/);
  });

  it("send the export's accept header, and the facets' action in the body", () => {
    expect(req(AUDIT_ROUTES.auditLogExport, { where: null, search: null, order: null }).headers).toEqual({
      accept: 'text/csv, application/json',
    });
    expect(req(FACET_ROUTES.autocomplete, { facetName: 'color', query: 're' }).body).toEqual({
      action: 'facetwp_autocomplete_load',
      data: { facet_name: 'color', query: 're' },
    });
  });

  it("pick the API document by api:, and send the embed's nonce as _wpnonce", () => {
    expect(req(API_DOCUMENT, { api: 'CALENDAR_CORE' }).route).toBe('GET /calendar-core/v1/docs');
    expect(req(API_DOCUMENT, { api: 'AUTOMATION_B' }).path).toBe('/calendar/automation-b/v1/doc');
    expect(req(EXTRAS_QUERY_ROUTES.calendarEmbed, { nonce: 'n1', input: null }).query).toEqual({ _wpnonce: 'n1' });
  });
});

describe('the route table', () => {
  it('has only rows of spec routes, each naming at least one field', () => {
    const spec = new Set(readSpecRoutes().map((r) => `${r.method} ${r.path}`));
    expect(ROUTE_TABLE.filter((r) => !spec.has(`${r.method} ${r.path}`))).toEqual([]);
    expect(ROUTE_TABLE.filter((r) => !/^[A-Z]\w*\.\w+/.test(fieldText(r.field)))).toEqual([]);
  });
});
