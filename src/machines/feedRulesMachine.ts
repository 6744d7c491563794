import type { ApiClient } from '../api/client';
import { api } from '../api/client';
import { getFeedAlertSettings, updateFeedAlertSettings } from '../api/dataFeeds';
import {
  FEED_RULES_WHAT,
  type FeedRulesDraft,
  isFeedRulesDraftValid,
  parseSilenceMinutes,
  parseUnusualThreshold,
} from '../domain/dataFeeds';
import { SAVE_FAILED_MESSAGE, SAVE_SUCCESS_MESSAGE } from '../domain/settings';
import { createEditorMachine } from './factories/editorMachine';

export interface FeedRulesInput {
  readonly clientId: number;
}

/**
 * The client's feed and unusual-day rules (GET / PUT /api/dataFeeds/settings): the minutes without a receipt before an outlet is
 * silent, and the threshold and fewest baseline days of an unusual day, in the editor factory's shape; a save tells
 * the Data Feeds page (`editor.saved`), which reads the feeds again under the new rules.
 */
export function createFeedRulesMachine(client: ApiClient = api) {
  return createEditorMachine<FeedRulesDraft, FeedRulesInput>({
    id: 'feedRules',
    what: FEED_RULES_WHAT,
    load: async ({ clientId }, { signal }) => {
      const rules = await getFeedAlertSettings(clientId, { signal, client });
      return {
        clientId,
        silenceText: String(rules.silence_minutes),
        thresholdText: String(rules.unusual_threshold),
        minBaseline: rules.unusual_min_baseline,
      };
    },
    save: async (draft, { signal }) => {
      const minutes = parseSilenceMinutes(draft.silenceText);
      const threshold = parseUnusualThreshold(draft.thresholdText);
      if (minutes === undefined || threshold === undefined) throw new Error('feedRules: saving an invalid draft');
      const saved = await updateFeedAlertSettings(
        {
          client_id: draft.clientId,
          silence_minutes: minutes,
          unusual_threshold: threshold,
          unusual_min_baseline: draft.minBaseline,
        },
        { signal, client },
      );
      return {
        clientId: draft.clientId,
        silenceText: String(saved.silence_minutes),
        thresholdText: String(saved.unusual_threshold),
        minBaseline: saved.unusual_min_baseline,
      };
    },
    validate: isFeedRulesDraftValid,
    savedMessage: SAVE_SUCCESS_MESSAGE,
    failedMessage: SAVE_FAILED_MESSAGE,
    tellParentSaved: true,
  });
}

export const feedRulesMachine = createFeedRulesMachine();
