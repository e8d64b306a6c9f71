/**
 * `POST /batch/v1` (reference/site-upstream.md §3; samples batch-*.json).
 *
 * At most 25 requests of method POST/PUT/PATCH/DELETE; a bad envelope is a
 * whole-request 400 and nothing runs. Each item is matched, checked for
 * `allow_batch`, validated, then (when it runs) authorised and executed with
 * the outer request's user. The answer is always HTTP 207.
 * `require-all-validate` validates every item first and runs none if any fails.
 */
import { RestResult, type BatchLogItem, type RouteDecl } from '../rest/types.ts';
import type { DispatchOutput, Dispatcher } from '../rest/dispatch.ts';

export const MAX_BATCH = 25;

interface BatchItem {
  method: string;
  path: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string | string[]>;
}

function itemEnvelope(out: DispatchOutput): { body: unknown; status: number; headers: Record<string, string> | [] } {
  return { body: out.body, status: out.status, headers: Object.keys(out.headers).length ? out.headers : [] };
}

export function batchRoutes(site: Dispatcher): RouteDecl[] {
  return [
    {
      namespace: '',
      path: '/batch/v1',
      endpoints: [
        {
          methods: ['POST'],
          args: {
            validation: { type: 'string', enum: ['require-all-validate', 'normal'], default: 'normal' },
            requests: {
              type: 'array',
              required: true,
              maxItems: MAX_BATCH,
              items: {
                type: 'object',
                properties: {
                  method: { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'], default: 'POST' },
                  path: { type: 'string', required: true },
                  body: { type: 'object', properties: {}, additionalProperties: true },
                  headers: {
                    type: 'object',
                    properties: {},
                    additionalProperties: { type: ['string', 'array'], items: { type: 'string' } },
                  },
                },
              },
            },
          },
          // The batch route has no permission of its own: each item is authorised when it runs.
          permission: () => true,
          handler: (req) => {
            const items = (req.params.requests as BatchItem[]).map((it) => ({
              ...it,
              method: (it.method ?? 'POST').toUpperCase(),
            }));
            const log: BatchLogItem[] = [];
            const inputs = items.map((it) => {
              const headers: Record<string, string> = { ...req.headers };
              for (const [k, v] of Object.entries(it.headers ?? {}))
                headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
              return {
                method: it.method,
                path: it.path,
                headers,
                body: it.body ?? {},
                inBatch: true,
                user: req.user,
              };
            });
            const entry = (it: { method: string; path: string }, out: DispatchOutput): BatchLogItem => ({
              method: it.method,
              path: it.path.split('?')[0]!,
              route: out.route,
              status: out.status,
              ...(out.undeclared ? { undeclared: out.undeclared } : {}),
            });
            const record = (it: { method: string; path: string }, out: DispatchOutput) => {
              log.push(entry(it, out));
              return itemEnvelope(out);
            };
            let body: unknown;
            if (req.params.validation === 'require-all-validate') {
              const checked = inputs.map((inp) => site.validateOnly(inp));
              if (checked.some((c) => c.output !== null)) {
                body = {
                  failed: 'validation',
                  responses: checked.map((c) => (c.output ? itemEnvelope(c.output) : null)),
                };
                inputs.forEach((inp, i) => checked[i]!.output && log.push(entry(inp, checked[i]!.output!)));
              } else {
                body = { responses: checked.map((c, i) => record(inputs[i]!, c.run())) };
              }
            } else {
              body = { responses: inputs.map((inp) => record(inp, site.dispatch(inp))) };
            }
            return new RestResult(body, 207, {}, undefined, log);
          },
        },
      ],
    },
  ];
}
