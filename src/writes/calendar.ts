/**
 * The writes the resolvers call, for every kind of the engine (kinds.ts: the calendar's events, venues, organizers,
 * categories and tags; posts through writes/posts.ts): each takes the mutation's arguments, checks what is refused
 * before anything is read or sent (credentials, the interface, the size of a list), plans the jobs (writes/plan.ts)
 * and runs them (writes/engine.ts). Single writes throw their item's error as a GraphQL error; bulk writes answer per
 * item.
 */
import type { Context } from '../context.ts';
import type { UpdateMethod, WriteInterface } from '../generated/graphql.ts';
import type { NodeType } from '../mapping/ids.ts';
import type { Target } from '../namespaces/calendar/write-requests.ts';
import type { Iface } from '../namespaces/calendar/vocabulary.ts';
import { GatewayError } from '../errors.ts';
import { run } from './engine.ts';
import type { AnyInput, AnyModel, KindSpec } from './kinds.ts';
import {
  checkBulkSize,
  chooseApi,
  needAuth,
  createJobs,
  deleteJob,
  deleteJobs,
  deleteManyApi,
  idMessage,
  needNamespace,
  targetOf,
  updateJobs,
  updateMethod,
  writeJob,
  type ApiOptions,
} from './plan.ts';
import { toGraphError, type ItemResult } from './results.ts';

type Via = WriteInterface | null | undefined;
type MethodArg = UpdateMethod | null | undefined;

/** Who may send: `site`, any caller (the site's own refusal names the capability); else credentials first. */
export type Caller = 'credentials' | 'site';

/** The one result of a single write: its model, or its error thrown. */
function only<M>(results: ItemResult<M>[]): { databaseId: number | null; model: M | null } {
  const r = results[0]!;
  if (r.error) throw toGraphError(r.error, r.databaseId);
  return r;
}

function singleTarget(id: string, idType: string | null | undefined, type: NodeType): Target {
  const target = targetOf(id, idType, type);
  if (!target) throw GatewayError.badInput(idMessage(id, type, idType === 'SLUG'), { arguments: ['id'] });
  return target;
}

/**
 * The interface a write goes through: the calendar's choice for its posts (plan.ts `chooseApi`), the kind's own for
 * terms and posts, which the site must offer.
 */
function apiOf<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  via: Via,
  opts: ApiOptions = {},
): Iface {
  if (spec.verify === 'views') return chooseApi(ctx.site, via, opts);
  if (spec.needs) needNamespace(ctx.site, spec.needs);
  return spec.api;
}

function begin(ctx: Context, caller: Caller): void {
  if (caller === 'credentials') needAuth(ctx.upstream);
}

export async function createOne<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  input: I,
  via: Via,
  caller: Caller = 'credentials',
): Promise<M | null> {
  begin(ctx, caller);
  const api = apiOf(ctx, spec, via);
  const paths = { item: ['input'], fields: ['input'], id: ['input'] };
  const job = writeJob(ctx.site, spec, 0, paths, input, null, api, 'POST');
  return only(await run(ctx, spec, [job], false)).model;
}

export async function updateOne<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  id: string,
  idType: string | null | undefined,
  input: I,
  method: MethodArg,
  via: Via,
  caller: Caller = 'credentials',
): Promise<M | null> {
  begin(ctx, caller);
  const target = singleTarget(id, idType, spec.type);
  const api = apiOf(ctx, spec, via, { slug: 'slug' in target, method });
  const paths = { item: ['input'], fields: ['input'], id: ['id'] };
  const job = writeJob(ctx.site, spec, 0, paths, input, target, api, updateMethod(method));
  return only(await run(ctx, spec, [job], false)).model;
}

export async function deleteOne<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  id: string,
  idType: string | null | undefined,
  force: boolean,
  via: Via,
  caller: Caller = 'credentials',
): Promise<{ databaseId: number; permanently: boolean; model: M | null }> {
  begin(ctx, caller);
  const target = singleTarget(id, idType, spec.type);
  const api = apiOf(ctx, spec, via, { slug: 'slug' in target, force, preferLegacy: true });
  const job = deleteJob<I>(0, { item: ['id'], fields: [], id: ['id'] }, target, api, force);
  const r = only(await run(ctx, spec, [{ job, error: null }], false));
  return { databaseId: r.databaseId ?? 0, permanently: force, model: r.model };
}

export async function createMany<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  inputs: readonly I[],
  atomic: boolean,
  via: Via,
): Promise<ItemResult<M>[]> {
  needAuth(ctx.upstream);
  checkBulkSize(inputs.length, 'inputs');
  const api = apiOf(ctx, spec, via);
  return run(ctx, spec, createJobs(ctx.site, spec, inputs, api), atomic);
}

export async function updateMany<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  items: readonly { id: string; input: I }[],
  atomic: boolean,
  method: MethodArg,
  via: Via,
): Promise<ItemResult<M>[]> {
  needAuth(ctx.upstream);
  checkBulkSize(items.length, 'inputs');
  const api = apiOf(ctx, spec, via, { method });
  return run(ctx, spec, updateJobs(ctx.site, spec, items, api, updateMethod(method)), atomic);
}

export async function deleteMany<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  ids: readonly string[],
  force: boolean,
  atomic: boolean,
  via: Via,
): Promise<ItemResult<M>[]> {
  needAuth(ctx.upstream);
  checkBulkSize(ids.length, 'ids');
  const api = spec.verify === 'views' ? deleteManyApi(ctx.site, spec, via, force, atomic) : apiOf(ctx, spec, via);
  return run(ctx, spec, deleteJobs(spec, ids, api, force), atomic);
}
