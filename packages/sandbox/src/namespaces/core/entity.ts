/**
 * The five operations of a tec/v1 post entity, shared by events, venues and
 * organizers (TC Abstracts/Post_Entity_Endpoint.php and the Traits/*_Response
 * files; calendar-upstream.md §2):
 *
 * - `GET /<type>`: public list (B1/B3), the experimental gate inside.
 * - `POST /<type>`: needs `edit_posts` (create_posts); 201 with the entity.
 * - `GET /<type>/<id>`: the read check fires first, so a missing ID, another
 *   post type or an unreadable post is `rest_forbidden` (401/403), never 404;
 *   a trashed post that passes it is 404 `{"error":"The entity could not be
 *   read."}` (the ORM does not find trashed posts; real-site-behaviour.md).
 * - `PUT|PATCH /<type>/<id>` (no POST): needs edit rights on the post; 200.
 * - `DELETE /<type>/<id>`: `force` (default false) deletes, otherwise trashes;
 *   both answer 200 `[]`; a trashed post without force is 410
 *   `{"error":"The entity has already been trashed."}`.
 *
 * A create without a title (or, for events, without dates) is TC's 500
 * `{"error":"Failed to create entity."}`: the ORM refuses it.
 *
 * The lists declare their args but, as TEC 6.15 (the `tec` option), enforce
 * none of them (looseParams, over the arguments the release declares:
 * release.ts); TEC 6.17 validates them.
 *
 * No route here is batchable on a real site (real-site-behaviour.md); with
 * the `calendarBatchable` option (a site filter) the writes are admitted into
 * /batch/v1. Every check that depends on the input alone is an argument check,
 * so a `require-all-validate` batch catches it before anything runs, and each
 * save is one transaction.
 */
import { can, type User } from '../../auth.ts';
import type { ReprSource } from '../../calendar/core-repr.ts';
import {
  TAG_TAX,
  WRITE_STATUSES,
  canDelete,
  canEdit,
  canRead,
  trashPost,
  type PostFields,
} from '../../calendar/model.ts';
import { RawError, RestError, forbidden } from '../../errors.ts';
import { RestResult, type ArgSchema, type RestRequest, type RouteDecl } from '../../rest/types.ts';
import type { PostRow, PostType } from '../../store/db.ts';
import type { Settings } from '../../capabilities.ts';
import { dateTimeArg, lenientTec, looseParams, pageArgs, parseDateArg, termIds } from './args.ts';
import { experimental } from './experimental.ts';
import { collectionResult, listStatuses } from './listing.ts';
import { reprSource } from './source.ts';

export const NS = 'calendar-core/v1';

/** What differs between events, venues and organizers. */
export interface EntityKind<P extends PostRow<any> = PostRow<any>> {
  /** Collection segment: `events`, `venues`, `organizers`. */
  segment: string;
  type: PostType;
  /** Singular name for summaries: Event, Venue, Organizer. */
  label: string;
  /** `sticky` default on create (the spec gives false for venues and organizers, none for events). */
  stickyDefault?: boolean;
  /** Query arguments of the list, besides page and per_page. */
  listArgs: Record<string, ArgSchema>;
  /** The posts a list request matches, in order; `statuses` already decided. */
  find(req: RestRequest, statuses: string[]): P[];
  toJson(src: ReprSource, post: P): unknown;
  /**
   * Body arguments besides the common post fields; `create` carries the spec's defaults; `site` decides the spelling.
   */
  bodyArgs(create: boolean, site: Settings): Record<string, ArgSchema>;
  /** Cross-field checks of a write body, run with argument validation (a `rest_invalid_param` stops the write). */
  validateBody?(req: RestRequest): RestError | null;
  /** Saves the validated write; throws before writing anything when it cannot. */
  save(req: RestRequest, current: P | null, common: PostFields): P;
  /** Runs after an update through this interface. */
  afterUpdate?(req: RestRequest, post: P): void;
  /** Runs after a permanent delete. */
  afterDelete?(req: RestRequest, id: number): void;
}

const userCan = (user: User | null) => (cap: string) => can(user, cap);

/**
 * The common write fields (TC TEC_Post_Entity_Request_Body_Definition; spec
 * "calendar-core/v1 event - fields"). Defaults only on create: WordPress
 * drops them from update arguments, so a PATCH never resets a field.
 */
