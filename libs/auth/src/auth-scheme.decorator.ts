import { SetMetadata } from '@nestjs/common';

export type AuthSchemeName = 'jwt' | 'basic';
export const AUTH_SCHEME_KEY = 'inventory:auth-scheme';
export const PUBLIC_KEY = 'inventory:public';

/** Which credentials a controller (or one handler) requires. A route without one answers 401. */
export const AuthScheme = (scheme: AuthSchemeName) => SetMetadata(AUTH_SCHEME_KEY, scheme);

/** Marks a route that needs no credentials (health, docs). The only way to opt out of auth. */
export const Public = () => SetMetadata(PUBLIC_KEY, true);
