/** `Query.calendarView`: the view's input checked and sent (routes.ts), its HTML and nonces read (mapping.ts). */
import { z } from 'zod';
import type { Resolvers } from '../../generated/graphql.ts';
import { GatewayError } from '../../errors.ts';
import { viewHtmlOf, viewNonces } from './mapping.ts';
import { viewHtml } from './routes.ts';

/** `calendarView`'s `input.viewData` (a JSON scalar): an object of query vars, or nothing. */
const ViewData = z.record(z.string(), z.unknown()).nullish();

export const viewsResolvers: Resolvers = {
  Query: {
    calendarView: async (_p, { input, method }, ctx) => {
      const viewData = ViewData.safeParse(input.viewData);
      if (!viewData.success) {
        throw GatewayError.badInput('calendarView: input.viewData must be an object of query vars', {
          arguments: ['input.viewData'],
        });
      }
      const body = await viewHtml(ctx.upstream, method ?? 'GET', {
        u: input.url,
        view: input.view ?? undefined,
        tvn1: input.tvn1 ?? undefined,
        tvn2: input.tvn2 ?? undefined,
        view_data: viewData.data ?? undefined,
        action: input.action ?? undefined,
      });
      const html = viewHtmlOf(body);
      if (html === null)
        throw new GatewayError('UPSTREAM_BAD_RESPONSE', 'Bad upstream response (calendar/views/v2/html): no html.');
      return { html, nonces: viewNonces(html), raw: body };
    },
  },
};
