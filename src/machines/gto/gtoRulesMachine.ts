import type { ApiClient } from '../../api/client';
import { api } from '../../api/client';
import { getGtoSettings, updateGtoSettings } from '../../api/gto';
import { GTO_RULES_WHAT, type GtoRulesDraft, isDueDay, parseThreshold } from '../../domain/gto';
import { SAVE_FAILED_MESSAGE, SAVE_SUCCESS_MESSAGE } from '../../domain/settings';
import { createEditorMachine } from '../factories/editorMachine';

export interface GtoRulesInput {
  readonly clientId: number;
}

/** The threshold as the field shows it: '5', '7.5', '12.25'. */
const thresholdText = (value: number) => String(Math.round(value * 100) / 100);

/**
 * The client's GTO review rules (GET / PUT /api/gtoReport/settings): the variance threshold, the due day of the
 * following month and the reminders, in the editor factory's shape; a save tells the review (`editor.saved`),
 * which reads its rows again under the new rules.
 */
export function createGtoRulesMachine(client: ApiClient = api) {
  return createEditorMachine<GtoRulesDraft, GtoRulesInput>({
    id: 'gtoRules',
    what: GTO_RULES_WHAT,
    load: async ({ clientId }, { signal }) => {
      const rules = await getGtoSettings(clientId, { signal, client });
      return {
        clientId,
        thresholdText: thresholdText(rules.variance_threshold),
        dueDay: rules.due_day,
        reminders: rules.reminders,
      };
    },
    save: async (draft, { signal }) => {
      const threshold = parseThreshold(draft.thresholdText);
      if (threshold === undefined) throw new Error('gtoRules: saving an invalid threshold');
      const saved = await updateGtoSettings(
        { client_id: draft.clientId, variance_threshold: threshold, due_day: draft.dueDay, reminders: draft.reminders },
        { signal, client },
      );
      return {
        clientId: draft.clientId,
        thresholdText: thresholdText(saved.variance_threshold),
        dueDay: saved.due_day,
        reminders: saved.reminders,
      };
    },
    validate: (draft) => parseThreshold(draft.thresholdText) !== undefined && isDueDay(draft.dueDay),
    savedMessage: SAVE_SUCCESS_MESSAGE,
    failedMessage: SAVE_FAILED_MESSAGE,
    tellParentSaved: true,
  });
}

export const gtoRulesMachine = createGtoRulesMachine();
