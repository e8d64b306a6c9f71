/**
 * Generates the WPGraphQL-compatible graph's SDL (schema-wpgraphql/schema.graphql) and the list of what it leaves
 * out (schema-wpgraphql/outside.json) from WPGraphQL's own schema, printed from introspection of WPGraphQL 1.8.6 +
 * WPGraphQL Yoast SEO 4.18.1 + ql-events 0.1.0. The subset is declared here, type by type, and never edited by
 * hand in the output: every kept type, field, argument, enum and input keeps WPGraphQL's names, descriptions and types.
 *
 * - Objects and interfaces keep the fields listed in KEEP, plus every field of the kept interfaces they implement
 *   (so an object always satisfies its interfaces); interfaces outside KEEP are dropped from `implements`.
 * - Input objects, enums and scalars a kept field or argument reaches are kept whole, so a front end's `where:` still
 *   validates; what the resolvers do not apply is refused at run time, naming the argument.
 * - An output type reached but not in KEEP is an error here: the subset is closed by construction.
 *
 * Usage: tsx scripts/wpgraphql-subset.ts [path/to/wpgraphql/schema.graphql] [--check]
 * (default: ../shared/reference/wpgraphql/schema.graphql beside the project). `--check` fails when the files in the
 * repository differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  Kind,
  buildASTSchema,
  parse,
  printSchema,
  validateSchema,
  type DefinitionNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type InterfaceTypeDefinitionNode,
  type NamedTypeNode,
  type ObjectTypeDefinitionNode,
  type TypeNode,
} from 'graphql';

const OUT_DIR = fileURLToPath(new URL('../schema-wpgraphql/', import.meta.url));

/** The fields every content node of the subset serves (WPGraphQL's ContentNode, as far as REST answers carry it). */
const CONTENT = ['id', 'databaseId', 'uri', 'slug', 'status', 'date', 'dateGmt', 'modified', 'modifiedGmt', 'link'];
const CONTENT_EXTRA = ['guid', 'contentTypeName', 'isContentNode', 'isTermNode', 'seo'];
const TITLED = ['title', 'content', 'excerpt', 'author', 'authorId', 'authorDatabaseId'];
const FEATURED = ['featuredImage', 'featuredImageId', 'featuredImageDatabaseId'];
const TERM = ['id', 'databaseId', 'uri', 'name', 'slug', 'description', 'count', 'link', 'taxonomyName'];
const TERM_EXTRA = ['isContentNode', 'isTermNode'];
const CONNECTION = ['edges', 'nodes', 'pageInfo'];
/** The Yoast fields of posts' and terms' `seo` both. */
const SEO = [
  'title',
  'metaDesc',
  'canonical',
  'metaRobotsNoindex',
  'metaRobotsNofollow',
  'opengraphTitle',
  'opengraphDescription',
  'opengraphType',
  'opengraphUrl',
  'opengraphSiteName',
  'twitterTitle',
  'twitterDescription',
  'breadcrumbs',
  'schema',
  'fullHead',
];
const EDGE = ['cursor', 'node'];

/** The payloads of a kind's create, update and delete mutations, with WPGraphQL's fields. */
function payloads(type: string, field: string): Record<string, readonly string[]> {
  return {
    [`Create${type}Payload`]: [field, 'clientMutationId'],
    [`Update${type}Payload`]: [field, 'clientMutationId'],
    [`Delete${type}Payload`]: [field, 'deletedId', 'clientMutationId'],
  };
}

