import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components, operations } from './schema';

/**
 * The non-trading days and the sales review: the mall's calls (/api/nonTradingDays) and the tenant's
 * (/api/salesReview/*). Each returns the body of a 2xx answer or throws an ApiError.
 */

export type NonTradingDay = components['schemas']['NonTradingDay'];
export type NonTradingDayRequest = components['schemas']['NonTradingDayRequest'];
export type NonTradingDayPage = components['schemas']['NonTradingDayPage'];
export type NonTradingSortColumn = components['parameters']['NonTradingSortColumn'];
export type NonTradingListQuery = NonNullable<operations['getNonTradingDays']['parameters']['query']>;
export type OutletNonTradingListQuery = NonNullable<operations['getOutletNonTradingDays']['parameters']['query']>;
export type SalesReview = components['schemas']['SalesReviewResponse'];
export type SalesReviewQuery = NonNullable<operations['getSalesReview']['parameters']['query']>;
/** The day of one outlet a removal names. */
export interface NonTradingDayKey {
  client_id: number;
  outlet_id: number;
  day: string;
}

/** The mall: one page of the client's outlets' days. */
export async function getNonTradingDays(query: NonTradingListQuery, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.GET('/api/nonTradingDays', { params: { query }, signal }));
}

/** The mall declares a day. */
export async function declareNonTradingDay(body: NonTradingDayRequest, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.POST('/api/nonTradingDays', { body, signal }));
}

/** The mall removes a day, whoever declared it. */
export async function removeNonTradingDay(query: NonTradingDayKey, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.DELETE('/api/nonTradingDays', { params: { query }, signal }));
}

/** The tenant: one page of its outlet's days. */
export async function getOutletNonTradingDays(
  query: OutletNonTradingListQuery,
  { signal, client = api }: CallOptions = {},
) {
  return dataOrThrow(await client.GET('/api/salesReview/nonTradingDays', { params: { query }, signal }));
}

/** The tenant declares a day of its outlet. */
export async function declareOutletNonTradingDay(
  body: NonTradingDayRequest,
  { signal, client = api }: CallOptions = {},
) {
  return dataOrThrow(await client.POST('/api/salesReview/nonTradingDays', { body, signal }));
}

/** The tenant withdraws a day it declared. */
export async function withdrawOutletNonTradingDay(query: NonTradingDayKey, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.DELETE('/api/salesReview/nonTradingDays', { params: { query }, signal }));
}

/** An outlet's daily sales with its non-trading days. */
export async function getSalesReview(query: SalesReviewQuery, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.GET('/api/salesReview/daily', { params: { query }, signal }));
}
