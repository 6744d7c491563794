import { Button, Callout, Card, Classes, H2, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import { XERO_STATUS_LABELS, type XeroStatus, xeroStatusOf } from '../../../domain/apps';
import { appsMachine } from '../../../machines/appsMachine';
import { useNoticeToasts } from '../../common/Notifications';
import { usePageActor } from '../../common/usePageActor';
import { PageTitle } from '../../filters/PageTitle';
import type { PageProps } from '../pageProps';
import './apps.css';

const STATUS_INTENT: Readonly<Record<XeroStatus, 'none' | 'success' | 'warning'>> = {
  notConnected: 'none',
  connected: 'success',
  expired: 'warning',
};

/** /apps: the integrations of the header's client; Xero with its connection status and a link to its page. */
export function AppsPage({ title }: PageProps) {
  const actor = usePageActor(appsMachine);
  useNoticeToasts(actor);
  const waiting = useSelector(actor, (state) => state === undefined || state.matches('waiting'));
  const loading = useSelector(actor, (state) => state?.hasTag('loading') ?? false);
  const failed = useSelector(actor, (state) => state?.matches('failure') ?? false);
  const xero = useSelector(actor, (state) => state?.context.xero);
  const status = xero ? xeroStatusOf(xero) : undefined;
  return (
    <section className="apps-page" data-testid="apps-page">
      <PageTitle title={title} />
      {waiting && !loading ? <Callout intent="primary">Choose a client to see its apps.</Callout> : null}
      <ul className="apps-list" aria-label="Integrations">
        <li>
          <Card className="apps-card" data-testid="apps-xero">
            <div className="apps-card-heading">
              <H2 className="apps-card-title">Xero</H2>
              {status ? (
                <Tag intent={STATUS_INTENT[status]} data-testid="apps-xero-status">
                  {XERO_STATUS_LABELS[status]}
                </Tag>
              ) : (
                <Tag className={loading ? Classes.SKELETON : undefined}>{loading ? 'Loading' : 'Unknown'}</Tag>
              )}
            </div>
            <p className={Classes.TEXT_MUTED}>
              Accounting: each day's sales of every outlet posted to your Xero organisation as a manual journal.
            </p>
            {xero?.xeroInfo ? (
              <p data-testid="apps-xero-organisation">Organisation: {xero.xeroInfo.organisation_name}</p>
            ) : null}
            <div className="apps-card-actions">
              {failed ? (
                <Button icon="refresh" text="Retry" onClick={() => actor?.send({ type: 'apps.retry' })} />
              ) : null}
              <Link
                href="/apps/xero"
                className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY}`}
                data-testid="apps-xero-open"
              >
                {status === 'connected' ? 'Manage Xero' : 'Set up Xero'}
              </Link>
            </div>
          </Card>
        </li>
      </ul>
    </section>
  );
}
