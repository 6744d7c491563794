import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components, operations } from './schema';

/** Thin wrappers over the Settings calls (§7). Each returns the body of a 2xx answer or throws an ApiError. */

export type EmailSubscription = components['schemas']['EmailSubscription'];
export type ProcessingFee = components['schemas']['ProcessingFee'];
export type ProcessingFeesRequest = components['schemas']['ProcessingFeesRequest'];
export type SalesTarget = components['schemas']['SalesTarget'];
export type Category = components['schemas']['Category'];
export type Subcategory = components['schemas']['Subcategory'];
export type NameOption = components['schemas']['NameOption'];
export type AssignableOptions = components['schemas']['AssignableOptionsResponse'];
export type MealTiming = components['schemas']['MealTiming'];
export type MealTimingRow =
  operations['updateMealTimings']['requestBody']['content']['application/json']['meal_timing'][number];
export type ProcessingFeesQuery = NonNullable<operations['getProcessingFees']['parameters']['query']>;
export type SalesTargetsBody = operations['saveSalesTargets']['requestBody']['content']['application/json'];
export type CreateCategoryBody = operations['createCategory']['requestBody']['content']['application/json'];
export type AssignSubcategoriesBody = operations['assignSubcategories']['requestBody']['content']['application/json'];
export type AssignSkusBody = operations['assignSkus']['requestBody']['content']['application/json'];
export type PagedQuery = { client_id: number; page: number; rowsPerPage: number };
export type NameOptionQuery = { client_id: number; searchedText?: string; page: number };

export async function getEmailSubscription(
  clientId: number,
  { signal, client = api }: CallOptions = {},
): Promise<EmailSubscription | undefined> {
  const { list } = dataOrThrow(
    await client.GET('/outlets/emailSubscribe', { params: { query: { client_id: clientId } }, signal }),
  );
  return list[0];
}

export async function updateEmailSubscription(
  query: { client_id: number; void_email: boolean; summary_email: boolean },
  { signal, client = api }: CallOptions = {},
): Promise<EmailSubscription> {
  return dataOrThrow(await client.POST('/outlets/emailSubscribe', { params: { query }, signal }));
}

export async function getProcessingFees(
  query: ProcessingFeesQuery,
  { signal, client = api }: CallOptions = {},
): Promise<ProcessingFee[]> {
  return dataOrThrow(await client.GET('/outlets/processingFees', { params: { query }, signal })).data;
}

/** POST for payment methods without a stored fee (`isNewMethod`), PUT for the others (§4). */
export async function saveProcessingFees(
  body: ProcessingFeesRequest,
  isNew: boolean,
  { signal, client = api }: CallOptions = {},
): Promise<void> {
  const result = isNew
    ? await client.POST('/outlets/processingFees', { body, signal })
    : await client.PUT('/outlets/processingFees', { body, signal });
  dataOrThrow(result);
}

export async function getSalesTargets(
  query: { client_id: number; date: string },
  { signal, client = api }: CallOptions = {},
): Promise<SalesTarget[]> {
  return dataOrThrow(await client.GET('/outlets/salesTargets', { params: { query }, signal })).data;
}

export async function saveSalesTargets(body: SalesTargetsBody, { signal, client = api }: CallOptions = {}) {
  dataOrThrow(await client.POST('/outlets/salesTargets', { body, signal }));
}

export async function getCategories(query: PagedQuery, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.GET('/outlets/categories', { params: { query }, signal }));
}

export async function getSubcategories(query: PagedQuery, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.GET('/outlets/subcategories', { params: { query }, signal }));
}

export async function createCategory(body: CreateCategoryBody, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.POST('/outlets/categories', { body, signal }));
}

export async function deleteCategory(
  body: { client_id: number; category_id: number; isCategory: boolean },
  { signal, client = api }: CallOptions = {},
): Promise<void> {
  dataOrThrow(await client.DELETE('/outlets/categories', { body, signal }));
}

export async function getSubcategoryNameOptions(
  query: NameOptionQuery & { category_id: number },
  { signal, client = api }: CallOptions = {},
): Promise<AssignableOptions> {
  return dataOrThrow(await client.GET('/outlets/subcategories/name_option', { params: { query }, signal }));
}

export async function getSkuNameOptions(
  query: NameOptionQuery & { subcategory_id: number },
  { signal, client = api }: CallOptions = {},
): Promise<AssignableOptions> {
  return dataOrThrow(await client.GET('/outlets/skuCategory/name_option', { params: { query }, signal }));
}

export async function assignSubcategories(body: AssignSubcategoriesBody, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.PUT('/outlets/subcategories', { body, signal }));
}

export async function assignSkus(body: AssignSkusBody, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.POST('/outlets/skuCategory', { body, signal }));
}

export async function getMealTimings(
  query: { outlet_id: number; client_id: number },
  { signal, client = api }: CallOptions = {},
): Promise<MealTiming[]> {
  return dataOrThrow(await client.GET('/outlets/mealTimings', { params: { query }, signal })).data;
}

export async function createMealTiming(
  body: { outlet_id: number; client_id: number },
  { signal, client = api }: CallOptions = {},
): Promise<MealTiming> {
  return dataOrThrow(await client.POST('/outlets/mealTimings', { body, signal }));
}

export async function updateMealTimings(
  body: { meal_timing: MealTimingRow[]; outlet_id: number; client_id: number },
  { signal, client = api }: CallOptions = {},
): Promise<MealTiming[]> {
  return dataOrThrow(await client.PUT('/outlets/mealTimings', { body, signal })).data;
}

/** Deleted when the server answers 200 (§7), whatever its body. */
export async function deleteMealTiming(
  query: { id: number; outlet_id: number; client_id: number },
  { signal, client = api }: CallOptions = {},
): Promise<true> {
  const result = await client.DELETE('/outlets/mealTimings', { params: { query }, signal });
  if (result.response.status === 200) return true;
  dataOrThrow(result);
  return true;
}
