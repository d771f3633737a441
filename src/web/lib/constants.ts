// Every user-visible delay and limit of the web app, as the spec states them (seller-app §9, admin §9).

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

// Toasts (seller-app §9)
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_DURATION_MS = 5 * SECOND;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = ['F8'];

// CSRF token cache (seller-app §7)
export const CSRF_TOKEN_LIFETIME_MS = 1.5 * HOUR;
export const CSRF_TOKEN_REFRESH_MARGIN_MS = 5 * MINUTE;

// Queries (seller-app §7)
export const CURRENT_USER_STALE_MS = 5 * MINUTE;
export const SUBSCRIPTION_STATUS_STALE_MS = 2 * MINUTE;
export const SUBSCRIPTION_STATUS_GC_MS = 10 * MINUTE;
export const RATE_LIMIT_RETRY_DEFAULT_MS = 30 * SECOND;
export const RETRY_DELAY_CAP_MS = 30 * SECOND;
export const RATE_LIMIT_MAX_RETRIES = 3;
export const OTHER_ERROR_MAX_RETRIES = 2;

// Flows (seller-app §4, §9)
export const TRIAL_START_RELOAD_DELAY_MS = 1 * SECOND;
export const LOGOUT_REDIRECT_DELAY_MS = 200;
export const COPY_CONFIRMATION_MS = 2 * SECOND;
/** Tooltips (spec seller-app §9): open after 700 ms, 300 ms skip delay between neighbours, 4 px from their trigger. */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
export const TOOLTIP_OFFSET_PX = 4;

// Subscription banners (seller-app §4)
export const TRIAL_URGENT_DAYS = 1;
export const TRIAL_WARNING_DAYS = 3;

// Realtime (seller-app §9)
export const SOCKET_CONNECT_TIMEOUT_MS = 10 * SECOND;
export const SOCKET_RECONNECT_ATTEMPTS = 5;
export const SOCKET_RECONNECT_DELAY_MS = 2 * SECOND;
export const SOCKET_MANUAL_RECONNECT_DELAY_MS = 3 * SECOND;

// Task progress (seller-app §4)
export const TASK_PROGRESS_KEEP = 50;
export const TASK_PROGRESS_LIST_SHOWN = 10;
export const SYSTEM_NOTIFICATIONS_KEEP = 20;

// Package management (seller-app §4, §5, §9)
/** The add-package dialog's Refresh waits this long before it reads the code host's list again. */
export const REPOSITORY_REFRESH_DELAY_MS = 1 * SECOND;
// The server checks the same durations: they live in the contract.
export {
  DEFAULT_TEMPORARY_LICENSE_DURATION as TEMPORARY_LICENSE_DEFAULT_DAYS,
  TEMPORARY_LICENSE_DURATIONS as TEMPORARY_LICENSE_DURATIONS_DAYS,
} from '../../contract/licenses';
/** Days left at or below this show orange; at or below 0, red. */
export const DAYS_LEFT_WARNING_THRESHOLD = 3;

// Admin (admin §2, §9)
export const IMPERSONATION_LIST_MAX_HEIGHT = '15rem';
export const RECENT_USERS_SHOWN = 5;
export const ADMIN_TASK_BANNER_MAX_TASKS = 5;
/** Cache stats, the cache package list and each tier's subscriber badge are read again this often. */
export const ADMIN_POLL_INTERVAL_MS = 30 * SECOND;
/** Stats and the package list are read again this long after a cache task completes or fails. */
export const CACHE_TASK_END_REFETCH_DELAY_MS = 1 * SECOND;
export const CACHE_PACKAGE_REFETCH_DELAY_MS = 500;
/** Defaults of a tier the admin adds in the tier dialog (spec admin §9). */
export const NEW_TIER_PRICE_CENTS = 2900;
export const NEW_TIER_MAX_CUSTOMERS = 50;
export const NEW_TIER_MAX_PACKAGES = 5;
export const TRIAL_DAYS_PLACEHOLDER = 14;

// Subscription and billing (seller-app §4, §9; admin §4)
/** The browser goes to the checkout URL this long after create answers. */
export const CHECKOUT_REDIRECT_DELAY_MS = 500;
/** After a return from checkout that is not complete yet, the status is read again this long after. */
export const POST_CHECKOUT_REFETCH_DELAY_MS = 3 * SECOND;
/** How long the return-from-checkout toasts stay on screen. */
export const CHECKOUT_TOAST_DURATION_MS = 5 * SECOND;

// Branding (seller-app §3, §5, §9). The server checks the same logo limits: they live in the contract.
export { LOGO_ACCEPT, LOGO_MAX_BYTES } from '../../contract/branding';
/** Placeholder of the accent colour field. */
export const BRAND_COLOR_PLACEHOLDER = '#8B5CF6';

// Custom domains: DNS notes (seller-app §9)
export const DNS_RECORD_TTL_SECONDS = 300;
export const DNS_PROPAGATION_TYPICAL = '5-15 minutes';
export const DNS_PROPAGATION_MAX_HOURS = 48;
export const DNS_COMPOSER_SUBDOMAIN = 'composer';
export const DNS_PORTAL_SUBDOMAIN = 'portal';

// License holders of a lapsed subscription keep installing this long; the server applies the same rule.
export { LICENSE_HOLDER_GRACE_DAYS as LAPSED_SUBSCRIPTION_GRACE_DAYS } from '../../contract/billing';

// Access Management's holder list (issue 34): the server pages and searches it.
/** Holders loaded per page; the next page loads as the seller scrolls to the end or clicks Load more. */
export const LICENSE_HOLDERS_PAGE_SIZE = 50;
/** The search is sent to the server once the seller stops typing for this long. */
export const LICENSE_HOLDER_SEARCH_DELAY_MS = 300;
