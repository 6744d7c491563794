import { AppContext } from '../../machines/appContext';
import { FullPageSpinner } from '../common/FullPageSpinner';
import { MainLayout } from './MainLayout';

/**
 * Every permission-gated path: the main layout once the app machine has a signed-in user and runs the signed-in
 * frame's actors (the guard keeps everyone else out). A new user gets a new layout.
 */
export function SignedInArea() {
  const userId = AppContext.useSelector((state) => (state.matches('signedIn') ? state.context.user?.id : undefined));
  if (userId === undefined) return <FullPageSpinner />;
  return <MainLayout key={userId} />;
}
