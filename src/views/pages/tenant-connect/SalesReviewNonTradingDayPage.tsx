import { Classes, Icon } from '@blueprintjs/core';
import { Link } from 'wouter';
import { outletNonTradingDaysMachine } from '../../../machines/tenantConnect/nonTradingDaysMachine';
import { usePageActor } from '../../common/usePageActor';
import { DateRangeHeader } from '../../filters/DateRangeHeader';
import type { PageProps } from '../pageProps';
import { NonTradingDaysBody, type NonTradingTableSetup } from './NonTradingDaysParts';
import './tenantConnect.css';

const SETUP: NonTradingTableSetup = {
  withOutlet: false,
  removeText: 'Withdraw',
  notRemovableText: 'Declared by the mall',
};

/**
 * The tenant's non-trading days, reached from its sales review: the top bar's outlet's days over the header's date
 * range or ahead. The tenant declares a day its outlet does not trade and withdraws the days it declared; the days
 * the mall declared are shown, for the mall to remove.
 */
export function SalesReviewNonTradingDayPage({ title }: PageProps) {
  const actor = usePageActor(outletNonTradingDaysMachine);
  return (
    <section className="tenant-connect-page" data-testid="non-trading-day-page">
      <DateRangeHeader title={title} />
      <NonTradingDaysBody
        actor={actor}
        setup={SETUP}
        links={
          <div className="ntd-links">
            <Link href="/tenant-connect/sales-review" className={Classes.BUTTON} data-testid="ntd-sales-review-link">
              <Icon icon="arrow-left" />
              <span className={Classes.BUTTON_TEXT}>Sales review</span>
            </Link>
          </div>
        }
      />
    </section>
  );
}
