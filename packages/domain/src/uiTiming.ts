// The interface's delays that the specification sets (section 9), shared by the web app and its tests.

/** Alerts close themselves after this long (ms) unless told otherwise; 0 keeps them (spec section 9). */
export const ALERT_TIMEOUT_MS = 5000;

/** Header title delay after the view initialises (ms). */
export const HEADER_TITLE_DELAY_MS = 200;
