import type { PaymentSummary } from '../../../api/receipts';
import { CHART_COLORS } from '../../charts/chartTheme';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { Money } from '../../common/Money';

const COLUMNS: readonly DataColumn<{ readonly row: PaymentSummary; readonly index: number }>[] = [
  {
    key: 'payment_method',
    header: 'Payment Method',
    kind: 'text',
    text: ({ row }) => row.payment_method,
    render: ({ row, index }) => (
      <>
        <span
          className="payment-swatch"
          style={{ background: CHART_COLORS[index % CHART_COLORS.length] }}
          aria-hidden
        />
        {row.payment_method}
      </>
    ),
  },
  { key: 'sum', header: 'Sum', kind: 'money', render: ({ row }) => <Money value={row.sum} /> },
  {
    key: 'processing_fees',
    header: 'Processing Fees',
    kind: 'percent',
    render: ({ row }) => `${row.processing_fees.toFixed(2)}%`,
  },
  { key: 'net_amount', header: 'Net Amount', kind: 'money', render: ({ row }) => <Money value={row.net_amount} /> },
];

/** The payment summary (§3): method, sum, processing fee, net amount, with the method's chart colour; totals below. */
export function PaymentSummaryTable({ rows }: { readonly rows: readonly PaymentSummary[] }) {
  const totalSum = rows.reduce((total, row) => total + row.sum, 0);
  const totalNet = rows.reduce((total, row) => total + row.net_amount, 0);
  return (
    <DataTable
      label="Payment Summary"
      className="payment-summary"
      testId="payment-summary"
      columns={COLUMNS}
      rows={rows.map((row, index) => ({ row, index }))}
      rowKey={({ row }) => row.payment_method}
      rowAttributes={({ row }) => ({ 'data-testid': `payment-row-${row.payment_method}` })}
      skeleton={{ label: 'Loading payment', testId: 'payment-skeleton-row' }}
      empty={{ inline: true }}
      footer={['Total', <Money key="sum" value={totalSum} />, '', <Money key="net" value={totalNet} />]}
    />
  );
}
