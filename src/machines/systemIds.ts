/** The system ids of the app machine's actors: any actor of the app's system finds them with `system.get(id)`. */
export const APP_SYSTEM_IDS = {
  auth: 'auth',
  navigation: 'navigation',
  layout: 'layout',
  filterHeader: 'filterHeader',
  inspector: 'inspector',
} as const;
