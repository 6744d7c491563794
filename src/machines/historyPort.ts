/**
 * The address bar as the app machine sees it: what it shows, how to move it, and when the user moved it
 * (back, forward). The browser's is `browserHistory`; tests use `memoryHistory`, which records every entry.
 */
export interface HistoryPort {
  /** The address shown now: path and query (`/receipts?start=...`). */
  current(): string;
  push(href: string): void;
  replace(href: string): void;
  /** Calls `listener` when the address changes without the app asking (back, forward); returns the stop. */
  listen(listener: (href: string) => void): () => void;
}

function windowHref(): string {
  return `${window.location.pathname}${window.location.search}`;
}

export const browserHistory: HistoryPort = {
  current: windowHref,
  push: (href) => window.history.pushState(null, '', href),
  replace: (href) => window.history.replaceState(null, '', href),
  listen: (listener) => {
    const onPopState = () => listener(windowHref());
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  },
};

export interface MemoryHistory extends HistoryPort {
  /** Every entry pushed, the current one last (a replace rewrites the last). */
  readonly entries: string[];
  /** The user moves the address (a typed address, back or forward): the app is told, as by `popstate`. */
  go(href: string, options?: { replace?: boolean }): void;
}

export function memoryHistory(initial: string): MemoryHistory {
  const entries = [initial];
  const listeners = new Set<(href: string) => void>();
  return {
    entries,
    current: () => entries.at(-1) ?? initial,
    push: (href) => {
      entries.push(href);
    },
    replace: (href) => {
      entries[entries.length - 1] = href;
    },
    listen: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    go: (href, options) => {
      if (options?.replace) entries[entries.length - 1] = href;
      else entries.push(href);
      for (const listener of listeners) listener(href);
    },
  };
}
