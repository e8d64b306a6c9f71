/**
 * The front end's operations. `graphql()` is generated (src/gql/): each call
 * returns a document typed with its result and variables, so a typo in a field
 * name fails `tsc`, and the operation lands in the persisted-documents manifest.
 */
import { graphql } from './gql/index.ts';

export const UpcomingEventsQuery = graphql(`
  query UpcomingEvents($first: Int!, $startDate: DateTime) {
    events(first: $first, where: { startDate: $startDate }) {
      totalCount
      nodes {
        id
        title
        startDate
        venues {
          title
        }
      }
    }
  }
`);

export const EventTitleQuery = graphql(`
  query EventTitle($id: ID!) {
    event(id: $id) {
      id
      title
    }
  }
`);
