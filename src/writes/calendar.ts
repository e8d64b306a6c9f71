/**
 * The calendar writes the resolvers call (schema/writes.graphql): each takes
 * the mutation's arguments, checks what is refused before anything is read
 * or sent (credentials, the interface, the size of a list), plans the jobs
 * (writes/plan.ts) and runs them (writes/engine.ts). Single writes throw
 * their item's error as a GraphQL error; bulk writes answer per item.
 */
import type { Context } from '../context.ts';
import type { CategoryInput, TagInput, UpdateMethod, WriteInterface } from '../generated/graphql.ts';
import { databaseIdOf, type NodeType } from '../mapping/ids.ts';
import { graphField, termPayload, validateTerm } from './inputs.ts';
import { legacyTerm } from '../namespaces/calendar/legacy-mapping.ts';
import type { TermModel } from '../mapping/models.ts';
import { sendWrites } from '../upstream/batch.ts';
import { writeRequest, type Target, type WriteMethod } from '../namespaces/calendar/write-requests.ts';
import { GatewayError } from '../errors.ts';
import { missingObject } from '../upstream/errors.ts';
import { run } from './engine.ts';
import type { AnyInput, AnyModel, KindSpec } from './kinds.ts';
import {
  checkBulkSize,
  chooseApi,
  needAuth,
  createJobs,
  deleteJobs,
  deleteManyApi,
  idMessage,
  needNamespace,
  targetOf,
  updateJobs,
  updateMethod,
  writeJob,
  type Job,
} from './plan.ts';
import { inputError, issuesAt, siteError, toGraphError, unknownError, type ItemResult } from './results.ts';

type Via = WriteInterface | null | undefined;
type MethodArg = UpdateMethod | null | undefined;

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

// ---------------------------------------------------------------------------
// Events, venues, organizers

export async function createOne<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  input: I,
  via: Via,
): Promise<M | null> {
  needAuth(ctx.upstream);
  const api = chooseApi(ctx.site, via);
  const job = writeJob(
    ctx.site,
    spec,
    0,
    { item: ['input'], fields: ['input'], id: ['input'] },
    input,
    null,
    api,
    'POST',
  );
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
): Promise<M | null> {
  needAuth(ctx.upstream);
  const target = singleTarget(id, idType, spec.type);
  const api = chooseApi(ctx.site, via, { slug: 'slug' in target, method });
  const job = writeJob(
    ctx.site,
    spec,
    0,
    { item: ['input'], fields: ['input'], id: ['id'] },
    input,
    target,
    api,
    updateMethod(method),
  );
  return only(await run(ctx, spec, [job], false)).model;
}

export async function deleteOne<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  id: string,
  idType: string | null | undefined,
  force: boolean,
  via: Via,
) {
  needAuth(ctx.upstream);
  const target = singleTarget(id, idType, spec.type);
  const api = chooseApi(ctx.site, via, { slug: 'slug' in target, force, preferLegacy: true });
  const job: Job<I> = { index: 0, itemPath: ['id'], fieldPrefix: [], idPath: ['id'], target, api, method: 'DELETE' };
  if (force) job.query = { force: true };
  const r = only(await run(ctx, spec, [job], false));
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
  const api = chooseApi(ctx.site, via);
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
  const api = chooseApi(ctx.site, via, { method });
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
  const api = deleteManyApi(ctx.site, spec.kind, via, force, atomic);
  return run(ctx, spec, deleteJobs(spec, ids, api, force), atomic);
}

// ---------------------------------------------------------------------------
// Terms (legacy only; never batched unless the site says so)

export async function termWrite(
  ctx: Context,
  kind: 'categories' | 'tags',
  method: WriteMethod,
  id: string | null,
  input: CategoryInput | TagInput | null,
): Promise<{ databaseId: number; model: TermModel }> {
  needAuth(ctx.upstream);
  needNamespace(ctx.site, 'legacy');
  const type: NodeType = kind === 'categories' ? 'Category' : 'Tag';
  let target: Target | null = null;
  if (id !== null) {
    const n = databaseIdOf(id, type);
    if (!n) throw GatewayError.badInput(idMessage(id, type), { arguments: ['id'] });
    target = { id: n };
  }
  if (input) {
    const issues = validateTerm(input, target === null);
    if (issues.length) throw toGraphError(inputError(issuesAt(issues, ['input'])), null);
  }
  const req = writeRequest('legacy', kind, method, target, input ? termPayload(input, kind) : undefined);
  const [o] = await sendWrites(ctx.upstream, ctx.site, [req], {});
  const known = target && 'id' in target ? target.id : null;
  const itemPath = id ? ['id'] : ['input'];
  if (!o!.ok && o!.unknown) {
    const what = `${type.toLowerCase()} ${method === 'POST' && !target ? 'create' : method === 'DELETE' ? 'delete' : 'update'}`;
    throw toGraphError(
      unknownError(
        o!.error,
        itemPath,
        `Outcome unknown: the ${what} was sent but its answer was lost (${o!.error.message}); read the ${type.toLowerCase()}s before sending it again`,
      ),
      known,
    );
  }
  if (!o!.ok) {
    // A missing term: real sites (TEC 5.7.1, 6.15.14) answer a 400 `rest_invalid_param` naming only
    // `id` (the route validates the ID as an argument), which is not a problem of the input.
    if (known !== null) {
      const absent = missingObject(o!.error, { argument: 'id', param: 'id', label: type.toLowerCase(), id: known });
      if (absent !== o!.error) throw absent;
    }
    throw toGraphError(
      siteError(o!.error, itemPath, (param) => ['input', graphField(kind, 'legacy', param, input ?? undefined)]),
      known,
    );
  }
  const model = legacyTerm(o!.body, type);
  const loader = kind === 'categories' ? ctx.loaders.category : ctx.loaders.tag;
  loader.clear(model.databaseId);
  // A deleted term answers as it was: return it, but do not keep it.
  if (method !== 'DELETE') ctx.loaders.prime(model);
  return { databaseId: model.databaseId, model };
}
