import { Button, Callout, Card, H5, InputGroup, ProgressBar } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { useEffect } from 'react';
import { selectedOutletIds } from '../../../machines/filterHeaderMachine';
import { receiptsMachine } from '../../../machines/receiptsMachine';
import { CurrencySymbolContext, useOutletCurrencySymbol } from '../../common/Money';
import { useNoticeToasts } from '../../common/Notifications';
import { DateRangeExceededAlert } from '../../filters/DateRangeExceededAlert';
import { DateRangePicker } from '../../filters/DateRangePicker';
import { FilterHeaderContext } from '../../filters/filterHeaderContext';
import { PageTitle } from '../../filters/PageTitle';
import type { PageProps } from '../pageProps';
import { PaymentBreakdownChart, PaymentSummaryTable } from './PaymentBreakdown';
import { ReceiptImageDialog } from './ReceiptImageDialog';
import { ReceiptsFilters } from './ReceiptsFilters';
import { ReceiptsTable } from './ReceiptsTable';
import './receipts.css';

/**
 * The Receipts page (§2): the outlet (top bar) and the date range drive the receipts machine; filters for receipt
 * type, FOC reason, payment method and receipt id; the sortable, paged table; the payment method breakdown and
 * summary; a receipt's image; PDF generation with progress, a signed download link, and CSV export.
 */
export function ReceiptsPage({ title }: PageProps) {
  const headerActor = FilterHeaderContext.useActorRef();
  const clientId = FilterHeaderContext.useSelector((state) => state.context.filters.clientId);
  const outletIds = FilterHeaderContext.useSelector((state) => selectedOutletIds(state.context));
  const outletType = FilterHeaderContext.useSelector((state) => {
    const ids = selectedOutletIds(state.context).split(',');
    const outlet = state.context.outlets.find((entry) => String(entry.id) === ids[0]);
    return outlet?.type === 1 ? 1 : 2;
  });
  const start = FilterHeaderContext.useSelector((state) => state.context.filters.dateRange.start);
  const end = FilterHeaderContext.useSelector((state) => state.context.filters.dateRange.end);
  const dateRangePicker = FilterHeaderContext.useSelector((state) => state.children.dateRangePicker);
  const alertShown = FilterHeaderContext.useSelector((state) => state.matches({ alert: 'shown' }));
  const alert = FilterHeaderContext.useSelector((state) => state.context.alert);

  const [state, send, actorRef] = useMachine(receiptsMachine);
  useNoticeToasts(actorRef);
  const { context } = state;

  useEffect(() => {
    if (clientId === undefined || outletIds === '') return;
    send({ type: 'filters.change', filters: { clientId, outletIds, outletType, startTime: start, endTime: end } });
  }, [clientId, outletIds, outletType, start, end, send]);

  // While the page fetches, the header's filters are disabled (§4).
  const loading = state.hasTag('loading');
  useEffect(() => {
    if (!loading) return undefined;
    headerActor.send({ type: 'page.loading' });
    return () => headerActor.send({ type: 'page.loaded' });
  }, [loading, headerActor]);

  const listLoading = state.hasTag('listLoading');
  const generating = state.hasTag('pdfGenerating');
  const ready = context.filters !== undefined;
  const currency = useOutletCurrencySymbol();

  return (
    <CurrencySymbolContext.Provider value={currency}>
      <section className="receipts-page" data-testid="receipts-page">
        <header className="receipts-header">
          <PageTitle title={title} />
          <div className="receipts-header-filters">
            {dateRangePicker ? <DateRangePicker actorRef={dateRangePicker} /> : null}
          </div>
        </header>
        <DateRangeExceededAlert
          isOpen={alertShown}
          title={alert?.title}
          message={alert?.message ?? ''}
          onClose={() => headerActor.send({ type: 'alert.dismiss' })}
        />
        {!ready ? (
          <Callout intent="primary" data-testid="receipts-choose-outlet">
            Choose an Outlet to see its receipts.
          </Callout>
        ) : null}
        <Card className="receipts-card">
          <div className="receipts-toolbar">
            <ReceiptsFilters context={context} disabled={!ready} send={send} />
            <div className="receipts-actions">
              <Button
                icon="document"
                text={generating ? 'Generating PDF…' : 'Generate PDF'}
                data-testid="generate-pdf"
                disabled={!ready || generating || context.summary.total === 0}
                onClick={() => send({ type: 'pdf.generate' })}
              />
              <Button
                icon="link"
                text="Download link"
                data-testid="pdf-link"
                disabled={!ready || state.hasTag('linkCreating') || context.summary.total === 0}
                onClick={() => send({ type: 'link.create' })}
              />
              <Button
                icon="export"
                text="Export CSV"
                data-testid="export-csv"
                loading={state.hasTag('csvExporting')}
                disabled={!ready || context.summary.total === 0}
                onClick={() => send({ type: 'csv.export' })}
              />
            </div>
          </div>
          {generating ? (
            <div className="receipts-progress" data-testid="pdf-progress">
              <span>
                Generating PDF
                {context.pdfProgress !== undefined ? ` ${Math.round(context.pdfProgress * 100)}%` : '…'}
              </span>
              <ProgressBar value={context.pdfProgress} intent="primary" />
            </div>
          ) : null}
          {context.pdfLink ? (
            <Callout intent="success" className="receipts-link" data-testid="pdf-link-callout">
              <span>This link downloads the PDF without signing in, for 7 days:</span>
              <InputGroup
                readOnly
                value={context.pdfLink}
                data-testid="pdf-link-url"
                onFocus={(event) => event.currentTarget.select()}
              />
              <Button text="Close" variant="minimal" onClick={() => send({ type: 'link.dismiss' })} />
            </Callout>
          ) : null}
          <ReceiptsTable context={context} loading={listLoading} send={send} />
        </Card>
        <div className="receipts-payments">
          <Card className="receipts-chart">
            <H5>Payment Method Breakdown</H5>
            <PaymentBreakdownChart series={context.breakdown} />
          </Card>
          <Card className="receipts-payment-summary">
            <H5>Payment Summary</H5>
            <PaymentSummaryTable rows={context.paymentSummary} />
          </Card>
        </div>
        <ReceiptImageDialog
          receiptId={context.image?.receiptId}
          src={context.image?.src}
          loading={state.hasTag('imageLoading')}
          onClose={() => send({ type: 'image.close' })}
        />
      </section>
    </CurrencySymbolContext.Provider>
  );
}
