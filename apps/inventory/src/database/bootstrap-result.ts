/** What the database start-up hands to the rest of the app. */
export interface BootstrapResult {
  jwtSecret: string;
}

export const BOOTSTRAP_RESULT = Symbol('BOOTSTRAP_RESULT');
