import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/icons/lib/css/blueprint-icons.css';
import '@blueprintjs/datetime2/lib/css/blueprint-datetime2.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { App } from './App';
import { AuthContext } from './machines/authContext';
import { inspectActors } from './machines/inspection';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <AuthContext.Provider options={{ inspect: inspectActors }}>
      <Router>
        <App />
      </Router>
    </AuthContext.Provider>
  </StrictMode>,
);
