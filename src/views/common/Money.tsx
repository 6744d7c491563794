import { createContext, useContext, useMemo } from 'react';
import {
  type CurrencyFormat,
  currencyFormat,
  DEFAULT_CURRENCY,
  formatMoney,
  sharedCurrencyCode,
} from '../../domain/format';
import { conversionNote, type ReportCurrencyRule, reportCurrencyRule } from '../../domain/reportCurrency';
import { FilterHeaderContext } from '../filters/filterHeaderContext';

/** The currency of the figures on the page: the selected malls' or outlet's (see the hooks below). */
export const CurrencyContext = createContext<CurrencyFormat>(DEFAULT_CURRENCY);

/** An amount formatted per §9 in the page's currency: its symbol and its own minor units. */
export function Money({ value }: { readonly value: number }) {
  return <>{formatMoney(value, useContext(CurrencyContext))}</>;
}

export const useCurrency = () => useContext(CurrencyContext);

/** The selected malls' currencies, joined (a stable value for a selector). */
function useSelectedMallCurrencies(): string {
  return FilterHeaderContext.useSelector((snapshot) => {
    const selected = new Set(snapshot.context.filters.mallIds);
    const currencies = snapshot.context.malls.filter((mall) => selected.has(mall.id)).map((mall) => mall.currency);
    return [...new Set(currencies)].sort().join(',');
  });
}

/**
 * The currency of a mall report's figures (domain/reportCurrency): the selected malls' own when they share one,
 * else the client's reporting currency that the server converts them to.
 */
function useMallReportCurrency(): ReportCurrencyRule | undefined {
  const currencies = useSelectedMallCurrencies();
  const reporting = FilterHeaderContext.useSelector((snapshot) => snapshot.context.reportingCurrency);
  return useMemo(() => {
    const list = currencies === '' ? [] : currencies.split(',');
    if (list.length === 0) return undefined;
    if (list.length > 1 && reporting === undefined) return undefined;
    return reportCurrencyRule(list, reporting ?? '');
  }, [currencies, reporting]);
}

/** The money format of the selected malls' figures (the default until their currency is known). */
export function useMallCurrency(): CurrencyFormat {
  const code = useMallReportCurrency()?.currency;
  return useMemo(() => currencyFormat(code), [code]);
}

/** The conversion note ('Figures in SGD; MYR converted per outlet and day at …') when the figures are converted. */
export function useConversionNote(): string | undefined {
  const rule = useMallReportCurrency();
  return rule ? conversionNote(rule) : undefined;
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
