/**
 * Argument declarations shared by the calendar-core/v1 routes (spec part B,
 * tables B1-B4 and the field tables). Schema keywords do WordPress's checks
 * (rest_out_of_bounds, rest_not_in_enum, rest_duplicate_items); TEC's own
 * parameter types report through `details.<arg>` in the shape of TC's
 * InvalidRestArgumentException (calendar-upstream.md §2 "Argument errors").
 */
import { parseLooseDate } from '../../dates.ts';
import { RestError } from '../../errors.ts';
import type { ArgSchema, RestRequest } from '../../rest/types.ts';
import { sanitizeValue, validateValue } from '../../rest/validate.ts';
import { WRITE_STATUSES } from '../../calendar/model.ts';
import type { PostType } from '../../store/db.ts';

/** `{code, message, data: {status: 400, argument, details}}` under `details.<name>`. */
export function argumentError(name: string, kind: string, message: string, details: string): RestError {
  return new RestError(`tec_rest_invalid_${kind}_argument`, message, 400, { argument: name, details });
}

/**
 * Parses a date-time argument into a `Y-m-d H:i:s` local to `tz`: RFC 3339
 * (offsets converted), `Y-m-d H:i:s`, or what else TC's Date_Time accepts
 * (strtotime-style words, timestamps). Null when unparsable.
 */
export function parseDateArg(req: RestRequest, value: unknown, tz: string = req.site.timezone): string | null {
  return parseLooseDate(value, tz, req.site.now());
}

/** A TC Date_Time parameter: any unparsable value is `tec_rest_invalid_date_time_argument`. */
export function dateTimeArg(name: string, description: string): ArgSchema {
  return {
    type: 'string',
    description,
    validate: (value, req) =>
      parseDateArg(req, value) !== null ||
      argumentError(
        name,
        'date_time',
        `Parameter \`{${name}}\` must be a date-time.`,
        `We cannot parse the parameter \`{${name}}\` as a date-time.`,
      ),
  };
}

export const pageArgs: Record<string, ArgSchema> = {
  page: { type: 'integer', default: 1, minimum: 1, description: 'The collection page number.' },
  per_page: {
    type: 'integer',
    default: 10,
    minimum: 1,
    maximum: 100,
    description: 'Maximum number of items to be returned in result set.',
  },
};

/** B1/B3/B4 `status`: unique items from the five write statuses, default [publish]. */
export const statusListArg: ArgSchema = {
  type: 'array',
  items: { type: 'string', enum: WRITE_STATUSES },
  uniqueItems: true,
  default: ['publish'],
  description: 'Limit result set to posts with specific statuses.',
};

export const orderArgs: Record<string, ArgSchema> = {
  orderby: {
    type: 'string',
    default: 'event_date',
    enum: ['date', 'event_date', 'title', 'menu_order', 'modified'],
    description: 'Sort collection by event attribute.',
  },
  order: {
    type: 'string',
    default: 'ASC',
    enum: ['ASC', 'DESC'],
    description: 'Order sort attribute ascending or descending.',
  },
};

export function uniqueIds(description: string, validate?: ArgSchema['validate']): ArgSchema {
  return {
    type: 'array',
    items: { type: 'integer' },
    uniqueItems: true,
    description,
    ...(validate ? { validate } : {}),
  };
}

/** Integer IDs of the values of an already schema-checked array argument. */
export function idsOf(value: unknown): number[] {
  return (Array.isArray(value) ? value : String(value).split(/[\s,]+/))
    .filter((x) => x !== '')
    .map((x) => Math.trunc(Number(x)));
}

/** True when every ID names a post of `type` (TEC's Event_Validator::is_venue_id_list and kin). */
export function postsExist(req: RestRequest, ids: number[], type: PostType): boolean {
  return ids.every((id) => req.site.store.post(id)?.type === type);
}

/**
 * True when calendar-core/v1 acts as TEC 6.15 (the `tec` option), which
 * declares its arguments but enforces none (real-site-behaviour.md
 * "calendar-core/v1 on a real site": per_page=0, page=0, status=bogus,
 * venue=999999 ... all answer 200).
 */
export function lenientTec(req: RestRequest): boolean {
  return req.site.options.tec === '6.15';
}

/**
 * The parameters of a request whose declared args are not enforced (TEC 6.15):
 * defaults apply (WordPress fills them from the declarations whatever the
 * callbacks); a value that passes the declaration is sanitised as usual; one
 * that fails only a bound, an enum or a plugin check but has the declared type
 * is kept, coerced to that type, for the callback to cope with (it reads the raw
 * value); one of the wrong type is dropped for the default. Nothing is refused.
 */
export function looseParams(req: RestRequest, args: Record<string, ArgSchema>): Record<string, unknown> {
  const params: Record<string, unknown> = { ...req.params };
  const fallback = (name: string, arg: ArgSchema) => {
    if (arg.default !== undefined) params[name] = structuredClone(arg.default);
    else delete params[name];
  };
  for (const [name, arg] of Object.entries(args)) {
    const value = params[name];
    if (value === undefined || value === null) {
      fallback(name, arg);
      continue;
    }
    try {
      validateValue(value, arg, name);
      if (arg.validate && arg.validate(value, req) !== true) throw new Error('refused by the plugin check');
      params[name] = sanitizeValue(value, arg);
      continue;
    } catch {
      /* not as declared: see whether its type still reads */
    }
    try {
      const typeOnly: ArgSchema = { type: arg.type, ...(arg.items ? { items: { type: arg.items.type } } : {}) };
      validateValue(value, typeOnly, name);
      params[name] = sanitizeValue(value, typeOnly);
    } catch {
      fallback(name, arg);
    }
  }
  return params;
}

/**
 * A write field of linked post IDs: unknown IDs are an argument error, so
 * nothing is written (TEC 6.17). TEC 6.15 checks nothing, and the IDs are
 * stored as a meta write stores them, dangling (real-site-behaviour.md).
 */
export function linkedIds(name: string, type: PostType, label: string, description: string): ArgSchema {
  return uniqueIds(description, (value, req) => {
    if (lenientTec(req)) return true;
    const bad = idsOf(value).filter((id) => req.site.store.post(id)?.type !== type);
    return (
      bad.length === 0 ||
      argumentError(
        name,
        name,
        `Parameter \`{${name}}\` must list existing ${label} IDs.`,
        `No ${label} has the ID ${bad.join(', ')}.`,
      )
    );
  });
}

/** A write field of term IDs of one taxonomy. */
export function termIds(name: string, taxonomy: string, description: string): ArgSchema {
  return uniqueIds(description, (value, req) => {
    const bad = idsOf(value).filter((id) => req.site.store.term(id)?.taxonomy !== taxonomy);
    return (
      bad.length === 0 ||
      argumentError(
        name,
        name,
        `Parameter \`{${name}}\` must list existing term IDs.`,
        `No ${taxonomy} term has the ID ${bad.join(', ')}.`,
      )
    );
  });
}

/** Venue location filters (B3 "Venues add", B1 geoloc_*). */
export const geoArgs: Record<string, ArgSchema> = {
  geoloc_lat: { type: 'number', minimum: -90, maximum: 90, description: 'Latitude of the centre of the search.' },
  geoloc_lng: { type: 'number', minimum: -180, maximum: 180, description: 'Longitude of the centre of the search.' },
  distance: {
    type: 'number',
    minimum: 0,
    description: 'Search radius in kilometres (default 50 when a centre is given).',
  },
  has_geoloc: { type: 'boolean', description: 'Only venues with (true) or without (false) coordinates.' },
  near: { type: 'string', description: 'Near an address or place name.' },
};
