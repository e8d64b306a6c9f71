/**
 * Views, embed, notices, API documents, the onboarding wizard and aggregator
 * callbacks (schema/views.graphql, schema/imports.graphql), plus the
 * automation connectors (resolvers/automation.ts). Thin: args ->
 * upstream/calendar-extras.ts -> mapping.
 */
import { z } from 'zod';
import type { MutationResolvers, QueryResolvers, Resolvers } from '../generated/graphql.ts';
import {
  embedQuery, importBatchResult, importStateResult, occurrencesNotices, viewHtmlOf, viewNonces, wizardBody, wizardResult,
} from '../mapping/views.ts';
import {
  apiDocument, calendarEmbed, deleteOccurrencesNotice, importBatch, importState, readOccurrencesNotices, saveWizard, viewHtml,
} from '../upstream/calendar-extras.ts';
import { GatewayError } from '../errors.ts';
import { AutomationA, AutomationB, automationMutation, automationQuery } from './automation.ts';

// Every request goes through the operation's session, which refuses routes whose
// namespace the site lacks (NAMESPACE_UNAVAILABLE naming it): no checks here.

/** `calendarView`'s `input.viewData` (a JSON scalar): an object of query vars, or nothing. */
const ViewData = z.record(z.string(), z.unknown()).nullish();

const query: QueryResolvers = {
  calendarView: async (_p, { input, method }, ctx) => {
    const viewData = ViewData.safeParse(input.viewData);
    if (!viewData.success) {
      throw GatewayError.badInput('calendarView: input.viewData must be an object of query vars', { arguments: ['input.viewData'] });
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
    if (html === null) throw new GatewayError('UPSTREAM_BAD_RESPONSE', 'Bad upstream response (calendar/views/v2/html): no html.');
    return { html, nonces: viewNonces(html), raw: body };
  },
  calendarEmbed: async (_p, { nonce, input }, ctx) => {
    return calendarEmbed(ctx.upstream, nonce, embedQuery(input));
  },
  occurrencesNotices: async (_p, { eventId }, ctx) => {
    return occurrencesNotices(await readOccurrencesNotices(ctx.upstream, eventId));
  },
  apiDocument: async (_p, { api }, ctx) => {
    return apiDocument(ctx.upstream, api);
  },
};

const mutation: MutationResolvers = {
  clearOccurrencesNotice: async (_p, { eventId }, ctx) => {
    await deleteOccurrencesNotice(ctx.upstream, eventId);
    return true;
  },
  saveOnboardingWizard: async (_p, { input }, ctx) => {
    const res = await saveWizard(ctx.upstream, wizardBody(input));
    return wizardResult(res.status, res.body);
  },
  reportImportBatch: async (_p, { input }, ctx) => {
    const body: Record<string, unknown> = {
      batch_hash: input.batchHash,
      status: { data: input.data, batch: input.batch },
      percentage_complete: input.percentageComplete,
    };
    if (input.interval != null) body.interval = input.interval;
    if (input.events != null) body.events = input.events;
    return importBatchResult(await importBatch(ctx.upstream, input.importId, body));
  },
  reportImportState: async (_p, { input }, ctx) => {
    return importStateResult(await importState(ctx.upstream, input.importId, {
      batch_hash: input.batchHash,
      status: input.status.toLowerCase(),
      message: input.message,
      message_slug: input.messageSlug,
      percentage_complete: input.percentageComplete,
    }));
  },
};

export const extrasResolvers: Resolvers = {
  Query: { ...query, ...automationQuery },
  Mutation: { ...mutation, ...automationMutation },
  AutomationA,
  AutomationB,
};
