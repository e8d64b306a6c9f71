import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GraphQLError } from 'graphql';
import { errors as undiciErrors } from 'undici';
import { GatewayError, isGatewayError } from '../../src/errors.ts';
import {
  MalformedResponseError,
  badResponseShape,
  ResponseTooLargeError,
  codeForStatus,
  fromTransportError,
  fromUpstreamResponse,
  parseRetryAfter,
} from '../../src/upstream/errors.ts';
import { redact } from '../../src/redact.ts';

/** A recorded real answer (copied from reference/samples/). */
interface Sample {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}
const sample = (name: string): Sample =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as Sample;
const fromSample = (name: string, route: string) => {
  const s = sample(name);
  return fromUpstreamResponse(s.status, s.body, route, s.headers);
};

describe('GatewayError', () => {
  it('is a GraphQLError whose extensions carry the stable code', () => {
    const e = GatewayError.badInput('bad', { params: { a: 'no' } });
    expect(e).toBeInstanceOf(GraphQLError);
    expect(e.code).toBe('BAD_USER_INPUT');
    expect(e.extensions).toEqual({ code: 'BAD_USER_INPUT', params: { a: 'no' } });
    expect(e.toJSON()).toMatchObject({ message: 'bad', extensions: { code: 'BAD_USER_INPUT' } });
    expect(isGatewayError(e)).toBe(true);
    expect(isGatewayError(new GraphQLError('x'))).toBe(false);
    expect(isGatewayError(new Error('x'))).toBe(false);
  });

  it('names the offending GraphQL arguments of errors the gateway raises itself', () => {
    const e = GatewayError.badInput('where.startDate: "x" is not a valid DateTime', { arguments: ['where.startDate'] });
    expect(e.extensions).toEqual({ code: 'BAD_USER_INPUT', arguments: ['where.startDate'] });
    expect(e.extensions.upstream).toBeUndefined();
    // Extra fields become extensions too; the code cannot be overridden that way.
    const big = GatewayError.badInput('first must be at most 100', {
      arguments: ['first'],
      max: 100,
      code: 'NOT_FOUND',
      originalError: new Error('x'),
    });
    expect(big.extensions).toEqual({ code: 'BAD_USER_INPUT', arguments: ['first'], max: 100 });
  });

  it('names the missing namespace', () => {
    const e = GatewayError.namespaceUnavailable('seo/v1');
    expect(e.code).toBe('NAMESPACE_UNAVAILABLE');
    expect(e.message).toContain('seo/v1');
  });
});

describe('status -> code', () => {
  it.each([
    [400, 'BAD_USER_INPUT'],
    [413, 'BAD_USER_INPUT'],
    [414, 'BAD_USER_INPUT'],
    [422, 'BAD_USER_INPUT'],
    [431, 'BAD_USER_INPUT'],
    [401, 'UNAUTHENTICATED'],
    [403, 'FORBIDDEN'],
    [404, 'NOT_FOUND'],
    [409, 'CONFLICT'],
    [410, 'GONE'],
    [429, 'UPSTREAM_UNAVAILABLE'],
    [501, 'NOT_IMPLEMENTED'],
    [502, 'UPSTREAM_UNAVAILABLE'],
    [503, 'UPSTREAM_UNAVAILABLE'],
    [504, 'UPSTREAM_TIMEOUT'],
    [500, 'UPSTREAM_ERROR'],
    [507, 'UPSTREAM_ERROR'],
    [405, 'UPSTREAM_ERROR'],
    [302, 'UPSTREAM_ERROR'],
  ] as const)('maps %i to %s', (status, code) => {
    expect(codeForStatus(status)).toBe(code);
    expect(fromUpstreamResponse(status, null, 'GET /x').code).toBe(code);
  });
});

