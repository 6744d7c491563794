import { Button, Card } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { mallEventsMachine } from '../../../machines/mallEventsMachine';
import { MallsDateRangeHeader } from '../../common/MallsDateRangeHeader';
import { useNoticeToasts } from '../../common/Notifications';
import { usePageActor } from '../../common/usePageActor';
import type { PageProps } from '../pageProps';
import { MallEventDeleteAlert, MallEventDialog, MallEventsTable } from './MallEventParts';
import './calendar.css';

/**
 * Shopper Connect, Events: the events of the header's malls over its days (sales, events, closures), which
 * the malls' time charts draw; each added, changed and removed in a dialog.
 */
export function EventsPage({ title }: PageProps) {
  const actor = usePageActor(mallEventsMachine);
  useNoticeToasts(actor);
  const canAdd = useSelector(actor, (state) => state?.can({ type: 'form.open' }) === true);
  return (
    <section className="calendar-page" data-testid="events-page">
      <MallsDateRangeHeader title={title} testId="events-header" />
      <Card className="calendar-card">
        <div className="calendar-toolbar">
          <Button
            intent="primary"
            icon="add"
            data-testid="event-add"
            disabled={!canAdd}
            onClick={() => actor?.send({ type: 'form.open' })}
          >
            Add event
          </Button>
        </div>
        {actor ? <MallEventsTable actor={actor} /> : null}
      </Card>
      {actor ? <MallEventDialog actor={actor} /> : null}
      {actor ? <MallEventDeleteAlert actor={actor} /> : null}
    </section>
  );
}
