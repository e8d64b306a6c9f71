/**
 * OpenAPI 3 documents generated from the route declarations (legacy `/doc` is
 * 3.0.0, `calendar-core/v1/docs` 3.0.4, as the real servers send), so the
 * documents, the index and the validation can never disagree.
 */
import type { Origin } from './capabilities.ts';
import { argForIndex } from './rest/arg-index.ts';
import type { ArgSchema, RouteDecl, RouteTable } from './rest/types.ts';

function toTemplate(path: string): { template: string; names: string[] } {
  const names: string[] = [];
  const template = path.replace(/\(\?P<([a-zA-Z_]+)>[^)]*\)/g, (_m, n: string) => {
    names.push(n);
    return `{${n}}`;
  });
  return { template, names };
}

function schemaOf(a: ArgSchema): Record<string, unknown> {
  const { required: _r, ...rest } = argForIndex(a);
  return rest;
}

export function openApiDocument(
  site: RouteTable & Origin,
  namespace: string,
  version: '3.0.0' | '3.0.4',
  title: string,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const decl of site.routes.filter((r: RouteDecl) => r.namespace === namespace)) {
    const { template, names } = toTemplate(decl.path);
    const item: Record<string, unknown> = {};
    for (const ep of decl.endpoints) {
      for (const method of ep.methods) {
        const pathParams = names.map((n) => ({
          name: n,
          in: 'path',
          required: true,
          schema: ep.args[n] ? schemaOf(ep.args[n]!) : { type: 'string' },
        }));
        const others = Object.entries(ep.args).filter(([n]) => !names.includes(n));
        const op: Record<string, unknown> = {
          operationId: `${method.toLowerCase()}${template.replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
          ...(ep.summary ? { summary: ep.summary } : {}),
          responses: {
            '200': { description: 'OK' },
            '400': { description: 'Invalid or missing parameters' },
            '401': { description: 'Not signed in' },
            '403': { description: 'Not allowed' },
            '404': { description: 'Not found' },
          },
        };
        if (method === 'GET' || method === 'DELETE') {
          op.parameters = [
            ...pathParams,
            ...others.map(([n, a]) => ({
              name: n,
              in: 'query',
              required: Boolean(a.required),
              ...(a.description ? { description: a.description } : {}),
              schema: schemaOf(a),
            })),
          ];
        } else {
          op.parameters = pathParams;
          const required = others.filter(([, a]) => a.required).map(([n]) => n);
          op.requestBody = {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: Object.fromEntries(others.map(([n, a]) => [n, schemaOf(a)])),
                  ...(required.length ? { required } : {}),
                },
              },
            },
          };
        }
        item[method.toLowerCase()] = op;
      }
    }
    paths[template] = item;
  }
  return {
    openapi: version,
    info: {
      title,
      version: namespace.split('/').pop() ?? '',
      description: `Generated from the routes of ${namespace}.`,
    },
    servers: [{ url: site.restRoot }],
    paths,
    components: { securitySchemes: { applicationPassword: { type: 'http', scheme: 'basic' } } },
  };
}