export function commonBodyArgs(create: boolean, opts: { stickyDefault?: boolean } = {}): Record<string, ArgSchema> {
  const d = <T>(v: T) => (create ? { default: v } : {});
  return {
    date: dateTimeArg('date', "The date the post was published, in the site's time zone."),
    date_gmt: dateTimeArg('date_gmt', 'The date the post was published, as GMT.'),
    slug: { type: 'string', description: 'An alphanumeric identifier for the post unique to its type.' },
    status: { type: 'string', enum: WRITE_STATUSES, ...d('publish'), description: 'A named status for the post.' },
    title: { type: 'string', description: 'The title for the post.' },
    content: { type: 'string', description: 'The content for the post.' },
    excerpt: { type: 'string', description: 'The excerpt for the post.' },
    author: {
      type: 'integer',
      description: 'The ID for the author of the post.',
      validate: (v, req) =>
        Boolean(req.site.store.userById(Number(v))) || new RestError('rest_invalid_author', 'Invalid author ID.', 400),
    },
    featured_media: {
      type: 'integer',
      description: 'The ID of the featured media for the post.',
      validate: (v, req) =>
        Number(v) === 0 ||
        req.site.store.post(Number(v))?.type === 'attachment' ||
        new RestError('rest_invalid_featured_media', 'Invalid featured media ID.', 400),
    },
    comment_status: {
      type: 'string',
      enum: ['open', 'closed'],
      ...d('open'),
      description: 'Whether or not comments are open on the post.',
    },
    ping_status: {
      type: 'string',
      enum: ['open', 'closed'],
      ...d('open'),
      description: 'Whether or not the post can be pinged.',
    },
    format: {
      type: 'string',
      enum: ['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio'],
      ...d('standard'),
      description: 'The format for the post.',
    },
    sticky: {
      type: 'boolean',
      ...(opts.stickyDefault !== undefined ? d(opts.stickyDefault) : {}),
      description: 'Whether or not the post should be treated as sticky.',
    },
    template: { type: 'string', description: 'The theme file to use to display the post.' },
    tags: termIds('tags', TAG_TAX, 'The terms assigned to the post in the post_tag taxonomy.'),
  };
}

/** The common write fields in the model's names; only what was sent (or defaulted on create). */
function postFields(req: RestRequest, create: boolean): PostFields {
  const p = req.params;
  const f: PostFields = {};
  if (p.title !== undefined) f.title = p.title as string;
  if (p.content !== undefined) f.content = p.content as string;
  if (p.excerpt !== undefined) f.excerpt = p.excerpt as string;
  if (p.slug !== undefined) f.slug = p.slug as string;
  if (p.status !== undefined) f.status = p.status as string;
  if (p.author !== undefined) f.author = p.author as number;
  else if (create) f.author = req.user!.id;
  if (p.date !== undefined) f.date = parseDateArg(req, p.date)!;
  if (p.date_gmt !== undefined) f.dateGmt = parseDateArg(req, p.date_gmt, 'UTC')!;
  if (p.featured_media !== undefined) f.featuredMedia = p.featured_media as number;
  if (p.comment_status !== undefined) f.commentStatus = p.comment_status as 'open' | 'closed';
  if (p.ping_status !== undefined) f.pingStatus = p.ping_status as 'open' | 'closed';
  if (p.format !== undefined) f.format = p.format as string;
  if (p.template !== undefined) f.template = p.template as string;
  if (p.sticky !== undefined) f.sticky = p.sticky as boolean;
  return f;
}

/**
 * WordPress's write checks that depend on the caller (posts controller
 * handle_status_param and the author check): publishing needs publish_posts,
 * writing as someone else needs edit_others_posts. Re-sending the current
 * status skips the status check.
 */
function checkWriteRights(req: RestRequest, current: PostRow<unknown> | null): void {
  const status = req.params.status as string | undefined;
  if (status !== undefined && status !== current?.status && !can(req.user, 'publish_posts')) {
    if (status === 'private')
      throw forbidden(
        true,
        'Sorry, you are not allowed to create private posts in this post type.',
        'rest_cannot_publish',
      );
    if (status === 'publish' || status === 'future')
      throw forbidden(true, 'Sorry, you are not allowed to publish posts in this post type.', 'rest_cannot_publish');
  }
  const author = req.params.author as number | undefined;
  if (author !== undefined && author !== req.user!.id && !can(req.user, 'edit_others_posts')) {
    throw forbidden(
      true,
      current
        ? 'Sorry, you are not allowed to update posts as this user.'
        : 'Sorry, you are not allowed to create posts as this user.',
      'rest_cannot_edit_others',
    );
  }
}

/** The item routes' permission: the post exists, has the route's type, and `check` passes. */
function onPost(kind: EntityKind, check: typeof canRead) {
  return (req: RestRequest): boolean => {
    const post = req.site.store.post(Number(req.params.id));
    return Boolean(post && post.type === kind.type && check(post, req.user, userCan(req.user)));
  };
}

