import { Callout, Card, Classes } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { settingsMachine } from '../../../machines/settings/settingsMachine';
import { usePageActor } from '../../common/usePageActor';
import { PageHeader } from '../../filters/PageHeader';
import type { PageProps } from '../pageProps';
import { CategoriesSection } from './CategoriesSection';
import { DeviceKeysSection } from './DeviceKeysSection';
import { EmailSubscriptionsSection } from './EmailSubscriptionsSection';
import { MealTimingsSection } from './MealTimingsSection';
import { ProcessingFeesSection } from './ProcessingFeesSection';
import { SalesTargetsSection } from './SalesTargetsSection';
import './settings.css';

type SettingsActor = ActorRefFrom<typeof settingsMachine>;

/** A section of the page while its editor has not started (no client or no outlet chosen yet). */
function Waiting({ title, text, testId }: { readonly title: string; readonly text: string; readonly testId: string }) {
  return (
    <Card className="settings-section" data-testid={testId}>
      <h2 className="settings-section-title">{title}</h2>
      <Callout intent="primary">{text}</Callout>
    </Card>
  );
}

/**
 * The Settings page (§2): e-mail subscriptions, sales targets and categories of the header's client; processing
 * fees and meal timings of its one outlet; the point-of-sale device keys of that outlet's mall. Each section draws
 * its editor's state and sends it events.
 */
export function SettingsPage({ title, header }: PageProps) {
  const actor = usePageActor(settingsMachine);
  return (
    <section className="settings-page" data-testid="settings-page">
      <PageHeader title={title} header={header} />
      {actor ? (
        <SettingsSections actor={actor} />
      ) : (
        <Card className={`settings-section ${Classes.SKELETON}`} data-testid="settings-starting" />
      )}
    </section>
  );
}

function SettingsSections({ actor }: { readonly actor: SettingsActor }) {
  const children = useSelector(actor, (state) => state.children);
  const email = children.emailSubscriptions;
  const targets = children.salesTargets;
  const categories = children.categories;
  const fees = children.processingFees;
  const meals = children.mealTimings;
  const devices = children.deviceKeys;
  const chooseClient = 'Choose a client to see its settings.';
  const chooseOutlet = 'Choose an Outlet to see its settings.';
  return (
    <div className="settings-grid">
      {email ? (
        <EmailSubscriptionsSection actor={email} />
      ) : (
        <Waiting title="E-mail subscriptions" text={chooseClient} testId="settings-email-waiting" />
      )}
      {fees ? (
        <ProcessingFeesSection actor={fees} />
      ) : (
        <Waiting title="Processing fees" text={chooseOutlet} testId="settings-fees-waiting" />
      )}
      {targets ? (
        <SalesTargetsSection actor={targets} />
      ) : (
        <Waiting title="Sales targets" text={chooseClient} testId="settings-targets-waiting" />
      )}
      {meals ? (
        <MealTimingsSection actor={meals} />
      ) : (
        <Waiting title="Meal timings" text={chooseOutlet} testId="settings-meals-waiting" />
      )}
      {categories ? (
        <CategoriesSection actor={categories} />
      ) : (
        <Waiting title="Categories and subcategories" text={chooseClient} testId="settings-categories-waiting" />
      )}
      {devices ? <DeviceKeysSection actor={devices} /> : null}
    </div>
  );
}
