import { Button, Checkbox, HTMLSelect, Menu, Popover } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { ALL_PAYMENT_METHODS, type ReceiptType, receiptTypeOptionsFor } from '../../../domain/receipts';
import type { receiptsMachine } from '../../../machines/receiptsMachine';
import { SearchForm } from '../../common/SearchForm';

export interface ReceiptsFiltersProps {
  readonly actor: ActorRefFrom<typeof receiptsMachine>;
}

/** Receipt type, FOC reason, payment methods (§4 multi-select) and the receipt id search. */
export function ReceiptsFilters({ actor }: ReceiptsFiltersProps) {
  const send = actor.send;
  const disabled = useSelector(actor, (state) => state.context.filters === undefined);
  const typeFlags = useSelector(actor, (state) => state.context.typeFlags);
  const receiptType = useSelector(actor, (state) => state.context.receiptType);
  const focReasons = useSelector(actor, (state) => state.context.focReasons);
  const focReason = useSelector(actor, (state) => state.context.focReason);
  const paymentMethods = useSelector(actor, (state) => state.context.paymentMethods);
  const selected = useSelector(actor, (state) => state.context.selectedPaymentMethods);
  const receiptId = useSelector(actor, (state) => state.context.receiptId);
  const typeOptions = receiptTypeOptionsFor(typeFlags);
  const paymentLabel = selected.includes(ALL_PAYMENT_METHODS)
    ? 'All payment methods'
    : selected.length === 0
      ? 'Payment method'
      : selected.join(', ');

  return (
    <div className="receipts-filters" data-testid="receipts-filters">
      <HTMLSelect
        aria-label="Receipt type"
        data-testid="receipt-type-select"
        value={receiptType}
        disabled={disabled}
        onChange={(event) =>
          send({ type: 'receiptType.change', receiptType: event.currentTarget.value as ReceiptType | '' })
        }
      >
        <option value="">Receipt type</option>
        {typeOptions.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </HTMLSelect>
      <HTMLSelect
        aria-label="FOC reason"
        data-testid="foc-reason-select"
        value={focReason}
        disabled={disabled || focReasons.length === 0}
        onChange={(event) => send({ type: 'focReason.change', focReason: event.currentTarget.value })}
      >
        <option value="">FOC reason</option>
        {focReasons.map((reason) => (
          <option key={reason} value={reason}>
            {reason}
          </option>
        ))}
      </HTMLSelect>
      <Popover
        placement="bottom-start"
        disabled={disabled}
        content={
          <Menu data-testid="payment-method-menu" className="receipts-payment-menu">
            {[ALL_PAYMENT_METHODS, ...paymentMethods].map((method) => (
              <Checkbox
                key={method}
                label={method === ALL_PAYMENT_METHODS ? 'All' : method}
                checked={selected.includes(method)}
                data-testid={`payment-method-${method}`}
                onChange={() => send({ type: 'paymentMethod.toggle', method })}
              />
            ))}
          </Menu>
        }
      >
        <Button
          endIcon="caret-down"
          icon="credit-card"
          text={paymentLabel}
          disabled={disabled}
          data-testid="payment-method-button"
          className="receipts-payment-button"
        />
      </Popover>
      <SearchForm
        label="Search receipt id"
        initial={receiptId}
        disabled={disabled}
        onSearch={(text) => send({ type: 'receiptId.search', receiptId: text })}
        inputTestId="receipt-id-search"
        buttonTestId="receipt-id-search-button"
      />
    </div>
  );
}
