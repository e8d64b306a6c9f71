/**
 * The namespace descriptors (src/namespaces/<ns>/namespace.ts, collected by
 * src/namespaces/catalog.ts) and the tables derived from them for the
 * session, the upstream cache and the redaction plugin.
 */
import { describe, expect, it } from 'vitest';
import { familyOf } from '../../src/cache/policy.ts';
import {
  INDEXED_NAMESPACES,
  NAMESPACES,
  SECRET_ARGUMENTS,
  SECRET_HEADERS,
  SECRET_PARAMS,
  namespaceOfPath,
} from '../../src/namespaces/catalog.ts';
import { readSpecRoutes } from '../../src/routes-tsv.ts';

describe('the namespace catalog', () => {
  const spec = readSpecRoutes();

  it('indexes exactly the namespaces whose index route the spec has', () => {
    const indexes = spec
      .filter((r) => r.method === 'GET' && NAMESPACES.some((d) => r.path === `/${d.name}`))
      .map((r) => r.path.slice(1));
    expect([...INDEXED_NAMESPACES].sort()).toEqual([...new Set(indexes)].sort());
  });

  it('describes the namespace of every spec route but the root index and /batch/v1', () => {
    const undescribed = spec.filter((r) => !namespaceOfPath(r.path)).map((r) => r.path);
    expect([...new Set(undescribed)].sort()).toEqual(['/', '/batch/v1']);
  });

  it('picks the longest name, and files each path under its namespace family', () => {
    expect(namespaceOfPath('/calendar-core/v2/onboarding/wizard')?.name).toBe('calendar-core/v2/onboarding');
    expect(namespaceOfPath('/calendar-core/v1/events/3')?.name).toBe('calendar-core/v1');
    expect(namespaceOfPath('/calendar-core/v1')?.name).toBe('calendar-core/v1');
    expect(namespaceOfPath('/calendar-core/v10/x')).toBeUndefined();
    expect(familyOf('/calendar/automation-b/v1/new-events')).toBe('calendar');
    expect(familyOf('/site-blocks/v1/get-attachment-id')).toBe('content');
    expect(familyOf('/site/v1/challenge')).toBe('other');
  });

  it('collects the secrets the namespaces declare', () => {
    expect([...SECRET_PARAMS].sort()).toEqual(['_wpnonce', 'access_token', 'api_key', 'consumer_secret']);
    expect([...SECRET_ARGUMENTS].sort()).toEqual(['accessToken', 'apiKey', 'consumerSecret']);
    expect([...SECRET_HEADERS].sort()).toEqual(['x-automation-token', 'x-governance-api-key']);
  });
});
