/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** Date values */
export type DateInput = {
  /** Day of the month (from 1 to 31) */
  day?: number | null | undefined;
  /** Month number (from 1 to 12) */
  month?: number | null | undefined;
  /** 4 digit year (e.g. 2017) */
  year?: number | null | undefined;
};

export type PostsQueryVariables = Exact<{
  first: number;
}>;

export type PostsQuery = {
  posts: {
    pageInfo: { hasNextPage: boolean; endCursor: string | null } | null;
    nodes: Array<{
      databaseId: number;
      title: string | null;
      slug: string | null;
      uri: string | null;
      date: string | null;
      excerpt: string | null;
      author: { node: { name: string | null } | null } | null;
    } | null> | null;
  } | null;
};

export type NodeByUriQueryVariables = Exact<{
  uri: string;
}>;

export type NodeByUriQuery = {
  nodeByUri:
    | { __typename: 'Category'; id: string; uri: string | null }
    | { __typename: 'ContentType'; id: string; uri: string | null }
    | {
        __typename: 'Event';
        databaseId: number;
        title: string | null;
        startDate: string | null;
        id: string;
        uri: string | null;
      }
    | { __typename: 'EventsCategory'; id: string; uri: string | null }
    | { __typename: 'MediaItem'; id: string; uri: string | null }
    | { __typename: 'Organizer'; id: string; uri: string | null }
    | { __typename: 'Page'; id: string; uri: string | null }
    | {
        __typename: 'Post';
        databaseId: number;
        title: string | null;
        date: string | null;
        content: string | null;
        id: string;
        uri: string | null;
      }
    | { __typename: 'Tag'; id: string; uri: string | null }
    | { __typename: 'User'; id: string; uri: string | null }
    | { __typename: 'Venue'; id: string; uri: string | null }
    | null;
};

export type PostSeoQueryVariables = Exact<{
  uri: string | number;
}>;

export type PostSeoQuery = {
  post: {
    title: string | null;
    seo: {
      title: string | null;
      metaDesc: string | null;
      canonical: string | null;
      metaRobotsNoindex: string | null;
      opengraphTitle: string | null;
      opengraphType: string | null;
      readingTime: number | null;
      breadcrumbs: Array<{ text: string | null; url: string | null } | null> | null;
    } | null;
  } | null;
};

export type EventsBetweenQueryVariables = Exact<{
  after: DateInput;
  before: DateInput;
  first?: number | null | undefined;
}>;

export type EventsBetweenQuery = {
  events: {
    pageInfo: { hasNextPage: boolean; endCursor: string | null } | null;
    nodes: Array<{
      databaseId: number;
      slug: string | null;
      uri: string | null;
      title: string | null;
      startDate: string | null;
      endDate: string | null;
      allDay: boolean | null;
      venue: { databaseId: number; title: string | null; city: string | null } | null;
      organizers: { nodes: Array<{ databaseId: number; title: string | null } | null> | null } | null;
      eventsCategories: { nodes: Array<{ name: string | null; slug: string | null } | null> | null } | null;
    } | null> | null;
  } | null;
};

export type EventBySlugQueryVariables = Exact<{
  slug: string | number;
}>;

export type EventBySlugQuery = {
  event: {
    id: string;
    databaseId: number;
    title: string | null;
    slug: string | null;
    uri: string | null;
    content: string | null;
    startDate: string | null;
    endDate: string | null;
    allDay: boolean | null;
    timezone: string | null;
    cost: string | null;
    venue: { title: string | null; address: string | null; city: string | null } | null;
    organizers: { nodes: Array<{ title: string | null; email: string | null } | null> | null } | null;
    eventsCategories: { nodes: Array<{ name: string | null; slug: string | null } | null> | null } | null;
    tags: { nodes: Array<{ name: string | null } | null> | null } | null;
  } | null;
};

export type VenuesQueryVariables = Exact<{
  first: number;
}>;

export type VenuesQuery = {
  venues: {
    pageInfo: { hasNextPage: boolean; endCursor: string | null } | null;
    nodes: Array<{
      databaseId: number;
      title: string | null;
      slug: string | null;
      uri: string | null;
      city: string | null;
      country: string | null;
    } | null> | null;
  } | null;
};

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}

export const PostsDocument = new TypedDocumentString(`
    query Posts($first: Int!) {
  posts(first: $first, where: {orderby: {field: DATE, order: DESC}}) {
    pageInfo {
      hasNextPage
      endCursor
    }
    nodes {
      databaseId
      title
      slug
      uri
      date
      excerpt
      author {
        node {
          name
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<PostsQuery, PostsQueryVariables>;
export const NodeByUriDocument = new TypedDocumentString(`
    query NodeByUri($uri: String!) {
  nodeByUri(uri: $uri) {
    __typename
    id
    uri
    ... on Post {
      databaseId
      title
      date
      content
    }
    ... on Event {
      databaseId
      title
      startDate
    }
  }
}
    `) as unknown as TypedDocumentString<NodeByUriQuery, NodeByUriQueryVariables>;
export const PostSeoDocument = new TypedDocumentString(`
    query PostSeo($uri: ID!) {
  post(id: $uri, idType: URI) {
    title
    seo {
      title
      metaDesc
      canonical
      metaRobotsNoindex
      opengraphTitle
      opengraphType
      readingTime
      breadcrumbs {
        text
        url
      }
    }
  }
}
    `) as unknown as TypedDocumentString<PostSeoQuery, PostSeoQueryVariables>;
export const EventsBetweenDocument = new TypedDocumentString(`
    query EventsBetween($after: DateInput!, $before: DateInput!, $first: Int = 10) {
  events(
    first: $first
    where: {startDateQuery: {after: $after}, endDateQuery: {before: $before}, orderby: [{field: TITLE, order: ASC}]}
  ) {
    pageInfo {
      hasNextPage
      endCursor
    }
    nodes {
      databaseId
      slug
      uri
      title
      startDate
      endDate
      allDay
      venue {
        databaseId
        title
        city
      }
      organizers {
        nodes {
          databaseId
          title
        }
      }
      eventsCategories {
        nodes {
          name
          slug
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<EventsBetweenQuery, EventsBetweenQueryVariables>;
export const EventBySlugDocument = new TypedDocumentString(`
    query EventBySlug($slug: ID!) {
  event(id: $slug, idType: SLUG) {
    id
    databaseId
    title
    slug
    uri
    content
    startDate
    endDate
    allDay
    timezone
    cost
    venue {
      title
      address
      city
    }
    organizers {
      nodes {
        title
        email
      }
    }
    eventsCategories {
      nodes {
        name
        slug
      }
    }
    tags {
      nodes {
        name
      }
    }
  }
}
    `) as unknown as TypedDocumentString<EventBySlugQuery, EventBySlugQueryVariables>;
export const VenuesDocument = new TypedDocumentString(`
    query Venues($first: Int!) {
  venues(first: $first, where: {orderby: [{field: TITLE, order: ASC}]}) {
    pageInfo {
      hasNextPage
      endCursor
    }
    nodes {
      databaseId
      title
      slug
      uri
      city
      country
    }
  }
}
    `) as unknown as TypedDocumentString<VenuesQuery, VenuesQueryVariables>;