describe('WP_Error bodies {code, message, data}', () => {
  it('copies params and details of rest_invalid_param (core-error-per-page sample)', () => {
    const e = fromSample('core-error-per-page', 'GET /core/v2/posts');
    expect(e.code).toBe('BAD_USER_INPUT');
    expect(e.message).toBe('Invalid parameter(s): per_page');
    expect(e.extensions.upstream).toEqual({ code: 'rest_invalid_param', status: 400, route: 'GET /core/v2/posts' });
    expect(e.extensions.params).toEqual({ per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' });
    expect(e.extensions.details).toEqual({
      per_page: {
        code: 'rest_out_of_bounds',
        message: 'per_page must be between 1 (inclusive) and 100 (inclusive)',
        data: null,
      },
    });
  });

  it('keeps the HTTP 400 when a forbidden status is wrapped in rest_invalid_param (core-error-forbidden-status sample)', () => {
    const e = fromSample('core-error-forbidden-status', 'GET /core/v2/posts');
    expect(e.code).toBe('BAD_USER_INPUT');
    expect(e.extensions.params).toEqual({ status: 'Status is forbidden.' });
    expect(e.extensions.details).toMatchObject({ status: { code: 'rest_forbidden_status', data: { status: 401 } } });
  });

  it('reports the missing names of rest_missing_callback_param as a list (legacy-error-missing-param sample)', () => {
    const e = fromSample('legacy-error-missing-param', 'POST /calendar/events/v1/events');
    expect(e.code).toBe('BAD_USER_INPUT');
    expect(e.message).toBe('Missing parameter(s): title, end_date');
    expect(e.extensions.params).toEqual(['title', 'end_date']);
    expect(e.extensions.details).toBeUndefined();
    expect(fromSample('seo-file-size-missing-url', 'GET /seo/v1/file_size').extensions.params).toEqual(['url']);
  });

  it('drops PHP empty-array details (legacy-error-bad-date sample)', () => {
    const e = fromSample('legacy-error-bad-date', 'GET /calendar/events/v1/events');
    expect(e.extensions.params).toEqual({ start_date: 'Invalid parameter.' });
    expect('details' in e.extensions).toBe(false);
  });

  it('maps rest_forbidden 401 to UNAUTHENTICATED (legacy-error-anonymous-create sample)', () => {
    const e = fromSample('legacy-error-anonymous-create', 'POST /calendar/events/v1/events');
    expect(e.code).toBe('UNAUTHENTICATED');
    expect(e.message).toBe('Sorry, you are not allowed to do that.');
    expect(e.extensions.upstream).toEqual({
      code: 'rest_forbidden',
      status: 401,
      route: 'POST /calendar/events/v1/events',
    });
  });

  it('maps a past-the-last-page 404 to NOT_FOUND (legacy-error-past-last-page sample)', () => {
    const e = fromSample('legacy-error-past-last-page', 'GET /calendar/events/v1/events');
    expect(e.code).toBe('NOT_FOUND');
    expect(e.extensions.upstream?.code).toBe('event-archive-page-not-found');
  });

  it('names the offending batch item (batch-get-refused sample)', () => {
    const e = fromSample('batch-get-refused', 'POST /batch/v1');
    expect(e.extensions.params).toEqual({
      requests: 'requests[0][method] is not one of POST, PUT, PATCH, and DELETE.',
    });
  });

  it('maps 403 to FORBIDDEN, 410 to GONE and 501 to NOT_IMPLEMENTED with the site codes', () => {
    const forbidden = fromUpstreamResponse(
      403,
      { code: 'event-not-accessible', message: 'The requested event is not accessible', data: { status: 403 } },
      'GET /e',
    );
    expect([forbidden.code, forbidden.extensions.upstream?.code]).toEqual(['FORBIDDEN', 'event-not-accessible']);
    const gone = fromUpstreamResponse(
      410,
      { code: 'event-is-in-trash', message: 'The event with ID 7 is already in the trash.', data: { status: 410 } },
      'DELETE /e',
    );
    expect([gone.code, gone.extensions.upstream?.code]).toEqual(['GONE', 'event-is-in-trash']);
    const ni = fromUpstreamResponse(
      501,
      {
        code: 'rest_trash_not_supported',
        message: "The post does not support trashing. Set 'force=true' to delete.",
        data: { status: 501 },
      },
      'DELETE /p',
    );
    expect(ni.code).toBe('NOT_IMPLEMENTED');
  });

  it('strips HTML from messages and decodes entities', () => {
    const e = fromUpstreamResponse(
      400,
      {
        code: 'rest_invalid_param',
        message: '<strong>Error:</strong> Invalid&nbsp;parameter(s): <code>venue</code> &amp; more&hellip;',
        data: { status: 400, params: { venue: '<em>Bad</em> venue' } },
      },
      'POST /v',
    );
    expect(e.message).toBe('Error: Invalid parameter(s): venue & more\u2026');
    expect(e.extensions.params).toEqual({ venue: 'Bad venue' });
  });

  it('accepts the no-data {code, message} body of tec/v1 page-not-found', () => {
    const e = fromUpstreamResponse(
      404,
      { code: 'tec_rest_organizers_page_not_found', message: 'The requested page was not found.' },
      'GET /calendar-core/v1/events',
    );
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toBe('The requested page was not found.');
    expect(e.extensions.upstream).toEqual({
      code: 'tec_rest_organizers_page_not_found',
      status: 404,
      route: 'GET /calendar-core/v1/events',
    });
    expect(e.extensions.params).toBeUndefined();
  });

  it('uses the code as the message when an aggregator WP_Error has a sentence for a code and no message', () => {
    const sentence = 'Could not update the status of import 123 to failed.';
    const e = fromUpstreamResponse(
      500,
      { code: sentence, message: '', data: null },
      'POST /calendar/aggregator/v1/import/<id>/state',
    );
    expect(e.code).toBe('UPSTREAM_ERROR');
    expect(e.message).toBe(sentence);
    expect(e.extensions.upstream).toEqual({
      code: sentence,
      status: 500,
      route: 'POST /calendar/aggregator/v1/import/<id>/state',
    });
  });

  it('parses a body that arrives as JSON text', () => {
    const e = fromUpstreamResponse(
      404,
      '{"code":"rest_no_route","message":"No route was found matching the URL and request method.","data":{"status":404}}',
      'GET /nope',
    );
    expect([e.code, e.extensions.upstream?.code]).toEqual(['NOT_FOUND', 'rest_no_route']);
  });
});

describe('plugin bodies', () => {
  it('reads a tec/v1 trait error {error}', () => {
    const e = fromUpstreamResponse(
      404,
      { error: 'The entity could not be updated.' },
      'PUT /calendar-core/v1/events/<id>',
    );
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toBe('The entity could not be updated.');
    expect(e.extensions.upstream).toEqual({ code: null, status: 404, route: 'PUT /calendar-core/v1/events/<id>' });
    expect(fromUpstreamResponse(500, { error: 'The notice was not deleted as expected.' }, 'DELETE /n').message).toBe(
      'The notice was not deleted as expected.',
    );
  });

  it('reads a Yoast scores error {error: "Invalid content type."}', () => {
    const e = fromUpstreamResponse(400, { error: 'Invalid content type.' }, 'GET /seo/v1/seo_scores');
    expect([e.code, e.message]).toEqual(['BAD_USER_INPUT', 'Invalid content type.']);
  });

  it('reads the first code of a Zapier serialised WP_Error and trusts its inner status over the HTTP 400', () => {
    const body = {
      errors: { integration_consumer_secret_no_match: ['Consumer Secret does not match.'] },
      error_data: { integration_consumer_secret_no_match: { status: 400 } },
    };
    const e = fromUpstreamResponse(400, body, 'GET /calendar/zapier/v1/authorize');
    expect(e.code).toBe('BAD_USER_INPUT');
    expect(e.message).toBe('Consumer Secret does not match.');
    expect(e.extensions.upstream).toEqual({
      code: 'integration_consumer_secret_no_match',
      status: 400,
      route: 'GET /calendar/zapier/v1/authorize',
    });

    // Token errors keep HTTP 400 whatever the inner status (calendar-upstream.md §4).
    const token = fromUpstreamResponse(
      400,
      {
        errors: { missing_access_token: ['Missing access token.'], other: ['x'] },
        error_data: { missing_access_token: { status: 401 } },
      },
      'GET /calendar/zapier/v1/new-events',
    );
    expect(token.code).toBe('UNAUTHENTICATED');
    expect(token.extensions.upstream?.code).toBe('missing_access_token');
    expect(token.extensions.upstream?.status).toBe(400);
    expect(token.extensions.details).toEqual({ otherCodes: ['other'] });
  });

  it('reads a Yoast redirect failure, keeping fields and naming the code after its type', () => {
    const body = {
      title: 'Redirect not created.',
      message: 'The old URL already exists as a redirect.',
      fields: ['origin'],
      type: 'error',
      success: false,
    };
    const e = fromUpstreamResponse(400, body, 'PUT /seo/v1/redirects/update');
    expect(e.code).toBe('BAD_USER_INPUT');
    expect(e.message).toBe('The old URL already exists as a redirect.');
    expect(e.extensions.upstream).toEqual({
      code: 'redirect_error',
      status: 400,
      route: 'PUT /seo/v1/redirects/update',
    });
    expect(e.extensions.details).toEqual({ title: 'Redirect not created.', fields: ['origin'], type: 'error' });

    // The create route reports validation failures with HTTP 200; a caller that
    // detects `success:false` still gets BAD_USER_INPUT.
    const warn = fromUpstreamResponse(
      200,
      { ...body, type: 'warning', message: 'The old URL for your redirect is not relative.' },
      'POST /seo/v1/redirects',
    );
    expect([warn.code, warn.extensions.upstream?.code]).toEqual(['BAD_USER_INPUT', 'redirect_warning']);

    const store = fromUpstreamResponse(
      400,
      { title: 'Redirect not deleted.', message: 'Something went wrong when deleting this redirect.', success: false },
      'POST /seo/v1/redirects/delete',
    );
    expect([store.code, store.message, store.extensions.upstream?.code]).toEqual([
      'BAD_USER_INPUT',
      'Something went wrong when deleting this redirect.',
      'redirect_failed',
    ]);
  });

  it('reads the Yoast redirect settings error {error:true, message}', () => {
    const e = fromUpstreamResponse(
      400,
      { error: true, message: 'Something went wrong while saving the settings.' },
      'PUT /seo/v1/redirects/settings',
    );
    expect(e.code).toBe('BAD_USER_INPUT');
    expect(e.message).toBe('Something went wrong while saving the settings.');
    expect(e.extensions.upstream?.code).toBeNull();
  });

  it('reads a GenerateBlocks error and ignores its constant 401', () => {
    const noUrl = fromUpstreamResponse(
      401,
      { error: true, success: false, error_code: 'no_url', response: 'No URL provided.' },
      'GET /site-blocks/v1/get-attachment-id',
    );
    expect(noUrl.code).toBe('BAD_USER_INPUT');
    expect(noUrl.message).toBe('No URL provided.');
    expect(noUrl.extensions.upstream).toEqual({
      code: 'no_url',
      status: 401,
      route: 'GET /site-blocks/v1/get-attachment-id',
    });
    const none = fromUpstreamResponse(
      401,
      { error: true, success: false, error_code: 'no_attachment', response: 'No attachment found.' },
      'GET /site-blocks/v1/get-attachment-id',
    );
    expect([none.code, none.message]).toEqual(['NOT_FOUND', 'No attachment found.']);
  });

  it('reads duplicate-post errors, which are WP_Errors', () => {
    const e = fromUpstreamResponse(
      403,
      {
        code: 'rest_forbidden',
        message: 'Cannot remove original reference from a Rewrite &amp; Republish copy.',
        data: { status: 403 },
      },
      'DELETE /duplicate-post/v1/original/<id>',
    );
    expect([e.code, e.message]).toEqual([
      'FORBIDDEN',
      'Cannot remove original reference from a Rewrite & Republish copy.',
    ]);
    const missing = fromUpstreamResponse(
      500,
      { code: 'rest_cannot_delete', message: 'Could not remove the original reference.', data: { status: 500 } },
      'DELETE /duplicate-post/v1/original/<id>',
    );
    expect([missing.code, missing.extensions.upstream?.code]).toEqual(['UPSTREAM_ERROR', 'rest_cannot_delete']);
  });

  it('reads Yoast {success:false, status, error, failures} and {json:{...}} wrappers', () => {
    const e = fromUpstreamResponse(
      500,
      { success: false, status: 500, error: 'Could not save the option.', failures: ['company_name'] },
      'POST /seo/v1/configuration/site_representation',
    );
    expect([e.code, e.message]).toEqual(['UPSTREAM_ERROR', 'Could not save the option.']);
    expect(e.extensions.details).toEqual({ failures: ['company_name'] });
    const wrapped = fromUpstreamResponse(
      200,
      { json: { success: false, status: 500, error: 'Integration failed.' } },
      'POST /seo/v1/integrations/set_active',
    );
    expect([wrapped.code, wrapped.message]).toEqual(['UPSTREAM_ERROR', 'Integration failed.']);
  });

  it('reads a Yoast file_size failure {type:"failure", response}', () => {
    const e = fromUpstreamResponse(
      404,
      { type: 'failure', response: 'Cannot get the size of x.jpg because it is hosted externally.' },
      'GET /seo/v1/file_size',
    );
    expect([e.code, e.message]).toEqual(['NOT_FOUND', 'Cannot get the size of x.jpg because it is hosted externally.']);
  });
});

describe('bodies that are not JSON errors', () => {
  const html =
    '<!DOCTYPE html><html><head><title>WordPress &rsaquo; Error</title></head><body><p>There has been a critical error on this website.</p></body></html>';

  it('reports an HTML critical-error page by status only', () => {
    const e = fromUpstreamResponse(500, html, 'GET /core/v2/posts');
    expect(e.code).toBe('UPSTREAM_ERROR');
    expect(e.message).toBe('HTTP 500 from upstream');
    expect(e.extensions.upstream).toEqual({ code: null, status: 500, route: 'GET /core/v2/posts' });
    expect(e.extensions.details).toEqual({ body: 'html' });
  });

  it.each([
    ['empty string', ''],
    ['null', null],
    ['truncated JSON', '{"code":"rest_no_ro'],
    ['an empty array (Yoast introductions)', []],
    ['plain text', 'Service Unavailable'],
  ])('falls back to "HTTP <status> from upstream" for %s', (_label, body) => {
    const e = fromUpstreamResponse(502, body, 'GET /x');
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(e.message).toBe('HTTP 502 from upstream');
    expect(e.extensions.upstream?.code).toBeNull();
  });

  it('passes Retry-After on a 429 as retryAfter seconds', () => {
    const e = fromUpstreamResponse(429, { code: 'too_many', message: 'Slow down.' }, 'GET /x', { 'Retry-After': '30' });
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(e.extensions.retryAfter).toBe(30);
  });
});

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates, ignoring junk', () => {
    const now = Date.parse('2027-01-01T10:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('Fri, 01 Jan 2027 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Fri, 01 Jan 2027 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('transport errors', () => {
  const route = 'GET /calendar/events/v1/events';
  const E = undiciErrors;

  it.each([
    ['connect timeout', new E.ConnectTimeoutError(), 'UND_ERR_CONNECT_TIMEOUT'],
    ['headers timeout', new E.HeadersTimeoutError(), 'UND_ERR_HEADERS_TIMEOUT'],
    ['body timeout', new E.BodyTimeoutError(), 'UND_ERR_BODY_TIMEOUT'],
  ])('maps an undici %s to UPSTREAM_TIMEOUT', (_l, err, code) => {
    const e = fromTransportError(err, route);
    expect(e.code).toBe('UPSTREAM_TIMEOUT');
    expect(e.extensions.upstream).toEqual({ code, status: null, route });
    expect(e.originalError).toBe(err);
  });

  it('maps an AbortSignal.timeout() abort to UPSTREAM_TIMEOUT', () => {
    const reason = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect(fromTransportError(reason, route).code).toBe('UPSTREAM_TIMEOUT');
    // …also when wrapped, as timers/promises does.
    expect(fromTransportError(new Error('aborted', { cause: reason }), route).code).toBe('UPSTREAM_TIMEOUT');
  });

  it.each([
    [
      'ECONNREFUSED',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      'ECONNREFUSED',
    ],
    ['ECONNRESET', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'ECONNRESET'],
    ['SocketError', new E.SocketError('other side closed'), 'UND_ERR_SOCKET'],
    ['ENOTFOUND', Object.assign(new Error('getaddrinfo ENOTFOUND site.test'), { code: 'ENOTFOUND' }), 'ENOTFOUND'],
    [
      'AggregateError of refusals',
      Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]), {
        code: 'ECONNREFUSED',
      }),
      'ECONNREFUSED',
    ],
    ['an unknown error', new Error('boom'), null],
  ])('maps %s to UPSTREAM_UNAVAILABLE', (_l, err, code) => {
    const e = fromTransportError(err, route);
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(e.extensions.upstream).toEqual({ code, status: null, route });
  });

  it('maps an oversize body and malformed JSON to UPSTREAM_BAD_RESPONSE', () => {
    const big = fromTransportError(new ResponseTooLargeError(1024), route);
    expect(big.code).toBe('UPSTREAM_BAD_RESPONSE');
    expect(big.message).toMatch(/larger than the configured limit/);
    expect(fromTransportError(new E.ResponseExceededMaxSizeError(), route).code).toBe('UPSTREAM_BAD_RESPONSE');
    const bad = fromTransportError(new MalformedResponseError(200), route);
    expect(bad.code).toBe('UPSTREAM_BAD_RESPONSE');
    expect(bad.extensions.upstream).toEqual({ code: 'UPSTREAM_MALFORMED_JSON', status: 200, route });
    let syntax: unknown;
    try {
      JSON.parse('{"a":');
    } catch (err) {
      syntax = err;
    }
    expect(fromTransportError(syntax, route).code).toBe('UPSTREAM_BAD_RESPONSE');
  });

  it('returns a GatewayError unchanged', () => {
    const e = GatewayError.notFound('gone');
    expect(fromTransportError(e, route)).toBe(e);
  });
});

