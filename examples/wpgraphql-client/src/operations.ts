/**
 * A WPGraphQL front end's queries, as written against WPGraphQL 1.8.6 + WPGraphQL Yoast SEO + ql-events (the six
 * recorded in test/fixtures/wpgraphql/, with variables where those name one site's slugs, URIs and dates). `graphql()`
 * is generated from WPGraphQL's SDL (src/gql/): each call returns the document typed with its result and variables.
 */
import { graphql } from './gql/index.ts';

export const PostsQuery = graphql(`
  query Posts($first: Int!) {
    posts(first: $first, where: { orderby: { field: DATE, order: DESC } }) {
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
`);

export const NodeByUriQuery = graphql(`
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
`);

export const PostSeoQuery = graphql(`
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
`);

export const EventsBetweenQuery = graphql(`
  query EventsBetween($after: DateInput!, $before: DateInput!, $first: Int = 10) {
    events(
      first: $first
      where: {
        startDateQuery: { after: $after }
        endDateQuery: { before: $before }
        orderby: [{ field: TITLE, order: ASC }]
      }
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
`);

export const EventBySlugQuery = graphql(`
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
`);

export const VenuesQuery = graphql(`
  query Venues($first: Int!) {
    venues(first: $first, where: { orderby: [{ field: TITLE, order: ASC }] }) {
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
`);

/** Every document above, by operation name: what validate-full.ts checks and the test sends. */
export const operations = {
  Posts: PostsQuery,
  NodeByUri: NodeByUriQuery,
  PostSeo: PostSeoQuery,
  EventsBetween: EventsBetweenQuery,
  EventBySlug: EventBySlugQuery,
  Venues: VenuesQuery,
};
