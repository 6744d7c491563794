import { createContext, useContext, useMemo } from 'react';
import {
  type CurrencyFormat,
  currencyFormat,
  DEFAULT_CURRENCY,
  formatMoney,
  sharedCurrencyCode,
} from '../../domain/format';
import { FilterHeaderContext } from '../filters/filterHeaderContext';

/** The currency of the figures on the page: the selected malls' or outlet's (see the hooks below). */
export const CurrencyContext = createContext<CurrencyFormat>(DEFAULT_CURRENCY);

/** An amount formatted per §9 in the page's currency: its symbol and its own minor units. */
export function Money({ value }: { readonly value: number }) {
  return <>{formatMoney(value, useContext(CurrencyContext))}</>;
}

export const useCurrency = () => useContext(CurrencyContext);

/** The selected malls' currency (the default when they do not share one). */
export function useMallCurrency(): CurrencyFormat {
  const code = FilterHeaderContext.useSelector((snapshot) => {
    const selected = new Set(snapshot.context.filters.mallIds);
    return sharedCurrencyCode(
      snapshot.context.malls.filter((mall) => selected.has(mall.id)).map((mall) => mall.currency),
    );
  });
  return useMemo(() => currencyFormat(code), [code]);
}

/** The selected outlet's currency ('All Outlets': theirs when shared). */
export function useOutletCurrency(): CurrencyFormat {
  const code = FilterHeaderContext.useSelector((snapshot) => {
    const { outlet } = snapshot.context.filters;
    const outlets =
      outlet === 'all'
        ? snapshot.context.outlets
        : snapshot.context.outlets.filter((candidate) => candidate.id === outlet);
    return sharedCurrencyCode(outlets.map((candidate) => candidate.currency));
  });
  return useMemo(() => currencyFormat(code), [code]);
}
