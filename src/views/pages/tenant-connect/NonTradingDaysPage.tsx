import { Card } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { nonTradingDaysMachine } from '../../../machines/tenantConnect/nonTradingDaysMachine';
import { useNoticeToasts } from '../../common/Notifications';
import { usePageActor } from '../../common/usePageActor';
import { DateRangeHeader } from '../../filters/DateRangeHeader';
import type { PageProps } from '../pageProps';
import {
  DeclarationForm,
  NonTradingDaysList,
  NonTradingTable,
  type NonTradingTableSetup,
  PeriodSwitch,
  RemovalAlert,
} from './NonTradingDaysParts';
import './tenantConnect.css';

const SETUP: NonTradingTableSetup = { withOutlet: true, removeText: 'Remove' };

/**
 * Tenant Connect's non-trading days, the mall's side: the days declared for the outlets it sees (the top bar's
 * outlet, or all of them) over the header's date range or ahead, sortable by any column; the mall declares a day
 * for an outlet and removes any day, whoever declared it.
 */
export function NonTradingDaysPage({ title }: PageProps) {
  const actor = usePageActor(nonTradingDaysMachine);
  useNoticeToasts(actor);
  const list = useSelector(actor, (state) => state?.children.list);
  useNoticeToasts(list);
  return (
    <section className="tenant-connect-page" data-testid="non-trading-days-page">
      <DateRangeHeader title={title} />
      {actor ? <DeclarationForm actor={actor} withOutlet /> : null}
      <Card className="tenant-connect-card">
        <div className="tenant-connect-toolbar">{actor ? <PeriodSwitch actor={actor} /> : null}</div>
        {actor && list ? (
          <NonTradingDaysList actor={actor} list={list} setup={SETUP} />
        ) : (
          <NonTradingTable setup={SETUP} rows={undefined} />
        )}
      </Card>
      {actor ? <RemovalAlert actor={actor} verb="Remove" /> : null}
    </section>
  );
}
