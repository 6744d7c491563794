import { nonTradingDaysMachine } from '../../../machines/tenantConnect/nonTradingDaysMachine';
import { usePageActor } from '../../common/usePageActor';
import { DateRangeHeader } from '../../filters/DateRangeHeader';
import type { PageProps } from '../pageProps';
import { NonTradingDaysBody, type NonTradingTableSetup } from './NonTradingDaysParts';
import './tenantConnect.css';

const SETUP: NonTradingTableSetup = { withOutlet: true, removeText: 'Remove' };

/**
 * Tenant Connect's non-trading days, the mall's side: the days declared for the outlets it sees (the top bar's
 * outlet, or all of them) over the header's date range or ahead, sortable by any column; the mall declares a day
 * for an outlet and removes any day, whoever declared it.
 */
export function NonTradingDaysPage({ title }: PageProps) {
  const actor = usePageActor(nonTradingDaysMachine);
  return (
    <section className="tenant-connect-page" data-testid="non-trading-days-page">
      <DateRangeHeader title={title} />
      <NonTradingDaysBody actor={actor} setup={SETUP} />
    </section>
  );
}
