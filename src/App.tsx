import { Route, Switch } from 'wouter';
import { inspectActors } from './machines/inspection';
import { NavigationContext } from './machines/navigationContext';
import { navigationGuardMachine } from './machines/navigationGuardMachine';
import { ROUTES } from './routes';
import { FlowNavigator } from './views/common/FlowNavigator';
import { Notifications } from './views/common/Notifications';
import { PageNotAvailable } from './views/common/PageNotAvailable';
import { SessionBridge } from './views/common/SessionBridge';
import { GuardedRouter } from './views/layout/GuardedRouter';
import { SignedInArea } from './views/layout/SignedInArea';
import { AccountCreationPage } from './views/pages/auth/AccountCreationPage';
import { LoginPage } from './views/pages/auth/LoginPage';
import { MfaPage } from './views/pages/auth/MfaPage';
import { ResetPasswordPage } from './views/pages/auth/ResetPasswordPage';
import { ResetPasswordSuccessPage } from './views/pages/auth/ResetPasswordSuccessPage';
import { SsoPage } from './views/pages/auth/SsoPage';
import { UpdatePasswordPage } from './views/pages/auth/UpdatePasswordPage';
import { NotFoundPage } from './views/pages/NotFoundPage';

export interface AppProps {
  /** The navigation guard (tests provide one with other actors). */
  readonly navigationGuard?: typeof navigationGuardMachine;
}

/**
 * The app inside the auth provider and a wouter router (the browser's address, or a memory
 * location in tests): the navigation guard between that address and the pages.
 */
export function App({ navigationGuard = navigationGuardMachine }: AppProps) {
  return (
    <NavigationContext.Provider
      logic={navigationGuard}
      options={{ input: { routeTable: ROUTES }, inspect: inspectActors }}
    >
      <SessionBridge />
      <Notifications>
        <GuardedRouter>
          <FlowNavigator />
          <Switch>
            <Route path="/login" component={LoginPage} />
            <Route path="/sso" component={SsoPage} />
            <Route path="/mfa-validation" component={MfaPage} />
            <Route path="/reset-password" component={ResetPasswordPage} />
            <Route path="/reset-password-success" component={ResetPasswordSuccessPage} />
            <Route path="/account-creation" component={AccountCreationPage} />
            <Route path="/update-password" component={UpdatePasswordPage} />
            <Route path="/404" component={NotFoundPage} />
            <Route path="/download/receipts/pdf">
              <PageNotAvailable title="Receipt PDF" />
            </Route>
            <Route path="/payment">
              <PageNotAvailable title="Payment" />
            </Route>
            <Route>
              <SignedInArea />
            </Route>
          </Switch>
        </GuardedRouter>
      </Notifications>
    </NavigationContext.Provider>
  );
}
