/**
 * The tenders of a stored receipt (migration 023): its payment_methods and payment_amounts in order, or, when
 * both are NULL, one tender of its own method for its total. An empty array is a receipt given without tenders.
 */

/** The tenders of receipt `r` as rows `alias(payment_method, amount)`, in order (for a LATERAL join). */
export const TENDERS = (r: string, alias: string) =>
  `unnest(coalesce(${r}.payment_methods, ARRAY[${r}.payment_method]),
    coalesce(${r}.payment_amounts, ARRAY[${r}.total_amount])) AS ${alias}(payment_method, amount)`;

/** The methods of the tenders of receipt `r`; its own method when it has no tenders. */
export const TENDER_METHODS = (r: string) => `coalesce(nullif(${r}.payment_methods, '{}'), ARRAY[${r}.payment_method])`;
