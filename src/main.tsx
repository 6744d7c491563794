import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/icons/lib/css/blueprint-icons.css';
import '@blueprintjs/datetime2/lib/css/blueprint-datetime2.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { AppContext } from './machines/appContext';
import { inspectActors } from './machines/inspection';
import { pageFiltersFor, ROUTES } from './routes';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <AppContext.Provider
      options={{ input: { routeTable: ROUTES, pageFilters: pageFiltersFor }, inspect: inspectActors }}
    >
      <App />
    </AppContext.Provider>
  </StrictMode>,
);
