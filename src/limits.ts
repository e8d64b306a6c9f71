/**
 * Abuse limits. Depth and aliases are GraphQL validation rules (they need only
 * the document); the cost estimate and the argument sizes need the variables,
 * so they are functions of (schema, document, operation, variables) that the
 * limits plugin (`plugins/limits.ts`) runs once the operation is resolved.
 * Token count is capped at parse time through Apollo's `parseOptions.maxTokens`.
 * Every refusal is BAD_USER_INPUT with the limit, so callers can see what to change.
 *
 * Introspection fields (`__schema`, `__type`, ...) count like any other field:
 * a document of 50 aliased `__schema` selections is refused here, before it
 * builds megabytes of answer.
 */
import {
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  getVariableValues,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isObjectType,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type FragmentSpreadNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
  type InlineFragmentNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { GatewayError } from './errors.ts';
import { introspectionOffRule } from './introspection.ts';

type Fragments = Map<string, FragmentDefinitionNode>;
export type Variables = Record<string, unknown>;

function fragmentsOf(doc: DocumentNode): Fragments {
  return new Map(
    doc.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
}

function depthOf(set: SelectionSetNode | undefined, fragments: Fragments, seen: Set<string>): number {
  if (!set) return 0;
  let max = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      // `__` fields count too: `__schema { types { fields { type { ... } } } }` is as deep as it looks.
      max = Math.max(max, sel.selectionSet ? 1 + depthOf(sel.selectionSet, fragments, seen) : 1);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      max = Math.max(max, depthOf(sel.selectionSet, fragments, seen));
    } else {
      const name = sel.name.value;
      if (seen.has(name)) continue;
      const frag = fragments.get(name);
      max = Math.max(max, depthOf(frag?.selectionSet, fragments, new Set([...seen, name])));
    }
  }
  return max;
}

/** The depth of an operation's selections (a leaf field is depth 1), introspection included. */
export function operationDepth(doc: DocumentNode, op: OperationDefinitionNode): number {
  return depthOf(op.selectionSet, fragmentsOf(doc), new Set());
}

export function maxDepthRule(limit: number) {
  return (ctx: ValidationContext): ASTVisitor => ({
    OperationDefinition(op) {
      const depth = operationDepth(ctx.getDocument(), op);
      if (depth > limit) {
        ctx.reportError(
          new GraphQLError(`Query depth ${depth} exceeds the limit of ${limit}.`, {
            nodes: [op],
            extensions: { code: 'BAD_USER_INPUT', limit: 'maxDepth', max: limit },
          }),
        );
      }
    },
  });
}

/**
 * The gateway's own validation rules, beside GraphQL's: depth, aliases, and
 * introspection when it is off. Apollo runs them for /graphql, and the
 * subscription transports (subscriptions/operation.ts) after GraphQL's.
 */
export function gatewayRules(
  limits: { maxDepth: number; maxAliases: number },
  introspection: boolean,
): ValidationRule[] {
  return [
    maxDepthRule(limits.maxDepth),
    maxAliasesRule(limits.maxAliases),
    ...(introspection ? [] : [introspectionOffRule]),
  ];
}

/** Aliased fields in the document, `__` fields included (`a1: __schema { ... }` is an alias like any other). */
export function maxAliasesRule(limit: number) {
  return (ctx: ValidationContext): ASTVisitor => {
    let count = 0;
    let reported = false;
    return {
      Field(node) {
        if (!node.alias) return;
        count += 1;
        if (count > limit && !reported) {
          reported = true;
          ctx.reportError(
            new GraphQLError(`The document uses more than ${limit} aliases.`, {
              nodes: [node],
              extensions: { code: 'BAD_USER_INPUT', limit: 'maxAliases', max: limit },
            }),
          );
        }
      },
    };
  };
}

// ---------------------------------------------------------------------------
// What the plugin needs from a resolved operation

/**
 * What depends only on an operation, computed once for it: the pipeline keeps one
 * parsed document per query text (pipeline/document.ts), so every request of
 * the same text brings the same operation node back, and the walks of the
 * limits and of redaction need not be repeated for it (about 0.07 ms of a W1
 * request). Only operations without variables are kept: the answer of one
 * with variables depends on them, and variables may carry a caller's secret,
 * which nothing keeps beyond its request.
 */
