/** Which header a page shows (§2): the mall header, Header V2, or only its title. */
export type PageHeaderKind = 'mall' | 'v2' | 'none';

/** What the main layout gives every page of the route table. */
export interface PageProps {
  /** The route's title (the breakeven page's is the user's department). */
  readonly title: string;
  /** The page's header (from the route table); default: only the title. */
  readonly header?: PageHeaderKind;
}
