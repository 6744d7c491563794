import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { FullPageSpinner } from './views/common/FullPageSpinner';
import { Notifications } from './views/common/Notifications';
import { PageNotAvailable } from './views/common/PageNotAvailable';
import { GuardedRouter } from './views/layout/GuardedRouter';
import { AccountCreationPage } from './views/pages/auth/AccountCreationPage';
import { LoginPage } from './views/pages/auth/LoginPage';
import { MfaPage } from './views/pages/auth/MfaPage';
import { ResetPasswordPage } from './views/pages/auth/ResetPasswordPage';
import { ResetPasswordSuccessPage } from './views/pages/auth/ResetPasswordSuccessPage';
import { SsoPage } from './views/pages/auth/SsoPage';
import { UpdatePasswordPage } from './views/pages/auth/UpdatePasswordPage';
import { NotFoundPage } from './views/pages/NotFoundPage';
import './views/theme.css';
import './views/common/common.css';

/** The main layout, its filters, charts and tables load once a user is signed in, never with /login. */
const SignedInArea = lazy(() =>
  import('./views/layout/SignedInArea').then((module) => ({ default: module.SignedInArea })),
);

/**
 * The app's pages inside the app machine's provider: the guard's decision picks the page, the signed-in area
 * shows the main layout, and the app's notices show as toasts.
 */
export function App() {
  return (
    <Notifications>
      <GuardedRouter>
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
            <Suspense fallback={<FullPageSpinner />}>
              <SignedInArea />
            </Suspense>
          </Route>
        </Switch>
      </GuardedRouter>
    </Notifications>
  );
}
