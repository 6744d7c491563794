/**
 * The payment-method rule of §9, once, for ingestion (which stores methods normalised), the read side (filters,
 * option lists, reports) and the browser. Pure; no I/O.
 */

/** The method that empty and NONE payment methods become. */
export const OTHERS_METHOD = 'OTHERS';

/**
 * A payment method as it is stored and shown: trimmed and upper-cased, so ' visa ' and 'VISA' are one method;
 * an empty method and NONE (any case) become OTHERS. Idempotent.
 */
export function normalisePaymentMethod(method: string): string {
  const upper = method.trim().toUpperCase();
  return upper === '' || upper === 'NONE' ? OTHERS_METHOD : upper;
}
