/**
 * Argument declarations shared by the legacy routes, in TEC's order (the
 * order the root index and `/doc` list them). Where TEC declares only a
 * `swagger_type` (no `type`), so does the sandbox: WordPress then checks the
 * value with the validate callback alone.
 */
import type { ArgSchema, RestRequest } from '../../rest/types.ts';
import { MAX_PER_PAGE } from './archive.ts';
import { statusList, validStatusList } from './post-status.ts';
import {
  isImageOrEmpty,
  isPositiveInt,
  isPostStatus,
  isString,
  isStringOrEmpty,
  isTime,
  isUrlOrEmpty,
  isUserId,
} from './validators.ts';

export type Args = Record<string, ArgSchema>;

/** EDIT routes take the create arguments with none required (`unrequire_arg`). */
export function unrequired(args: Args): Args {
  return Object.fromEntries(Object.entries(args).map(([k, a]) => [k, { ...a, required: false }]));
}

export function pageArgs(what: string): Args {
  return {
    page: { type: 'integer', default: 1, description: 'The archive page to return', validate: isPositiveInt },
    per_page: {
      type: 'integer',
      // The spec's default; TEC reads the posts_per_page option, which is 10 on a fresh site.
      default: 10,
      description: `The number of ${what} to return on each page`,
      validate: isPositiveInt,
      // Archive_Base::sanitize_per_page: silently capped.
      sanitize: (v) => Math.min(MAX_PER_PAGE, Number(v)),
    },
  };
}

/** `status` on archives: `filter_post_status_list` decides, so it has no schema type. */
export function statusArg(what: string): ArgSchema {
  return {
    description: `The ${what} post status`,
    validate: (v, req: RestRequest) => validStatusList(v, req.user),
    sanitize: statusList,
  };
}

export function idArg(what: string, validate?: ArgSchema['validate']): ArgSchema {
  return { type: 'integer', required: true, description: `the ${what} post ID`, ...(validate ? { validate } : {}) };
}

export function slugArg(what: string, validate?: ArgSchema['validate']): ArgSchema {
  return { type: 'string', required: true, description: `the ${what} post name`, ...(validate ? { validate } : {}) };
}

/** Post fields every legacy writer accepts first. */
function postArgs(what: string): Args {
  return {
    author: { type: 'integer', description: `The ${what} author ID`, validate: isUserId },
    date: { type: 'string', description: `The ${what} publication date`, validate: isTime },
    date_utc: { type: 'string', description: `The ${what} publication date (UTC time zone)`, validate: isTime },
  };
}

const text = (description: string): ArgSchema => ({
  type: 'string',
  default: null,
  description,
  validate: isStringOrEmpty,
});

/** `Single_Venue::CREATE_args` (`show_map`/`show_map_link` are strings there). */
export function venueWriteArgs(): Args {
  return {
    ...postArgs('venue'),
    venue: { type: 'string', required: true, description: 'The venue name', validate: isString },
    description: text('The venue description'),
    status: { type: 'string', description: 'The venue post status', validate: isPostStatus },
    show_map: {
      type: 'string',
      default: null,
      description: 'Whether events linked to the venue should show a map or not',
    },
    show_map_link: {
      type: 'string',
      default: null,
      description: 'Whether events linked to the venue should show a map link or not',
    },
    address: text('The venue address'),
    city: text('The venue city'),
    country: text('The venue country'),
    province: text('The venue province'),
    state: text('The venue state'),
    zip: text('The venue ZIP code'),
    phone: text('The venue phone number'),
    stateprovince: text('The venue state and province'),
    website: { type: 'string', default: null, description: 'The venue website URL', validate: isUrlOrEmpty },
    image: { default: null, description: 'The venue featured image ID or URL', validate: isImageOrEmpty },
  };
}

/** `Single_Organizer::CREATE_args` */
export function organizerWriteArgs(): Args {
  return {
    ...postArgs('organizer'),
    organizer: { type: 'string', required: true, description: 'The organizer name', validate: isString },
    description: text('The organizer description'),
    status: { type: 'string', description: 'The organizer post status', validate: isPostStatus },
    phone: text('The organizer phone number'),
    website: { type: 'string', default: null, description: 'The organizer website', validate: isUrlOrEmpty },
    email: text('The organizer e-mail address'),
    image: { default: null, description: 'The organizer featured image ID or URL', validate: isImageOrEmpty },
  };
}