export function perOperation<T>(
  compute: (
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Variables | undefined,
  ) => T,
) {
  // The operation node decides its document; the schema is the server's one.
  const memo = new WeakMap<OperationDefinitionNode, T>();
  return (
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Variables | undefined,
  ): T => {
    if (operation.variableDefinitions?.length) return compute(schema, document, operation, variables);
    if (memo.has(operation)) return memo.get(operation)!;
    const value = compute(schema, document, operation, variables);
    memo.set(operation, value);
    return value;
  };
}

/**
 * An operation with its variables coerced (defaults applied); null when they do not coerce (execution reports that).
 */
export interface ResolvedOperation {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  fragments: Fragments;
  variables: Variables;
}

export function resolveOperation(
  schema: GraphQLSchema,
  doc: DocumentNode,
  operation: OperationDefinitionNode,
  rawVariables: Variables | undefined,
): ResolvedOperation | null {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables ?? {}, { maxErrors: 1 });
  if (coerced.errors) return null;
  return { schema, operation, fragments: fragmentsOf(doc), variables: coerced.coerced };
}

function rootType(r: ResolvedOperation): GraphQLNamedType | null | undefined {
  const { schema, operation } = r;
  return operation.operation === 'query'
    ? schema.getQueryType()
    : operation.operation === 'mutation'
      ? schema.getMutationType()
      : schema.getSubscriptionType();
}

function included(node: FieldNode | FragmentSpreadNode | InlineFragmentNode, variables: Variables): boolean {
  try {
    if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
    if (getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if === false) return false;
  } catch {
    // A bad directive value is execution's to report; count the selection.
  }
  return true;
}

/** The definition of a selected field, the meta fields (`__schema`, `__type`, `__typename`) included. */
function fieldDef(
  schema: GraphQLSchema,
  parent: GraphQLNamedType,
  name: string,
): GraphQLField<unknown, unknown> | undefined {
  if (name === '__typename') return TypeNameMetaFieldDef;
  if (parent === schema.getQueryType()) {
    if (name === '__schema') return SchemaMetaFieldDef;
    if (name === '__type') return TypeMetaFieldDef;
  }
  // Only output types reach here (selections are validated); input objects have no selectable fields.
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}

function argsOf(def: GraphQLField<unknown, unknown>, node: FieldNode, variables: Variables): Record<string, unknown> {
  try {
    return getArgumentValues(def, node, variables);
  } catch {
    return {};
  }
}

/**
 * Calls `visit` for every field selected in the operation (fragments walked
 * where they are spread; the same fragment spread twice is visited twice, as
 * execution would), with its parent type, definition and argument values.
 */
export function forEachField(
  r: ResolvedOperation,
  visit: (
    field: FieldNode,
    def: GraphQLField<unknown, unknown>,
    args: Record<string, unknown>,
    parent: GraphQLNamedType,
    descend: (set: SelectionSetNode | undefined) => void,
  ) => void,
): void {
  const root = rootType(r);
  if (!root) return;
  const visitSet = (set: SelectionSetNode | undefined, type: GraphQLNamedType, seen: ReadonlySet<string>): void => {
    if (!set) return;
    for (const sel of set.selections) {
      if (!included(sel, r.variables)) continue;
      if (sel.kind === Kind.FIELD) {
        const def = fieldDef(r.schema, type, sel.name.value);
        if (!def) continue;
        const named = getNamedType(def.type);
        visit(sel, def, argsOf(def, sel, r.variables), type, (child) => visitSet(child, named, seen));
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const cond = sel.typeCondition ? r.schema.getType(sel.typeCondition.name.value) : type;
        if (cond) visitSet(sel.selectionSet, cond, seen);
      } else {
        const frag = r.fragments.get(sel.name.value);
        const cond = frag && r.schema.getType(frag.typeCondition.name.value);
        if (frag && cond && !seen.has(frag.name.value))
          visitSet(frag.selectionSet, cond, new Set([...seen, frag.name.value]));
      }
    }
  };
  visitSet(r.operation.selectionSet, root, new Set());
}

// ---------------------------------------------------------------------------
// Cost

export interface CostOptions {
  /** Page size of a connection without `first`/`last` (config `limits.defaultPageSize`). */
  defaultPageSize: number;
  /** What a plain list field multiplies the cost below it by: 5. */
  listFactor?: number;
  /** What a list inside introspection multiplies by: 10 (schemas have hundreds of types, each with fields). */
  introspectionListFactor?: number;
  /**
   * What one `__schema` selection costs before its lists: 100. Its answer is built from
   * the whole schema (here ~230 types, ~325 KB in full), whatever little is selected, so
   * a document holds at most a few: GraphiQL's one (272) passes, 50 aliased copies
   * (7.7 MB of answer) cost 5000 and more.
   */
  schemaCost?: number;
}

