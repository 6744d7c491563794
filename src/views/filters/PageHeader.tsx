import type { PageHeaderKind } from '../pages/pageProps';
import { HeaderV2 } from './HeaderV2';
import { MallHeader } from './MallHeader';
import { PageTitle } from './PageTitle';
import './filters.css';

export interface PageHeaderProps {
  readonly title: string;
  /** From the route table (§2): the mall header, Header V2, or only the title. */
  readonly header?: PageHeaderKind | undefined;
}

/** A page's header: its title, inside the mall header or Header V2 on the pages §2 lists. */
export function PageHeader({ title, header = 'none' }: PageHeaderProps) {
  if (header === 'v2') return <HeaderV2 title={title} />;
  if (header === 'mall') return <MallHeader title={title} />;
  return <PageTitle title={title} />;
}
