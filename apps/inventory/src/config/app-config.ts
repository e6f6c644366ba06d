/** Every setting of the service, parsed and checked. Built once from the environment. */
export interface AppConfig {
  port: number;
  host: string;
  database: { type: 'sqlite'; path: string } | { type: 'postgres'; url: string };
  /** How long a start waits for an unreachable database before it gives up; 0: one attempt. */
  databaseRetryMs: number;
  jwt: {
    secret?: string;
    publicKeyPath?: string;
    publicKey?: string;
    issuer?: string;
    audience?: string;
    ttlSeconds: number;
    prefix?: string;
  };
  admin: { username: string; password?: string };
  demoData: boolean;
  /** How long one read or delete query may run (INVENTORY_QUERY_TIMEOUT), docs/query-language.md. */
  queryTimeoutMs: number;
  bodyLimitBytes: number;
  /** Headers and body must arrive within this (INVENTORY_REQUEST_TIMEOUT), else 408. */
  requestTimeoutMs: number;
  /** Open connections accepted at once (INVENTORY_MAX_CONNECTIONS). */
  maxConnections: number;
  logLevel: LogLevelName;
  /** LOG_FORMAT: JSON lines, human-readable lines, or (`auto`) human-readable when stdout is a terminal. */
  logFormat: LogFormat;
  /** INVENTORY_ACCESS_LOG: one line per answered request (README "Logs"). */
  accessLog: boolean;
  /** INVENTORY_METRICS: Prometheus metrics at /metrics (README "Metrics"). */
  metrics: boolean;
  /** INVENTORY_CORS_ORIGINS: origins whose pages may call the service; `*` for any; empty: no CORS. */
  corsOrigins: string[];
  /** INVENTORY_TRUST_PROXY: whose X-Forwarded-For names the client address (Fastify's trustProxy). */
  trustProxy: boolean | number | string[];
  /** Failed authentications allowed per user and per client address within the window (README "Throttling"). */
  authThrottle: { limit: number; windowMs: number };
}

export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug', 'verbose'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

export const APP_CONFIG = Symbol('APP_CONFIG');
