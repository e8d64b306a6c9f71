/**
 * Per-item results (src/writes/results.ts and the post results of
 * src/writes/posts.ts): pure, no HTTP. Every problem of an item in one
 * `MutationError`, site errors pointing at the input field, single
 * mutations' GraphQL errors, and the bulk payload's counts.
 */
import { describe, expect, it } from 'vitest';
import {
  bulkPayload,
  inputError,
  issuesAt,
  notExecuted,
  siteError,
  toGraphError,
  unknownError,
  upstreamOf,
  type ItemResult,
} from '../../src/writes/results.ts';
import { GatewayError } from '../../src/errors.ts';
import { fromUpstreamResponse } from '../../src/upstream/errors.ts';

const ROUTE = 'POST /calendar-core/v1/events';
const invalidParam = () =>
  fromUpstreamResponse(
    400,
    {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): start_date',
      data: { status: 400, params: { start_date: 'bad date' }, details: { start_date: { code: 'x' } } },
    },
    ROUTE,
  );

describe('inputError', () => {
  it('one problem: itself, no list', () => {
    expect(inputError([{ path: ['inputs', '2', 'cost'], message: 'cost is too long.' }])).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'cost is too long.',
      path: ['inputs', '2', 'cost'],
      upstream: null,
    });
  });

  it('several: each listed with its path, the path they share, the list kept', () => {
    const problems = [
      { path: ['inputs', '0', 'input', 'title'], message: 'title is required to create.' },
      { path: ['inputs', '0', 'input', 'website'], message: 'website must be an absolute http(s) URL' },
      { path: ['inputs', '0', 'id'], message: '"x" is not a Event ID.' },
    ];
    const e = inputError(problems);
    expect(e.path).toEqual(['inputs', '0']);
    expect(e.message).toBe(
      '3 problems: (1) inputs.0.input.title: title is required to create. (2) inputs.0.input.website: website must be an absolute http(s) URL. (3) inputs.0.id: "x" is not a Event ID.',
    );
    expect(e.problems).toEqual(problems);
    expect(e.upstream).toBeNull();
  });

  it('several in one field: that field is the path; none is a programming error', () => {
    expect(
      inputError([
        { path: ['input', 'tagIds'], message: 'a.' },
        { path: ['input', 'tagIds'], message: 'b.' },
      ]).path,
    ).toEqual(['input', 'tagIds']);
    expect(() => inputError([])).toThrow(TypeError);
  });

  it('issuesAt puts field issues under the input path', () => {
    expect(issuesAt([{ path: ['venue', 'title'], message: 'm' }], ['inputs', '1'])).toEqual([
      { path: ['inputs', '1', 'venue', 'title'], message: 'm' },
    ]);
  });
});

describe('site errors', () => {
  it('siteError: the path is the input field of the first parameter refused; upstream carries params and details', () => {
    const e = siteError(invalidParam(), ['inputs', '4'], (p) => ['inputs', '4', p === 'start_date' ? 'startDate' : p]);
    expect(e).toMatchObject({ code: 'BAD_USER_INPUT', path: ['inputs', '4', 'startDate'] });
    expect(e.upstream).toEqual({
      code: 'rest_invalid_param',
      status: 400,
      route: ROUTE,
      params: { start_date: 'bad date' },
      details: { start_date: { code: 'x' } },
    });
  });

  it('siteError without params: the item path', () => {
    const e = siteError(
      fromUpstreamResponse(403, { code: 'rest_cannot_create', message: 'no', data: { status: 403 } }, ROUTE),
      ['inputs', '1'],
      () => ['never'],
    );
    expect(e).toMatchObject({ code: 'FORBIDDEN', path: ['inputs', '1'] });
  });

  it('upstreamOf: null for errors the gateway raised itself', () => {
    expect(upstreamOf(GatewayError.badInput('x'))).toBeNull();
  });

  it('unknownError ends its message with one period; notExecuted has no upstream', () => {
    expect(unknownError(invalidParam(), ['inputs', '0'], 'lost.').message).toBe('lost.');
    expect(unknownError(invalidParam(), ['inputs', '0'], 'lost')).toMatchObject({
      code: 'OUTCOME_UNKNOWN',
      message: 'lost.',
      path: ['inputs', '0'],
    });
    expect(notExecuted(['inputs', '3'])).toMatchObject({ code: 'NOT_EXECUTED', upstream: null, path: ['inputs', '3'] });
  });
});

describe('toGraphError', () => {
  it('names the argument, splits upstream back into upstream/params/details, and keeps the ID', () => {
    const g = toGraphError(
      siteError(invalidParam(), ['input'], (p) => ['input', p]),
      12,
    );
    expect(g).toBeInstanceOf(GatewayError);
    expect(g.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      arguments: ['input.start_date'],
      upstream: { code: 'rest_invalid_param', status: 400, route: ROUTE },
      params: { start_date: 'bad date' },
      details: { start_date: { code: 'x' } },
      databaseId: 12,
    });
  });

  it('several problems: every argument, and the problems listed', () => {
    const g = toGraphError(
      inputError([
        { path: ['input', 'title'], message: 'a.' },
        { path: ['input', 'endDate'], message: 'b.' },
      ]),
      null,
    );
    expect(g.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      arguments: ['input.title', 'input.endDate'],
      problems: [
        { path: ['input', 'title'], message: 'a.' },
        { path: ['input', 'endDate'], message: 'b.' },
      ],
    });
    expect(g.message).toBe('2 problems: (1) input.title: a. (2) input.endDate: b.');
  });
});

describe('bulkPayload', () => {
  const model = { databaseId: 5 };
  const results: ItemResult<{ databaseId: number }>[] = [
    { index: 0, databaseId: 5, model, error: null },
    { index: 1, databaseId: null, model: null, error: inputError([{ path: ['inputs', '1'], message: 'x' }]) },
    { index: 2, databaseId: 7, model: null, error: unknownError(invalidParam(), ['inputs', '2'], 'lost') },
    // Written, but its follow-up failed: written and failed both.
    {
      index: 3,
      databaseId: 8,
      model: { databaseId: 8 },
      error: siteError(invalidParam(), ['inputs', '3'], () => ['inputs', '3', 'website']),
    },
  ];
  it('counts written, failed and unknown as the schema describes, and names the model', () => {
    const p = bulkPayload(results, (event) => ({ event }));
    expect([p.written, p.failed, p.unknown]).toEqual([2, 2, 1]);
    expect(p.results[0]).toEqual({ index: 0, databaseId: 5, error: null, event: model });
    expect(p.results.map((r) => r.index)).toEqual([0, 1, 2, 3]);
  });
});