/**
 * The ORM's minimum for a new post: a title (TEC's repositories refuse a
 * postarr without `post_title`; wp_insert_post refuses an empty title with no
 * content or excerpt). The events kind adds its dates in its save.
 */
function hasTitle(req: RestRequest): boolean {
  const { title, content, excerpt } = req.params;
  return title !== undefined && (title !== '' || Boolean(content) || Boolean(excerpt));
}

export function entityRoutes<P extends PostRow<any>>(site: Settings, kind: EntityKind<P>): RouteDecl[] {
  const base = `/${NS}/${kind.segment}`;
  // Real sites mark no calendar-core route batchable; a site filter can (real-site-behaviour.md).
  const allowBatch = site.options.calendarBatchable;
  const listArgs = { ...pageArgs, ...kind.listArgs };
  const idArg: ArgSchema = { type: 'integer', description: `Unique identifier for the ${kind.label.toLowerCase()}.` };
  const load = (req: RestRequest) => req.site.store.post(Number(req.params.id)) as P;
  const respond = (req: RestRequest, post: P) => kind.toJson(reprSource(req), req.site.store.post(post.id) as P);
  const bodyCheck = kind.validateBody ? { validateRequest: (req: RestRequest) => kind.validateBody!(req) } : {};
  return [
    {
      namespace: NS,
      path: base,
      endpoints: [
        {
          methods: ['GET'],
          summary: `Retrieve ${kind.label}s`,
          args: listArgs,
          // TEC 6.15 declares these arguments but validates none (real-site-behaviour.md).
          parseArgs: (req, args) => (lenientTec(req) ? looseParams(req, args) : null),
          permission: () => true,
          handler: experimental((req) => {
            const readable = kind.find(req, listStatuses(req)).filter((p) => canRead(p, req.user, userCan(req.user)));
            const src = reprSource(req);
            return collectionResult(req, readable, (p) => kind.toJson(src, p));
          }),
        },
        {
          methods: ['POST'],
          summary: `Create a ${kind.label}`,
          args: {
            ...commonBodyArgs(true, kind.stickyDefault === undefined ? {} : { stickyDefault: kind.stickyDefault }),
            ...kind.bodyArgs(true, site),
          },
          allowBatch,
          ...bodyCheck,
          permission: (req) => can(req.user, 'edit_posts'),
          handler: experimental((req) => {
            checkWriteRights(req, null);
            if (!hasTitle(req)) throw cannotCreate();
            const saved = kind.save(req, null, postFields(req, true));
            return new RestResult(respond(req, saved), 201, { Location: `${req.site.restRoot}${base}/${saved.id}` });
          }),
        },
      ],
    },
    {
      namespace: NS,
      path: `${base}/(?P<id>\\d+)`,
      endpoints: [
        {
          methods: ['GET'],
          summary: `Retrieve a ${kind.label}`,
          args: { id: idArg },
          permission: onPost(kind, canRead),
          handler: experimental((req) => {
            const post = load(req);
            // Readable to the caller, but the ORM's read skips trashed posts (TC Read_Entity_Response).
            if (post.status === 'trash') throw new RawError(404, { error: 'The entity could not be read.' });
            return respond(req, post);
          }),
        },
        {
          methods: ['PUT', 'PATCH'],
          summary: `Update a ${kind.label}`,
          args: { id: idArg, ...commonBodyArgs(false), ...kind.bodyArgs(false, site) },
          allowBatch,
          ...bodyCheck,
          permission: onPost(kind, canEdit),
          handler: experimental((req) => {
            const current = load(req);
            checkWriteRights(req, current);
            const saved = kind.save(req, current, postFields(req, false));
            kind.afterUpdate?.(req, saved);
            return respond(req, saved);
          }),
        },
        {
          methods: ['DELETE'],
          summary: `Delete a ${kind.label}`,
          args: {
            id: idArg,
            force: { type: 'boolean', default: false, description: 'Whether to bypass the trash and force deletion.' },
          },
          allowBatch,
          permission: onPost(kind, canDelete),
          handler: experimental((req) => {
            const post = load(req);
            if (req.params.force) {
              req.site.store.transaction(() => req.site.store.deletePost(post.id));
              kind.afterDelete?.(req, post.id);
              return [];
            }
            if (post.status === 'trash') throw new RawError(410, { error: 'The entity has already been trashed.' });
            trashPost(req.site, post.id);
            return [];
          }),
        },
      ],
    },
  ];
}

/** `{"error": "Failed to create entity."}` 500: TC's answer when the ORM refuses to create. */
export function cannotCreate(): RawError {
  return new RawError(500, { error: 'Failed to create entity.' });
}
