import { H1 } from '@blueprintjs/core';

/** The page's one `h1`: the route's title (styled as a section title, not as a banner). */
export function PageTitle({ title }: { readonly title: string }) {
  return (
    <H1 className="app-page-title" data-testid="page-title">
      {title}
    </H1>
  );
}
