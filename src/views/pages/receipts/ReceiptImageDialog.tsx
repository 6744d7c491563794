import { Button, Classes, Dialog, DialogBody, DialogFooter, Spinner } from '@blueprintjs/core';

export interface ReceiptImageDialogProps {
  readonly receiptId: string | undefined;
  readonly src: string | undefined;
  readonly loading: boolean;
  readonly onClose: () => void;
}

/** A receipt's image (rendered by the server from its raw text) in a dialog. */
export function ReceiptImageDialog({ receiptId, src, loading, onClose }: ReceiptImageDialogProps) {
  return (
    <Dialog isOpen={receiptId !== undefined} onClose={onClose} title={`Receipt ${receiptId ?? ''}`} style={{ width: 'auto', minWidth: 360 }}>
      <DialogBody>
        <div data-testid="receipt-image-dialog" style={{ textAlign: 'center', maxHeight: '70vh', overflow: 'auto' }}>
          {loading || !src ? (
            <Spinner aria-label="Loading receipt image" />
          ) : (
            <img src={src} alt={`Receipt ${receiptId ?? ''}`} data-testid="receipt-image" className={Classes.ELEVATION_1} />
          )}
        </div>
      </DialogBody>
      <DialogFooter actions={<Button text="Close" onClick={onClose} />} />
    </Dialog>
  );
}
