/**
 * The device and layout constants of §2 and §9: mobile is detected by the user agent (not by the
 * width), the breadcrumb shows only below 768 px, and the collapsed sidebar opens its sub-menus after
 * 200 ms. Pure: the view passes `navigator.userAgent` in.
 */

/** §9: the breadcrumb is shown below this width (and hidden at 768 px and wider). */
export const BREADCRUMB_MOBILE_BREAKPOINT = 768;

/** §9: the sidebar menu's show-timeout (a collapsed sidebar's sub-menu opens after hovering this long). */
export const SIDEBAR_SHOW_TIMEOUT = 200;

const MOBILE_USER_AGENT = /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i;

/** §2: "Mobile is detected by user agent." */
export function isMobileUserAgent(userAgent: string): boolean {
  return MOBILE_USER_AGENT.test(userAgent);
}