const isConnectionType = (t: GraphQLNamedType): boolean => t.name.endsWith('Connection');
const isEdgeType = (t: GraphQLNamedType): boolean => t.name.endsWith('Edge');
const isIntrospectionType = (t: GraphQLNamedType): boolean => t.name.startsWith('__');

/**
 * An estimate of the upstream list requests an operation can cause, with its
 * variables known:
 * - a connection field (a `*Connection` with `first`) costs one list request
 *   per parent object, and multiplies what is below it by its page size
 *   (`first`, else `last`, else `defaultPageSize`);
 * - `nodes { … }`, `edges { node { … } }` and `pageInfo` inside a connection
 *   are the same page: they cost the same, whichever form is used;
 * - `nodes(ids:)` costs one per ID (and multiplies below by their number),
 *   and so does federation's `_entities(representations:)` per representation;
 *   `node(id:)` one;
 * - other list fields multiply what is below them by `listFactor`;
 * - fragments count where spread, every alias counts, `@skip`/`@include` are applied;
 * - introspection is charged too: `__schema` costs `schemaCost`, `__type`
 *   one, and every list inside them costs one per parent and multiplies by
 *   `introspectionListFactor`. GraphQL's standard introspection query costs
 *   272; four of them in one document do not pass the default limit.
 * Nested connections are what make a short query expensive
 * (`events { venues { events { ... } } }`), and this counts exactly that.
 */
export function operationCost(r: ResolvedOperation, opts: CostOptions): number {
  const listFactor = opts.listFactor ?? 5;
  const introspectionListFactor = opts.introspectionListFactor ?? 10;
  const schemaCost = opts.schemaCost ?? 100;
  return walkOperation(r, ({ name, args, paged, parent, isList, mult }) => {
    if (name === '__schema') return { add: mult * schemaCost, below: mult };
    if (name === '__type') return { add: mult, below: mult };
    if (isIntrospectionType(parent))
      return isList ? { add: mult, below: mult * introspectionListFactor } : { add: 0, below: mult };
    if (paged) return { add: mult, below: mult * Math.max(1, pageSize(args, opts.defaultPageSize)) };
    // `nodes`, `edges`, `node`, `pageInfo`: the page the connection already counted.
    if (isConnectionType(parent) || isEdgeType(parent)) return { add: 0, below: mult };
    const ids = idsOf(name, args);
    if (ids) return { add: mult * ids.length, below: mult * Math.max(1, ids.length) };
    if (name === 'node' && 'id' in args) return { add: mult, below: mult };
    return { add: 0, below: isList ? mult * listFactor : mult };
  });
}

/** The site's largest page the gateway asks for (the calendar's legacy lists answer at most 50). */
export const SITE_PAGE = 50;

/**
 * An estimate of the requests an operation sends the site, with its variables
 * known, for the budget check before execution (UPSTREAM_BUDGET,
 * UPSTREAM_BUDGET_ANONYMOUS): the most it may send, the lists being as long as
 * their page sizes allow and every parent's list its own request.
 * - a connection (`*Connection` with `first`) costs, per parent object, one
 *   request per `SITE_PAGE` items of its page size (`first`, else `last`,
 *   else `defaultPageSize`), and has that many objects below it;
 * - `nodes(ids:)` and federation's `_entities` read their objects in pages of
 *   `SITE_PAGE` per parent, `node(id:)` one request;
 * - a plain list of related objects (an event's venues or organizers) counts
 *   as one object per parent, and objects that come embedded or batched
 *   (DataLoaders) cost nothing more; introspection is answered by the gateway.
 * So the nested lists that amplify (`events { venues { events } }`) are what
 * it counts; a single read's few lookups are left to the runtime budget,
 * which stays the backstop for whatever the estimate misses.
 */
