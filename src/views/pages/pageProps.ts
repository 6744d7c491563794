/** What the main layout gives every page of the route table. */
export interface PageProps {
  /** The route's title (the breakeven page's is the user's department). */
  readonly title: string;
}
