import { AuthContext } from '../../machines/authContext';
import { FullPageSpinner } from '../common/FullPageSpinner';
import { MainLayout } from './MainLayout';

/** Every permission-gated path: the main layout once signed in (the guard keeps everyone else out). */
export function SignedInArea() {
  const authenticated = AuthContext.useSelector((state) => state.hasTag('authenticated'));
  if (!authenticated) return <FullPageSpinner />;
  return <MainLayout />;
}