/** Kept output types and their fields (interfaces' fields are added to the objects implementing them). */
export const KEEP: Record<string, readonly string[]> = {
  RootQuery: [
    'node',
    'nodeByUri',
    'post',
    'posts',
    'category',
    'categories',
    'tag',
    'tags',
    'user',
    'event',
    'events',
    'venue',
    'venues',
    'organizer',
    'organizers',
    'eventsCategory',
    'eventsCategories',
    'page',
    'pages',
    'contentNode',
    'contentNodes',
    'mediaItem',
    'mediaItems',
    'users',
    'terms',
    'generalSettings',
    'readingSettings',
    'contentType',
    'contentTypes',
  ],
  // WPGraphQL's and ql-events' writes of the kinds the write engine knows (src/wpgraphql/mutations.ts).
  RootMutation: [
    'createPost',
    'updatePost',
    'deletePost',
    'createEvent',
    'updateEvent',
    'deleteEvent',
    'createVenue',
    'updateVenue',
    'deleteVenue',
    'createOrganizer',
    'updateOrganizer',
    'deleteOrganizer',
  ],
  ...payloads('Post', 'post'),
  ...payloads('Event', 'event'),
  ...payloads('Venue', 'venue'),
  ...payloads('Organizer', 'organizer'),
  Node: ['id'],
  UniformResourceIdentifiable: ['id', 'uri', 'isContentNode', 'isTermNode'],
  DatabaseIdentifier: ['databaseId'],
  ContentNode: [...CONTENT, ...CONTENT_EXTRA],
  NodeWithTitle: ['title', 'seo'],
  NodeWithContentEditor: ['content'],
  NodeWithExcerpt: ['excerpt'],
  NodeWithAuthor: ['author', 'authorId', 'authorDatabaseId'],
  NodeWithFeaturedImage: [...CONTENT, ...CONTENT_EXTRA, ...FEATURED],
  TermNode: [...TERM, ...TERM_EXTRA],
  HierarchicalTermNode: ['parentDatabaseId', 'parentId'],
  HierarchicalContentNode: ['parent', 'parentDatabaseId', 'parentId'],
  NodeWithPageAttributes: ['menuOrder'],

  Post: [...CONTENT, ...TITLED, ...FEATURED, 'postId', 'isSticky', 'commentStatus', 'pingStatus', 'categories', 'tags'],
  Page: [
    ...CONTENT,
    'title',
    'content',
    'author',
    'authorId',
    'authorDatabaseId',
    ...FEATURED,
    'pageId',
    'isFrontPage',
    'isPostsPage',
    'commentStatus',
  ],
  Category: [...TERM, 'categoryId', 'parentDatabaseId', 'parentId', 'seo', 'posts'],
  Tag: [...TERM, 'tagId', 'seo', 'posts'],
  User: [
    'posts',
    'id',
    'databaseId',
    'userId',
    'uri',
    'name',
    'slug',
    'description',
    'url',
    'isContentNode',
    'isTermNode',
  ],
  MediaItem: [
    ...CONTENT,
    'title',
    'author',
    'authorId',
    'authorDatabaseId',
    'mediaItemId',
    'sourceUrl',
    'mediaItemUrl',
    'altText',
    'caption',
    'description',
    'mimeType',
    'mediaType',
    'mediaDetails',
  ],
  MediaDetails: ['file', 'width', 'height', 'sizes'],
  MediaSize: ['name', 'file', 'width', 'height', 'mimeType', 'sourceUrl'],
  GeneralSettings: [
    'title',
    'description',
    'url',
    'timezone',
    'dateFormat',
    'timeFormat',
    'language',
    'startOfWeek',
    'email',
  ],
  ReadingSettings: ['postsPerPage', 'showOnFront', 'pageOnFront', 'pageForPosts'],
  ContentType: [
    'id',
    'name',
    'label',
    'description',
    'hierarchical',
    'hasArchive',
    'restBase',
    'uri',
    'isContentNode',
    'isTermNode',
    'isFrontPage',
    'isPostsPage',
  ],

  Event: [
    ...CONTENT,
    ...TITLED,
    ...FEATURED,
    'eventId',
    'startDate',
    'endDate',
    'duration',
    'allDay',
    'timezone',
    'timezoneAbbr',
    'cost',
    'costMin',
    'costMax',
    'currencySymbol',
    'currencyPosition',
    'url',
    'phone',
    'featured',
    'hideFromUpcoming',
    'showMap',
    'showMapLink',
    'origin',
    'venue',
    'organizers',
    'eventsCategories',
    'tags',
    'linkedData',
  ],
  Venue: [
    ...CONTENT,
    'title',
    'content',
    'excerpt',
    'venueId',
    'address',
    'city',
    'country',
    'province',
    'state',
    'stateProvince',
    'zip',
    'phone',
    'url',
    'showMap',
    'showMapLink',
    'linkedData',
  ],
  Organizer: [...CONTENT, 'title', 'content', 'excerpt', 'organizerId', 'email', 'phone', 'website', 'linkedData'],
  EventsCategory: [...TERM, 'eventsCategoryId', 'parentDatabaseId', 'parentId', 'seo', 'events'],

  EventLinkedData: ['type', 'name', 'description', 'url', 'startDate', 'endDate', 'location', 'organizer'],
  VenueLinkedData: ['type', 'name', 'description', 'url', 'telephone', 'sameAs', 'address'],
  OrganizerLinkedData: ['type', 'name', 'description', 'url', 'telephone', 'email', 'sameAs'],
  AddressLinkedData: ['type', 'streetAddress', 'addressLocality', 'addressRegion', 'postalCode', 'addressCountry'],

  PostTypeSEO: [
    ...SEO,
    'opengraphAuthor',
    'opengraphPublisher',
    'opengraphPublishedTime',
    'opengraphModifiedTime',
    'readingTime',
  ],
  TaxonomySEO: SEO,
  SEOTaxonomySchema: ['raw'],
  SEOPostTypeBreadcrumbs: ['text', 'url'],
  SEOPostTypeSchema: ['pageType', 'articleType', 'raw'],

  WPPageInfo: ['hasNextPage', 'hasPreviousPage', 'startCursor', 'endCursor'],
  RootQueryToPostConnection: CONNECTION,
  RootQueryToPostConnectionEdge: EDGE,
  RootQueryToCategoryConnection: CONNECTION,
  RootQueryToCategoryConnectionEdge: EDGE,
  RootQueryToTagConnection: CONNECTION,
  RootQueryToTagConnectionEdge: EDGE,
  CategoryToPostConnection: CONNECTION,
  CategoryToPostConnectionEdge: EDGE,
  TagToPostConnection: CONNECTION,
  TagToPostConnectionEdge: EDGE,
  EventsCategoryToEventConnection: CONNECTION,
  EventsCategoryToEventConnectionEdge: EDGE,
  UserToPostConnection: CONNECTION,
  UserToPostConnectionEdge: EDGE,
  RootQueryToContentNodeConnection: CONNECTION,
  RootQueryToContentNodeConnectionEdge: EDGE,
  RootQueryToPageConnection: CONNECTION,
  RootQueryToPageConnectionEdge: EDGE,
  RootQueryToMediaItemConnection: CONNECTION,
  RootQueryToMediaItemConnectionEdge: EDGE,
  RootQueryToUserConnection: CONNECTION,
  RootQueryToUserConnectionEdge: EDGE,
  RootQueryToTermNodeConnection: CONNECTION,
  RootQueryToTermNodeConnectionEdge: EDGE,
  RootQueryToContentTypeConnection: CONNECTION,
  RootQueryToContentTypeConnectionEdge: EDGE,
  HierarchicalContentNodeToParentContentNodeConnectionEdge: ['node'],
  RootQueryToEventConnection: CONNECTION,
  RootQueryToEventConnectionEdge: EDGE,
  RootQueryToVenueConnection: CONNECTION,
  RootQueryToVenueConnectionEdge: EDGE,
  RootQueryToOrganizerConnection: CONNECTION,
  RootQueryToOrganizerConnectionEdge: EDGE,
  RootQueryToEventsCategoryConnection: CONNECTION,
  RootQueryToEventsCategoryConnectionEdge: EDGE,
  PostToCategoryConnection: CONNECTION,
  PostToCategoryConnectionEdge: EDGE,
  PostToTagConnection: CONNECTION,
  PostToTagConnectionEdge: EDGE,
  EventToOrganizerConnection: CONNECTION,
  EventToOrganizerConnectionEdge: EDGE,
  EventToEventsCategoryConnection: CONNECTION,
  EventToEventsCategoryConnectionEdge: EDGE,
  EventToTagConnection: CONNECTION,
  EventToTagConnectionEdge: EDGE,
  NodeWithAuthorToUserConnectionEdge: ['node'],
  NodeWithFeaturedImageToMediaItemConnectionEdge: ['node'],
};