export function siteRequests(r: ResolvedOperation, opts: Pick<CostOptions, 'defaultPageSize'>): number {
  const pages = (n: number) => Math.max(1, Math.ceil(n / SITE_PAGE));
  return walkOperation(r, ({ name, args, paged, parent, mult }) => {
    if (name.startsWith('__') || isIntrospectionType(parent)) return { add: 0, below: mult };
    if (paged) {
      const size = Math.max(1, pageSize(args, opts.defaultPageSize));
      return { add: mult * pages(size), below: mult * size };
    }
    if (isConnectionType(parent) || isEdgeType(parent)) return { add: 0, below: mult };
    const ids = idsOf(name, args);
    if (ids) return { add: mult * pages(ids.length), below: mult * Math.max(1, ids.length) };
    if (name === 'node' && 'id' in args) return { add: mult, below: mult };
    return { add: 0, below: mult };
  });
}

/**
 * `nodes(ids:)`'s IDs, or `_entities(representations:)`'s representations (federation.ts reads them as `nodes` reads
 * IDs).
 */
function idsOf(name: string, args: Record<string, unknown>): unknown[] | null {
  if (name === 'nodes' && Array.isArray(args.ids)) return args.ids;
  if (name === '_entities' && Array.isArray(args.representations)) return args.representations;
  return null;
}

interface FieldAt {
  name: string;
  args: Record<string, unknown>;
  named: GraphQLNamedType;
  /** A connection the caller pages (`first`/`last`): a list of its own per parent. */
  paged: boolean;
  parent: GraphQLNamedType;
  isList: boolean;
  /** How many times the field is resolved (the objects above it). */
  mult: number;
}

/**
 * Walks the operation's fields (fragments where spread, aliases each,
 * `@skip`/`@include` applied), summing what `rule` adds for each field and
 * multiplying the fields below it as `rule` says.
 */
function walkOperation(r: ResolvedOperation, rule: (f: FieldAt) => { add: number; below: number }): number {
  let total = 0;
  const walkSet = (
    set: SelectionSetNode | undefined,
    type: GraphQLNamedType,
    mult: number,
    seen: ReadonlySet<string>,
  ): void => {
    if (!set) return;
    for (const sel of set.selections) {
      if (!included(sel, r.variables)) continue;
      if (sel.kind === Kind.FIELD) {
        const def = fieldDef(r.schema, type, sel.name.value);
        if (!def || sel.name.value === '__typename') continue;
        const named = getNamedType(def.type);
        const args = argsOf(def, sel, r.variables);
        const paged = isConnectionType(named) && def.args.some((a) => a.name === 'first');
        const { add, below } = rule({
          name: sel.name.value,
          args,
          named,
          parent: type,
          paged,
          isList: isListType(getNullableType(def.type)),
          mult,
        });
        total += add;
        walkSet(sel.selectionSet, named, below, new Set());
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const cond = sel.typeCondition ? r.schema.getType(sel.typeCondition.name.value) : type;
        if (cond) walkSet(sel.selectionSet, cond, mult, seen);
      } else {
        const frag = r.fragments.get(sel.name.value);
        const cond = frag && r.schema.getType(frag.typeCondition.name.value);
        if (frag && cond && !seen.has(frag.name.value))
          walkSet(frag.selectionSet, cond, mult, new Set([...seen, frag.name.value]));
      }
    }
  };
  const root = rootType(r);
  if (root) walkSet(r.operation.selectionSet, root, 1, new Set());
  return total;
}

function pageSize(args: Record<string, unknown>, fallback: number): number {
  if (typeof args.first === 'number') return args.first;
  if (typeof args.last === 'number') return args.last;
  return fallback;
}

export function costError(cost: number, limit: number): GatewayError {
  return GatewayError.badInput(
    `Query cost ${cost} exceeds the limit of ${limit}: it may need about ${cost} upstream list requests. Ask for fewer nested connections or smaller pages.`,
    {
      limit: 'maxCost',
      cost,
      max: limit,
    },
  );
}

export function sizeError(v: SizeViolation): GatewayError {
  return GatewayError.badInput(v.message, { arguments: [v.argument], limit: v.limit, max: v.max });
}

// ---------------------------------------------------------------------------
// Argument sizes

/** Maximum sizes of argument values, checked before anything is sent upstream. */
export interface SizeLimits {
  /** `first`, `last`, `perPage`, `limit`. */
  maxPageSize: number;
  /** Items of a list of IDs, slugs, statuses... (`where.ids`, `nodes(ids:)`, `venueIds`). */
  maxListItems: number;
  /** `search`, `near`, `query`, `keyword`, `keyphrase`. */
  maxSearchLength: number;
  /** Any `slug`/`*Slug`/`*Slugs` string. */
  maxSlugLength: number;
  /** Any `url`/`*Url`/`*Urls`, `website`, `permalink`, `origin`, `image`. */
  maxUrlLength: number;
  /**
   * Any other string or ID argument of a query (reads travel in URLs; mutation bodies are bounded by the request size).
   */
  maxArgumentLength: number;
}

