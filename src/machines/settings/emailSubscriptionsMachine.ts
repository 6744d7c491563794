import type { ApiClient } from '../../api/client';
import { api } from '../../api/client';
import { getEmailSubscription, updateEmailSubscription } from '../../api/settings';
import { SAVE_FAILED_MESSAGE, SAVE_SUCCESS_MESSAGE, SETTINGS_WHAT } from '../../domain/settings';
import { createEditorMachine } from '../factories/editorMachine';

/** The signed-in user's e-mail subscriptions for a client (§3): void-receipt alerts and the daily summary. */
export interface EmailSubscriptionsValue {
  /** The client the subscription is for (the save needs it; never edited). */
  readonly clientId: number;
  readonly voidEmail: boolean;
  readonly summaryEmail: boolean;
}

export interface EmailSubscriptionsInput {
  readonly clientId: number;
}

/**
 * The e-mail subscriptions editor (§2, §7): the editor factory's shape; GET loads the user's subscription (none
 * stored: both off), POST saves both switches; 'Save Successfully.' / 'Save Failed.'.
 */
export function createEmailSubscriptionsMachine(client: ApiClient = api) {
  return createEditorMachine<EmailSubscriptionsValue, EmailSubscriptionsInput>({
    id: 'emailSubscriptions',
    what: SETTINGS_WHAT.emailSubscriptions,
    load: async (input, { signal }) => {
      const found = await getEmailSubscription(input.clientId, { signal, client });
      return {
        clientId: input.clientId,
        voidEmail: found?.email_subscribe ?? false,
        summaryEmail: found?.summary_email_subscribe ?? false,
      };
    },
    save: async (draft, { signal }) => {
      const saved = await updateEmailSubscription(
        { client_id: draft.clientId, void_email: draft.voidEmail, summary_email: draft.summaryEmail },
        { signal, client },
      );
      return {
        clientId: draft.clientId,
        voidEmail: saved.email_subscribe,
        summaryEmail: saved.summary_email_subscribe,
      };
    },
    savedMessage: SAVE_SUCCESS_MESSAGE,
    failedMessage: SAVE_FAILED_MESSAGE,
  });
}

export const emailSubscriptionsMachine = createEmailSubscriptionsMachine();