/** Interfaces a kept object does not implement in the subset although WPGraphQL's does (said in docs/wpgraphql.md). */
const DROP_INTERFACES: Record<string, readonly string[]> = {};

type Composite = ObjectTypeDefinitionNode | InterfaceTypeDefinitionNode;

function namedOf(t: TypeNode): string {
  return t.kind === Kind.NAMED_TYPE ? t.name.value : namedOf(t.type);
}

function isComposite(d: DefinitionNode): d is Composite {
  return d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.INTERFACE_TYPE_DEFINITION;
}

export interface Subset {
  document: DocumentNode;
  /** WPGraphQL's types left out, and the left-out fields of each kept type. */
  outside: { types: string[]; fields: Record<string, string[]> };
}

export function subset(reference: string): Subset {
  const doc = parse(reference);
  const byName = new Map<string, DefinitionNode>();
  for (const d of doc.definitions) if ('name' in d && d.name) byName.set(d.name.value, d);
  const keptFields = new Map<string, Set<string>>();
  for (const [name, fields] of Object.entries(KEEP)) {
    const d = byName.get(name);
    if (!d || !isComposite(d)) throw new Error(`KEEP names ${name}, which is not an object or interface type`);
    const own = new Set(d.fields?.map((f) => f.name.value));
    for (const f of fields) if (!own.has(f)) throw new Error(`KEEP names ${name}.${f}, which WPGraphQL does not have`);
    keptFields.set(name, new Set(fields));
  }
  const interfacesOf = (d: Composite) =>
    (d.interfaces ?? [])
      .map((i) => i.name.value)
      .filter((i) => keptFields.has(i) && !(DROP_INTERFACES[d.name.value] ?? []).includes(i));
  // Objects take the fields of the interfaces they keep (until nothing changes: interfaces implement interfaces).
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, fields] of keptFields) {
      const d = byName.get(name);
      if (!d || !isComposite(d)) continue;
      for (const i of interfacesOf(d))
        for (const f of keptFields.get(i)!)
          if (!fields.has(f)) {
            fields.add(f);
            changed = true;
          }
    }
  }
  // Every type the kept fields reach: inputs, enums and scalars whole; output types must be kept.
  const reached = new Set<string>(['String', 'Boolean', 'Int', 'Float', 'ID']);
  const missing = new Set<string>();
  const visitInput = (name: string) => {
    if (reached.has(name)) return;
    reached.add(name);
    const d = byName.get(name);
    if (d?.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION) for (const f of d.fields ?? []) visitInput(namedOf(f.type));
  };
  for (const [name, fields] of keptFields) {
    const d = byName.get(name);
    if (!d || !isComposite(d)) continue;
    for (const f of d.fields ?? []) {
      if (!fields.has(f.name.value)) continue;
      for (const a of f.arguments ?? []) visitInput(namedOf(a.type));
      const out = namedOf(f.type);
      const od = byName.get(out);
      if (od && (isComposite(od) || od.kind === Kind.UNION_TYPE_DEFINITION)) {
        if (!keptFields.has(out)) missing.add(`${out} (from ${name}.${f.name.value})`);
      } else visitInput(out);
    }
  }
  if (missing.size) throw new Error(`Output types reached but not kept: ${[...missing].join(', ')}`);

  const definitions: DefinitionNode[] = [];
  const outside: Subset['outside'] = { types: [], fields: {} };
  for (const d of doc.definitions) {
    if (d.kind === Kind.SCHEMA_DEFINITION) {
      definitions.push({
        ...d,
        operationTypes: d.operationTypes.filter((o) => o.operation === 'query' || keptFields.has(o.type.name.value)),
      });
      continue;
    }
    if (!('name' in d) || !d.name) continue;
    const name = d.name.value;
    if (isComposite(d) && keptFields.has(name)) {
      const fields = keptFields.get(name)!;
      const kept: FieldDefinitionNode[] = (d.fields ?? []).filter((f) => fields.has(f.name.value));
      const left = (d.fields ?? []).filter((f) => !fields.has(f.name.value)).map((f) => f.name.value);
      if (left.length) outside.fields[name] = left.sort();
      const interfaces: NamedTypeNode[] = (d.interfaces ?? []).filter((i) => interfacesOf(d).includes(i.name.value));
      definitions.push({ ...d, fields: kept, interfaces });
    } else if (!isComposite(d) && d.kind !== Kind.UNION_TYPE_DEFINITION && reached.has(name)) {
      definitions.push(d);
    } else outside.types.push(name);
  }
  outside.types.sort();
  const document: DocumentNode = { kind: Kind.DOCUMENT, definitions };
  const errors = validateSchema(buildASTSchema(document));
  if (errors.length) throw new Error(`The subset is not a valid schema:\n${errors.map((e) => e.message).join('\n')}`);
  return { document, outside };
}

const HEADER =
  '# Generated by scripts/wpgraphql-subset.ts from the schema of WPGraphQL 1.8.6 + WPGraphQL Yoast SEO 4.18.1 +\n' +
  '# ql-events 0.1.0 (printed from introspection). Do not edit: change KEEP in the script and run it again.\n\n';

function main(): void {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const source =
    args.find((a) => !a.startsWith('--')) ??
    fileURLToPath(new URL('../../shared/reference/wpgraphql/schema.graphql', import.meta.url));
  const { document, outside } = subset(readFileSync(source, 'utf8'));
  const files: Record<string, string> = {
    'schema.graphql': HEADER + printSchema(buildASTSchema(document)) + '\n',
    'outside.json': JSON.stringify(outside, null, 1) + '\n',
  };
  let stale = false;
  for (const [file, text] of Object.entries(files)) {
    const path = OUT_DIR + file;
    if (check) {
      let old = '';
      try {
        old = readFileSync(path, 'utf8');
      } catch {
        /* absent: stale */
      }
      if (old !== text) {
        stale = true;
        console.error(`${path} is stale: run tsx scripts/wpgraphql-subset.ts`);
      }
    } else writeFileSync(path, text);
  }
  if (stale) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
