import { updateXeroSettings, type XeroInfo, type XeroInfoResponse } from '../api/apps';
import { type ApiClient, api } from '../api/client';
import { XERO_ACCOUNTS_WHAT } from '../domain/apps';
import { SAVE_FAILED_MESSAGE, SAVE_SUCCESS_MESSAGE } from '../domain/settings';
import { createEditorMachine } from './factories/editorMachine';

/** The accounts of the daily sales journals, as the editor holds them ('' while none is chosen). */
export interface XeroAccountsValue {
  /** The client they are for (the save needs it; never edited). */
  readonly clientId: number;
  readonly salesAccount: string;
  readonly taxAccount: string;
  readonly clearingAccount: string;
}

export interface XeroAccountsInput {
  readonly clientId: number;
  readonly info: XeroInfo;
}

/** The accounts of a connection's info. */
export function accountsOf(clientId: number, info: XeroInfo): XeroAccountsValue {
  return {
    clientId,
    salesAccount: info.sales_account ?? '',
    taxAccount: info.tax_account ?? '',
    clearingAccount: info.clearing_account ?? '',
  };
}

/** Whether every account is chosen (the journals need all three). */
export const areAccountsChosen = (value: Omit<XeroAccountsValue, 'clientId'>) =>
  value.salesAccount !== '' && value.taxAccount !== '' && value.clearingAccount !== '';

/** The info with the accounts as saved. */
export function withAccounts(info: XeroInfoResponse, value: XeroAccountsValue): XeroInfoResponse {
  if (!info.xeroInfo) return info;
  return {
    ...info,
    xeroInfo: {
      ...info.xeroInfo,
      sales_account: value.salesAccount,
      tax_account: value.taxAccount,
      clearing_account: value.clearingAccount,
    },
  };
}

/**
 * The Xero page's accounts editor (the editor factory's shape): starts from the connection's info, saves the three
 * choices with PUT /api/apps/xero/settings ('Save Successfully.' / 'Save Failed.'), and tells the page of each save
 * (`editor.saved`) so that it posts with the accounts saved.
 */
export function createXeroAccountsMachine(client: ApiClient = api) {
  return createEditorMachine<XeroAccountsValue, XeroAccountsInput>({
    id: 'xeroAccounts',
    what: XERO_ACCOUNTS_WHAT,
    load: async (input) => accountsOf(input.clientId, input.info),
    save: async (draft, { signal }) => {
      const saved = await updateXeroSettings(
        {
          client_id: draft.clientId,
          sales_account: draft.salesAccount,
          tax_account: draft.taxAccount,
          clearing_account: draft.clearingAccount,
        },
        { signal, client },
      );
      return saved.xeroInfo ? accountsOf(draft.clientId, saved.xeroInfo) : draft;
    },
    validate: areAccountsChosen,
    savedMessage: SAVE_SUCCESS_MESSAGE,
    failedMessage: SAVE_FAILED_MESSAGE,
    tellParentSaved: true,
  });
}
