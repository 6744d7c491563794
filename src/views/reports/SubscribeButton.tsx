import { Button } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import { filterQueryOf } from '../../domain/filterHeader';
import { withFilterQuery, withReadableCommas } from '../../domain/filterUrl';
import { isSubscribablePage, subscriptionTargetOf } from '../../domain/reportSubscriptions';
import { NavigationContext } from '../../machines/navigationContext';
import { subscriptionEditorMachine } from '../../machines/reportSubscriptionEditorMachine';
import { useNoticeToasts } from '../common/Notifications';
import { FilterHeaderContext } from '../filters/filterHeaderContext';
import { SubscriptionDialog } from './SubscriptionDialog';

/**
 * The report toolbar's Subscribe (issue 34): on a report page that can be mailed (domain/reportSubscriptions), for a
 * user who may make subscriptions (the editor machine's `mayCreate`, from the permission gate), it opens the
 * subscribe dialog on the page's path and query: the header's committed filters with the page's own keys of the
 * address (the comparison). Elsewhere it draws nothing.
 */
export function SubscribeButton() {
  const editor = useActorRef(subscriptionEditorMachine);
  useNoticeToasts(editor);
  const mayCreate = useSelector(editor, (snapshot) => snapshot.context.mayCreate);
  const location = NavigationContext.useSelector((snapshot) => snapshot.context.location);
  const header = FilterHeaderContext.useSelector((snapshot) => snapshot.context);
  // The header's committed filters (the address may not show them yet) and the page's own keys of the address.
  const search = location ? withReadableCommas(withFilterQuery(location.search, filterQueryOf(header))) : '';
  const target = location ? subscriptionTargetOf(location.path, search) : undefined;
  if (!mayCreate || !location || !isSubscribablePage(location.path)) return null;
  return (
    <>
      <Button
        icon="envelope"
        data-testid="report-subscribe"
        disabled={target === undefined}
        onClick={() => target && editor.send({ type: 'subscribe.open', target })}
      >
        Subscribe
      </Button>
      <SubscriptionDialog actor={editor} />
    </>
  );
}
