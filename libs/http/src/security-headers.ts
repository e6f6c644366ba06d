/**
 * The Content-Security-Policy of every answer. JSON answers need none of it; it is there for the
 * one HTML page, Swagger UI at /api/doc, and for anything a browser might be tricked into
 * rendering: scripts only from this origin, never inline (script-src-attr blocks `onclick=`).
 * Swagger UI's page carries inline `<style>` blocks and its CSS uses `data:` images, hence
 * `style-src 'unsafe-inline'` and `img-src data:`; "Try it out" fetches this origin
 * (`connect-src 'self'`). No `upgrade-insecure-requests`: the service itself speaks plain
 * HTTP, and the directive would send the page's own requests to an https:// that is not there.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join('; ');

/**
 * Set on every answer, errors and the HTTP parser's own refusals included. What helmet would
 * set for an API, fixed at start so that each request pays one object copy. Not
 * Strict-Transport-Security: browsers ignore it over plain HTTP, and whatever terminates TLS
 * in front of the service is where it belongs.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  // For browsers older than frame-ancestors.
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-permitted-cross-domain-policies': 'none',
});
