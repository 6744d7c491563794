import { receiptIdCell } from '../../../domain/receipts';
import './receiptViewer.css';

export interface ReceiptIdCellProps {
  readonly receiptId: string;
  readonly hasImage: boolean;
  /** Opens the receipt's image; without it (a table still loading) the id is text. */
  readonly onOpen?: (receiptId: string) => void;
  /** Before the cell's test ids: `<prefix>receipt-link-<id>` (a link), `<prefix>receipt-id-<id>` (text). */
  readonly testIdPrefix?: string;
}

/**
 * A receipt id in a receipts table (§9): 'no receipt id' for a bare timestamp, and a link that opens the receipt's
 * image when it has one (the Receipts page and the tenant's Receipt Data).
 */
export function ReceiptIdCell({ receiptId, hasImage, onOpen, testIdPrefix = '' }: ReceiptIdCellProps) {
  const cell = receiptIdCell(receiptId, hasImage);
  return onOpen && cell.linked ? (
    <button
      type="button"
      className="receipt-id-link"
      data-testid={`${testIdPrefix}receipt-link-${receiptId}`}
      onClick={() => onOpen(receiptId)}
    >
      {cell.text}
    </button>
  ) : (
    <span data-testid={`${testIdPrefix}receipt-id-${receiptId}`}>{cell.text}</span>
  );
}