describe('redaction', () => {
  it('never repeats a token or key from a transport error message', () => {
    const err = Object.assign(
      new Error('connect ECONNREFUSED http://site.test/wp-json/x?access_token=eyJabc.def.ghi&page=2'),
      { code: 'ECONNREFUSED' },
    );
    const e = fromTransportError(err, 'GET /calendar/zapier/v1/new-events');
    expect(e.message).not.toContain('eyJabc');
    expect(JSON.stringify(e.toJSON())).not.toContain('eyJabc');
  });

  it('redacts secret query values, JSON secrets, URL credentials and auth headers in upstream messages', () => {
    const e = fromUpstreamResponse(
      403,
      {
        code: 'invalid_token',
        message:
          'Bad token for http://admin:hunter2@site.test/wp-json/x?api_key=K123&access_token=T456&page=2 "access_token":"T789" Basic YWRtaW46aHVudGVyMg==',
        data: { status: 403 },
      },
      'GET /site-governance/v1/remote/training-status',
    );
    for (const secret of ['hunter2', 'K123', 'T456', 'T789', 'YWRtaW46aHVudGVyMg'])
      expect(e.message).not.toContain(secret);
    expect(e.message).toContain('api_key=[REDACTED]');
    expect(e.message).toContain('page=2');
  });

  it('redacts plain text it is given', () => {
    expect(redact('/x?tec_access_token=abc&b=1')).toBe('/x?tec_access_token=[REDACTED]&b=1');
    expect(redact('Authorization: Bearer abcdef123456')).toBe('Authorization: Bearer [REDACTED]');
  });
});

describe('a 2xx body of the wrong shape', () => {
  it('is UPSTREAM_BAD_RESPONSE with the real status, not an invented 502', () => {
    const e = badResponseShape('GET /core/v2/posts', 200, { not: 'a list' }, 'the list is not an array');
    expect(e.code).toBe('UPSTREAM_BAD_RESPONSE');
    expect(e.extensions).toEqual({
      code: 'UPSTREAM_BAD_RESPONSE',
      upstream: { code: null, status: 200, route: 'GET /core/v2/posts' },
      details: { body: 'json' },
    });
    expect(e.message).toBe('Bad upstream response (GET /core/v2/posts): the list is not an array.');
  });
});