export interface SizeViolation {
  /** The field the argument belongs to (`events`, `venue.events`). */
  field: string;
  /** The argument path, `where.search`, `ids`, `inputs.3.slug`. */
  argument: string;
  /** Which limit (`maxSearchLength`, ...), its value, and what arrived. */
  limit: keyof SizeLimits;
  max: number;
  actual: number;
  message: string;
}

const PAGE_SIZE_NAMES = new Set(['first', 'last', 'perPage', 'limit']);
const SEARCH_NAMES = new Set(['search', 'near', 'query', 'keyword', 'keyphrase']);
const SLUG_NAME = /(^slug|Slug|Slugs)$|^slugs$/;
const URL_NAME = /(^url|Url|Urls)$|^(urls|website|permalink|origin|image)$/;

function stringLimit(name: string, operation: OperationDefinitionNode['operation']): keyof SizeLimits | null {
  if (SEARCH_NAMES.has(name)) return 'maxSearchLength';
  if (SLUG_NAME.test(name)) return 'maxSlugLength';
  if (URL_NAME.test(name)) return 'maxUrlLength';
  return operation === 'query' ? 'maxArgumentLength' : null;
}

/**
 * The first argument value of the operation that exceeds its size limit, or
 * null. One generic walk over the variables-resolved arguments of every
 * selected field and every input object inside them, so no resolver has to
 * remember it and a new `where` filter is covered the day it is added.
 */
export function oversizedArgument(r: ResolvedOperation, limits: SizeLimits): SizeViolation | null {
  let found: SizeViolation | null = null;
  const op = r.operation.operation;
  const check = (fieldName: string, value: unknown, type: GraphQLInputType, path: string[], name: string): void => {
    if (found || value === null || value === undefined) return;
    const t = getNullableType(type);
    const at = path.join('.');
    if (isListType(t)) {
      const items = Array.isArray(value) ? value : [value];
      if (isLeafType(getNamedType(t.ofType)) && items.length > limits.maxListItems) {
        found = {
          field: fieldName,
          argument: at,
          limit: 'maxListItems',
          max: limits.maxListItems,
          actual: items.length,
          message: `${at} of ${fieldName} has ${items.length} items; at most ${limits.maxListItems} are accepted.`,
        };
        return;
      }
      items.forEach((v, i) =>
        check(fieldName, v, t.ofType, isLeafType(getNamedType(t.ofType)) ? path : [...path, String(i)], name),
      );
      return;
    }
    if (isInputObjectType(t)) {
      if (typeof value !== 'object') return;
      for (const f of Object.values(t.getFields()))
        check(fieldName, (value as Record<string, unknown>)[f.name], f.type, [...path, f.name], f.name);
      return;
    }
    const leaf = getNamedType(t).name;
    if (typeof value === 'string' && (leaf === 'String' || leaf === 'ID')) {
      const limit = stringLimit(name, op);
      if (limit && value.length > limits[limit]) {
        found = {
          field: fieldName,
          argument: at,
          limit,
          max: limits[limit],
          actual: value.length,
          message: `${at} of ${fieldName} is ${value.length} characters long; at most ${limits[limit]} are accepted.`,
        };
      }
    } else if (
      typeof value === 'number' &&
      leaf === 'Int' &&
      PAGE_SIZE_NAMES.has(name) &&
      path.length === 1 &&
      value > limits.maxPageSize
    ) {
      found = {
        field: fieldName,
        argument: at,
        limit: 'maxPageSize',
        max: limits.maxPageSize,
        actual: value,
        message: `${at} must be at most ${limits.maxPageSize} (the page-size cap; ${fieldName} asked for ${value}); page through larger lists with after/before.`,
      };
    }
  };
  forEachField(r, (field, def, args, parent, descend) => {
    if (found) return;
    const fieldName =
      isIntrospectionType(parent) || parent === r.schema.getQueryType() || parent === r.schema.getMutationType()
        ? field.name.value
        : `${parent.name}.${field.name.value}`;
    for (const a of def.args) check(fieldName, args[a.name], a.type, [a.name], a.name);
    descend(field.selectionSet);
  });
  return found;
}
