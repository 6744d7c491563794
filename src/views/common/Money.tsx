import { createContext, useContext } from 'react';
import { DEFAULT_CURRENCY_SYMBOL, formatMoney, sharedCurrencySymbol } from '../../domain/format';
import { FilterHeaderContext } from '../filters/filterHeaderContext';

/** The currency symbol of the figures on the page: the selected malls' or outlet's (see the hooks below). */
export const CurrencySymbolContext = createContext<string>(DEFAULT_CURRENCY_SYMBOL);

/** An amount formatted per §9 with the page's currency symbol. */
export function Money({ value }: { readonly value: number }) {
  return <>{formatMoney(value, useContext(CurrencySymbolContext))}</>;
}

export const useCurrencySymbol = () => useContext(CurrencySymbolContext);

/** The symbol of the selected malls' currency (the default when they do not share one). */
export function useMallCurrencySymbol(): string {
  return FilterHeaderContext.useSelector((snapshot) => {
    const selected = new Set(snapshot.context.filters.mallIds);
    return sharedCurrencySymbol(
      snapshot.context.malls.filter((mall) => selected.has(mall.id)).map((mall) => mall.currency),
    );
  });
}

/** The symbol of the selected outlet's currency ('All Outlets': theirs when shared). */
export function useOutletCurrencySymbol(): string {
  return FilterHeaderContext.useSelector((snapshot) => {
    const { outlet } = snapshot.context.filters;
    const outlets =
      outlet === 'all'
        ? snapshot.context.outlets
        : snapshot.context.outlets.filter((candidate) => candidate.id === outlet);
    return sharedCurrencySymbol(outlets.map((candidate) => candidate.currency));
  });
}
